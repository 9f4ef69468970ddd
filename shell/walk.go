package shell

import (
	"errors"
	"io/fs"
	"path"
	"sort"
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
}

// WalkEntry is one path met by a walk.
type WalkEntry struct {
	Rel   string // relative to the walk's base, "/"-separated
	Name  string
	Kind  string // file, dir, symlink
	Depth int    // 1 for direct children
}

type ignoreLevel struct {
	dir string // relative to the walk's base, "" for the base
	p   *Patterns
}

// Walk visits everything under abs in byte order of path (each folder's
// entries sorted by name, a folder's contents right after it). Returning
// SkipDir for a folder skips it; any other error stops the walk.
func (j *Jail) Walk(abs string, opt WalkOptions, fn func(WalkEntry) error) error {
	t, err := j.prepare(abs, true, false)
	if err != nil {
		return err
	}
	var levels []ignoreLevel
	if opt.Ignore != nil {
		levels = append(levels, ignoreLevel{dir: "", p: opt.Ignore})
	}
	if opt.Gitignore {
		if data, err := t.r.root.ReadFile(path.Join(t.rel, ".git/info/exclude")); err == nil {
			levels = append(levels, ignoreLevel{dir: "", p: ParseIgnoreFile(data)})
		}
	}
	err = j.walkDir(t, "", 1, levels, opt, fn)
	if errors.Is(err, fs.SkipAll) {
		return nil
	}
	return err
}

func (j *Jail) walkDir(t target, rel string, depth int, levels []ignoreLevel, opt WalkOptions, fn func(WalkEntry) error) error {
	dirRel := path.Join(relOrEmpty(t.rel), rel)
	if dirRel == "" {
		dirRel = "."
	}
	f, err := t.r.root.Open(dirRel)
	if err != nil {
		return nil // vanished or unreadable: a walk reports what it can see
	}
	ents, err := f.ReadDir(-1)
	f.Close()
	if err != nil && len(ents) == 0 {
		return nil
	}
	sort.Slice(ents, func(a, b int) bool { return ents[a].Name() < ents[b].Name() })
	if opt.Gitignore {
		for _, e := range ents {
			if e.Name() == ".gitignore" && e.Type().IsRegular() {
				if data, err := t.r.root.ReadFile(path.Join(dirRel, ".gitignore")); err == nil {
					levels = append(levels[:len(levels):len(levels)], ignoreLevel{dir: rel, p: ParseIgnoreFile(data)})
				}
				break
			}
		}
	}
	for _, e := range ents {
		name := e.Name()
		if IsTempName(name) {
			continue
		}
		isDir := e.IsDir()
		if isDir && (name == ".git" || (opt.Noise && j.noise[name])) {
			continue
		}
		childRel := name
		if rel != "" {
			childRel = rel + "/" + name
		}
		if j.denied(path.Join(relOrEmpty(t.rel), childRel), isDir) {
			continue
		}
		if ignored(levels, childRel, isDir) {
			continue
		}
		kind := KindFile
		switch {
		case isDir:
			kind = KindDir
		case e.Type()&fs.ModeSymlink != 0:
			kind = KindSymlink
		}
		err := fn(WalkEntry{Rel: childRel, Name: name, Kind: kind, Depth: depth})
		if isDir {
			if errors.Is(err, fs.SkipDir) {
				continue
			}
			if err != nil {
				return err
			}
			if opt.MaxDepth == 0 || depth < opt.MaxDepth {
				if err := j.walkDir(t, childRel, depth+1, levels, opt, fn); err != nil {
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

// ignored applies the gitignore levels deepest first: the nearest
// .gitignore that has an opinion decides.
func ignored(levels []ignoreLevel, rel string, isDir bool) bool {
	for i := len(levels) - 1; i >= 0; i-- {
		l := levels[i]
		sub := rel
		if l.dir != "" {
			sub = rel[len(l.dir)+1:]
		}
		if m, ex := l.p.Decide(sub, isDir); m {
			return ex
		}
	}
	return false
}
