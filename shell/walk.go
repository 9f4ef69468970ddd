package shell

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"sort"
	"syscall"
	"time"
)

// SkipDir returned by a walk callback for a folder skips its contents.
var SkipDir = fs.SkipDir

// WalkOptions selects what a walk leaves out. Deny-glob matches and
// editord's temp files are always left out; symlinks are reported but never
// followed, so a walk cannot loop or leave the jail.
type WalkOptions struct {
	Gitignore bool // honour .gitignore files (nested ones too) and .git/info/exclude
	Noise     bool // skip the configured noise folders
	MaxDepth  int  // 0: unlimited; 1: direct children only
	// Ignore is extra gitignore-syntax rules relative to the walk's base,
	// applied beneath its .gitignore files (a parent repository's rules, say).
	Ignore *Patterns
	// SweepTemps removes the stale temp files of killed writers that the
	// walk passes (see staleTempAge).
	SweepTemps bool
}

// WalkEntry is one path met by a walk.
type WalkEntry struct {
	Rel   string // relative to the walk's base, "/"-separated
	Name  string
	Kind  string // file, dir, symlink
	Depth int    // 1 for direct children
}

// IgnoreLevel is one ignore file's rules and the folder they are relative
// to ("" for the base of the walk or repository).
type IgnoreLevel struct {
	Dir   string
	Rules *Patterns
}

// IgnoreStack is the ignore files that apply in a folder, shallowest
// first, as git reads them: global excludes, info/exclude, then each
// folder's .gitignore.
type IgnoreStack []IgnoreLevel

// With is s plus the rules of folder dir, never writing into s's array
// (sibling folders share their parent's stack).
func (s IgnoreStack) With(dir string, p *Patterns) IgnoreStack {
	return append(s[:len(s):len(s)], IgnoreLevel{Dir: dir, Rules: p})
}

// Ignored applies the levels deepest first: the nearest ignore file that
// has an opinion on rel decides.
func (s IgnoreStack) Ignored(rel string, isDir bool) bool {
	for i := len(s) - 1; i >= 0; i-- {
		l := s[i]
		sub := rel
		if l.Dir != "" {
			sub = rel[len(l.Dir)+1:]
		}
		if m, ex := l.Rules.Decide(sub, isDir); m {
			return ex
		}
	}
	return false
}

// Walk visits everything under abs in byte order of path: each folder's
// entries are sorted with a folder's name read as "name/", and a folder's
// contents come right after it, so "a.txt" comes before "a/b.txt" (the
// order git lists paths in). Returning SkipDir for a folder skips it; any
// other error stops the walk. abs must be a folder: a missing one is
// not_found, a file not_a_directory.
func (j *Jail) Walk(abs string, opt WalkOptions, fn func(WalkEntry) error) error {
	t, err := j.prepare(abs, true, false)
	if err != nil {
		return err
	}
	fi, err := t.r.root.Stat(t.rel)
	if err != nil {
		return AsError(err, t.abs)
	}
	if !fi.IsDir() {
		return Errorf(CodeNotADirectory, t.abs, "%s is a file, not a folder", t.abs)
	}
	w := &walker{j: j, t: t, base: relOrEmpty(t.rel), opt: opt, fn: fn}
	if lex := j.lexRel(abs); lex != w.base {
		w.lexBase = &lex
	}
	var levels IgnoreStack
	if opt.Ignore != nil {
		levels = levels.With("", opt.Ignore)
	}
	if opt.Gitignore {
		if data, ok := readIgnoreFile(t.r.root, path.Join(t.rel, ".git/info/exclude")); ok {
			levels = levels.With("", ParseIgnoreFile(data))
		}
	}
	err = w.dir("", 1, levels)
	if errors.Is(err, fs.SkipAll) {
		return nil
	}
	return err
}

type walker struct {
	j       *Jail
	t       target
	base    string  // the walk's base relative to the root, symlinks resolved ("" for the root)
	lexBase *string // the base as the caller named it, when it differs
	opt     WalkOptions
	fn      func(WalkEntry) error
}

// denied checks a child under the resolved base and under the name the
// caller used: what cannot be read is not listed.
func (w *walker) denied(childRel string, isDir bool) bool {
	if w.j.denied(path.Join(w.base, childRel), isDir) {
		return true
	}
	return w.lexBase != nil && w.j.denied(path.Join(*w.lexBase, childRel), isDir)
}

func (w *walker) dir(rel string, depth int, levels IgnoreStack) error {
	root := w.t.r.root
	dirRel := path.Join(w.base, rel)
	if dirRel == "" {
		dirRel = "."
	}
	// O_DIRECTORY: a folder swapped for a FIFO must not block the walk.
	f, err := root.OpenFile(dirRel, os.O_RDONLY|syscall.O_DIRECTORY, 0)
	if err != nil {
		return nil // vanished or unreadable: a walk reports what it can see
	}
	ents, err := f.ReadDir(-1)
	f.Close()
	if err != nil && len(ents) == 0 {
		return nil
	}
	key := func(e fs.DirEntry) string {
		if e.IsDir() {
			return e.Name() + "/"
		}
		return e.Name()
	}
	sort.Slice(ents, func(a, b int) bool { return key(ents[a]) < key(ents[b]) })
	if w.opt.Gitignore {
		for _, e := range ents {
			if e.Name() == ".gitignore" && e.Type().IsRegular() {
				if data, ok := readIgnoreFile(root, path.Join(dirRel, ".gitignore")); ok {
					levels = levels.With(rel, ParseIgnoreFile(data))
				}
				break
			}
		}
	}
	now := time.Now()
	for _, e := range ents {
		name := e.Name()
		if IsTempName(name) {
			if w.opt.SweepTemps {
				sweepTemp(root, path.Join(dirRel, name), now)
			}
			continue
		}
		isDir := e.IsDir()
		if isDir && (name == ".git" || (w.opt.Noise && w.j.noise[name])) {
			continue
		}
		childRel := name
		if rel != "" {
			childRel = rel + "/" + name
		}
		if w.denied(childRel, isDir) {
			continue
		}
		if levels.Ignored(childRel, isDir) {
			continue
		}
		kind := KindFile
		switch {
		case isDir:
			kind = KindDir
		case e.Type()&fs.ModeSymlink != 0:
			kind = KindSymlink
		}
		err := w.fn(WalkEntry{Rel: childRel, Name: name, Kind: kind, Depth: depth})
		if isDir {
			if errors.Is(err, fs.SkipDir) {
				continue
			}
			if err != nil {
				return err
			}
			if w.opt.MaxDepth == 0 || depth < w.opt.MaxDepth {
				if err := w.dir(childRel, depth+1, levels); err != nil {
					return err
				}
			}
			continue
		}
		if err != nil && !errors.Is(err, fs.SkipDir) {
			return err
		}
	}
	return nil
}

// maxIgnoreFileBytes bounds what a walk reads of one .gitignore or
// .git/info/exclude.
const maxIgnoreFileBytes = 4 << 20

// readIgnoreFile reads a regular file of ignore rules without blocking on a
// FIFO planted under that name and without reading an unbounded amount. A
// .gitignore that is a symbolic link is not read: git opens it with
// O_NOFOLLOW (and fsck warns, gitignoreSymlink), and so do the walks.
func readIgnoreFile(root *os.Root, rel string) ([]byte, bool) {
	if path.Base(rel) == ".gitignore" {
		if fi, err := root.Lstat(rel); err != nil || !fi.Mode().IsRegular() {
			return nil, false
		}
	}
	f, err := root.OpenFile(rel, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return nil, false
	}
	data, err := io.ReadAll(io.LimitReader(f, maxIgnoreFileBytes))
	return data, err == nil
}
