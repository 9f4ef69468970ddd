package editor

// editor::replace is editor::search's replace across files: the matches it
// changes are the search's own (search.Matcher.Replace: the same RE2
// pattern, the same lines and ranges), computed by the server so that a
// preview and what is written never differ from the hits. It runs in two
// calls, as a person's editor does: a dry run over the files the search
// found, giving each file's version and patch, then the write of the files
// the caller confirmed, each guarded by the version its preview was made
// on (a file changed since is a conflict and is left alone). Writes take
// editor::save's path (the file's lock, the re-check before the rename,
// the change event) but open no buffer: a replace across 50 files does not
// add 50 tabs.

import (
	"context"
	"errors"
	"path/filepath"
	"slices"

	"github.com/editord/editord/search"
	"github.com/editord/editord/shell"
)

type ReplaceRequest struct {
	Pattern    string            `json:"pattern" desc:"As in editor::search."`
	Literal    bool              `json:"literal,omitempty" desc:"As in editor::search."`
	IgnoreCase bool              `json:"ignore_case,omitempty" desc:"As in editor::search."`
	WholeWord  bool              `json:"whole_word,omitempty" desc:"As in editor::search."`
	With       string            `json:"with" desc:"Replacement; $1, ${name} insert groups unless literal."`
	Paths      []string          `json:"paths,omitempty" desc:"Files to preview (a dry run); default: every match."`
	Write      map[string]string `json:"write,omitempty" desc:"Files to write: path to version from the dry run."`

	// Keep each match's case (search.PreserveCase): FOO → BAR, Foo → Bar.
	// The booleans here leave their false default unsaid: the default tool
	// list has no bytes to spare (protocol's toolListBudget).
	PreserveCase bool `json:"preserve_case,omitempty" desc:"Keep case."`
}

type ReplaceResponse struct {
	Files   []ReplaceFile `json:"files" desc:"One per path asked, in path order."`
	Written int           `json:"written" desc:"Files written (0 on a dry run)."`
	// PatchesOmitted keeps the reply bounded by the limits, not by how
	// many files a pattern reaches.
	PatchesOmitted int    `json:"patches_omitted,omitempty" desc:"Files whose patch was left out because the call's patches passed max_write_bytes in all; preview those in a call of their own."`
	Root           string `json:"root" desc:"The workspace root the call used: relative paths are relative to it."`
}

// ReplaceFile is one file's replacement.
type ReplaceFile struct {
	Path     string `json:"path" desc:"The file, root-relative."`
	Version  string `json:"version" desc:"The version the replacement was computed on; after a write, the new version. Pass it back in write."`
	Replaced int    `json:"replaced" desc:"Matches replaced (or to replace, on a dry run)."`
	Patch    string `json:"patch" desc:"Unified diff of the change; empty when nothing changes, it is over max_diff_bytes, or it is one of patches_omitted."`
	Written  bool   `json:"written" desc:"True when the new text is on disk."`
	Conflict bool   `json:"conflict" desc:"True when the file is no longer at the version given in write: nothing was written."`
	Skipped  string `json:"skipped,omitempty" desc:"Why the file was left alone: not_found, binary, too_large, a refusal's code."`

	step int // its place among the files written, from 1 (the event's step)
}

// replaceMaxFiles bounds the files of one call.
const replaceMaxFiles = 2000

// replaceWithLimit bounds the replacement text: a sixteenth of
// max_file_bytes (125 KB by default), far more than any text replaced
// across files, and small enough that the measure of the result, not the
// request, is what refuses a replacement that would grow a file too much.
func (s *Service) replaceWithLimit() int64 { return max(s.cfg.Limits.MaxFileBytes/16, 1024) }

// replaceTooLarge marks the refusal of a replacement whose result would
// pass max_write_bytes: it refuses the whole call.
type replaceTooLarge struct{ err *shell.Error }

func (e replaceTooLarge) Error() string { return e.err.Error() }
func (e replaceTooLarge) Unwrap() error { return e.err }

func init() {
	define("editor::replace",
		"Replace editor::search's matches in files (a rename): a dry run (all matching files, or paths) gives each one's version and patch; "+
			"then write {path: version}: one changed since conflicts, unwritten. Atomic per file, not per call.",
		destructive, (*Service).Replace)
}

func (s *Service) Replace(ctx context.Context, req *ReplaceRequest) (*ReplaceResponse, error) {
	if len(req.Paths) > 0 && len(req.Write) > 0 {
		return nil, invalid("pass paths (a dry run) or write (path to version from the dry run), not both")
	}
	if len(req.Paths) == 0 && len(req.Write) == 0 {
		// A dry run of every file the pattern matches (replace_all.go).
		return s.replaceEverywhere(ctx, req)
	}
	if limit := s.replaceWithLimit(); int64(len(req.With)) > limit {
		return nil, shell.Errorf(shell.CodeTooLarge, "", "with is %d bytes; a replacement is at most %d (max_file_bytes / 16): replace in parts, or write the file with editor_save", len(req.With), limit)
	}
	if n := len(req.Paths) + len(req.Write); n > replaceMaxFiles {
		return nil, invalid("%d files in one call; the limit is %d", n, replaceMaxFiles)
	}
	m, err := search.Compile(req.Pattern, search.MatchOptions{Literal: req.Literal, IgnoreCase: req.IgnoreCase, WholeWord: req.WholeWord})
	if err != nil {
		return nil, err
	}
	paths := slices.Clone(req.Paths)
	for p := range req.Write {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	paths = slices.Compact(paths)
	write := len(req.Write) > 0
	var root string
	if write {
		relative := slices.ContainsFunc(paths, func(p string) bool { return !filepath.IsAbs(p) })
		root, err = s.writeRoot(ctx, relative)
	} else {
		root, err = s.root()
	}
	if err != nil {
		return nil, err
	}
	// A path outside the jail refuses the whole call before anything is
	// read or written, as every other function refuses it (a skip would
	// name it in the response).
	for _, p := range paths {
		l, err := locateRequired(root, p, "path")
		if err != nil {
			return nil, err
		}
		if !s.jail.Contains(l.abs) {
			return nil, s.visible(l, "")
		}
	}
	out := &ReplaceResponse{Files: make([]ReplaceFile, 0, len(paths)), Root: root}
	// The writes open no buffer (remember refreshes open ones only), and
	// their events name editor::replace: the holder of a draft keeps it.
	wctx := withCause(refreshOnly(ctx), "editor::replace")
	var patchBytes int64
	for step, p := range paths {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		l, err := locateRequired(root, p, "path")
		if err == nil {
			err = fileOnly(l)
		}
		if err != nil {
			return nil, err
		}
		f := ReplaceFile{Path: l.stored, step: step + 1}
		if write {
			err = s.replaceWrite(wctx, root, l, m, req, &f)
		} else {
			err = s.replacePreview(l, m, req, &f)
		}
		// A file the jail refuses is refused for the whole call, as every
		// function refuses it: a result row would name a path outside the
		// jail; so is a replacement that would grow a file past
		// max_write_bytes (its message says by how much). Other refusals
		// (binary, denied, gone) skip just that file.
		var grows replaceTooLarge
		if code := shell.CodeOf(err); err != nil && code != "" && code != shell.CodeInternal && code != shell.CodeOutsideJail && !errors.As(err, &grows) {
			f.Skipped, err = string(code), nil
		}
		if err != nil {
			return nil, err
		}
		if f.Written {
			out.Written++
		}
		if patchBytes += int64(len(f.Patch)); patchBytes > s.cfg.Jail.MaxWriteBytes {
			f.Patch = ""
			out.PatchesOmitted++
		}
		out.Files = append(out.Files, f)
	}
	return out, nil
}

// replaced is the file's new content, read from disk as cur.
func (s *Service) replaced(l loc, cur disk, m *search.Matcher, req *ReplaceRequest) ([]byte, int, error) {
	if !cur.exists {
		return nil, 0, shell.Errorf(shell.CodeNotFound, l.stored, "%s does not exist", display(l.stored))
	}
	if !isText(cur.data) {
		return nil, 0, shell.Errorf(shell.CodeBinary, l.stored, "%s is binary", display(l.stored))
	}
	if max := s.cfg.Limits.MaxFileBytes; int64(len(cur.data)) > max {
		return nil, 0, shell.Errorf(shell.CodeTooLarge, l.stored, "%s is over max_file_bytes", display(l.stored))
	}
	next, n, err := m.ReplaceCase(cur.data, []byte(req.With), !req.Literal, req.PreserveCase, s.cfg.Jail.MaxWriteBytes)
	var tl *search.TooLargeError
	if errors.As(err, &tl) {
		return nil, 0, replaceTooLarge{err: shell.Errorf(shell.CodeTooLarge, l.stored,
			"replacing the matches in %s would make it %d bytes, over max_write_bytes (%d); nothing was written. Use a narrower pattern or a shorter replacement, or replace in parts",
			display(l.stored), tl.Size, tl.Limit)}
	}
	if err == nil && !isText(next) {
		err = shell.Errorf(shell.CodeBinary, l.stored, "the replacement would put a NUL byte into %s", display(l.stored))
	}
	return next, n, err
}

func (s *Service) replacePreview(l loc, m *search.Matcher, req *ReplaceRequest, f *ReplaceFile) error {
	if err := s.visible(l, ""); err != nil {
		return err
	}
	cur, err := s.readDisk(l)
	if err != nil {
		return err
	}
	next, n, err := s.replaced(l, cur, m, req)
	if err != nil {
		return err
	}
	f.Version, f.Replaced = cur.version, n
	if n > 0 {
		if d := s.changeDiff(l, "modified", cur.data, next); !d.Truncated {
			f.Patch = d.Patch
		}
	}
	return nil
}

func (s *Service) replaceWrite(ctx context.Context, root string, l loc, m *search.Matcher, req *ReplaceRequest, f *ReplaceFile) error {
	want, ok := req.Write[l.stored]
	if !ok {
		// Asked by another spelling of the path (absolute, "./a"): find it.
		for p, v := range req.Write {
			if pl, err := locate(root, p, "write"); err == nil && pl.stored == l.stored {
				want = v
			}
		}
	}
	if err := s.visible(l, ""); err != nil {
		return err
	}
	s.awaitReported(ctx, root, l, want)
	lk, err := s.lockFile(ctx, l)
	if err != nil {
		return err
	}
	sv := &saving{lk: lk}
	defer sv.done()
	cur, err := s.readDisk(l)
	if err != nil {
		return err
	}
	f.Version = cur.version
	if cur.exists && cur.version != want {
		f.Conflict = true
		return nil
	}
	next, n, err := s.replaced(l, cur, m, req)
	if err != nil {
		return err
	}
	f.Replaced = n
	if n == 0 {
		return nil
	}
	d := s.changeDiff(l, "modified", cur.data, next)
	if !d.Truncated {
		f.Patch = d.Patch
	}
	ev := s.changeEventOf(root, l, "editor::replace", "modified", cur.data, next, d)
	ev.Step, ev.Steps = f.step, len(req.Write)
	sv.version = *ev.Version // hashed once, for the event and the write
	w, err := s.writeAs(ctx, sv, root, l, cur, next, false, "editor::replace", &ev)
	if errors.Is(err, errSlippedIn) {
		// Another program wrote it between our read and our rename.
		f.Conflict, f.Patch = true, ""
		return nil
	}
	if err != nil {
		return err
	}
	f.Written, f.Version = true, w.Version
	return nil
}

type refreshOnlyKey struct{}

// refreshOnly marks writes that refresh the buffer of a file already open
// but open none (remember).
func refreshOnly(ctx context.Context) context.Context {
	return context.WithValue(ctx, refreshOnlyKey{}, true)
}

// opensBuffers reports whether a write in ctx may record a new buffer.
func opensBuffers(ctx context.Context) bool { return ctx.Value(refreshOnlyKey{}) == nil }
