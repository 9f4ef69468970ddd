package editor

// editor::rename asks the file's language server for the edits a rename
// makes across the workspace (a WorkspaceEdit) and writes them as one
// guarded batch (batch.go), in two calls as editor::replace does: a dry
// run that returns every file's version and patch, then the apply, given
// those versions back, which writes every file or none: a file that
// changed since the dry run (anyone's save, an agent's edit, a git
// checkout) makes the whole rename a conflict with nothing written.
//
// The server computes the rename on what it holds, which is the person's
// draft for a file they are editing. The write is to the disk, so a file
// with a draft is not renamed: the person saves or discards first.

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/editord/editord/editor/lsp"
	"github.com/editord/editord/shell"
)

type RenameRequest struct {
	Path     string            `json:"path" desc:"File, root-relative."`
	Line     int               `json:"line" desc:"1-based line."`
	Column   int               `json:"column" desc:"1-based column, in characters."`
	NewName  string            `json:"new_name" desc:"The new name."`
	Versions map[string]string `json:"versions,omitempty" desc:"Apply: {path: version} from the dry run; omit for the dry run."`
}

type RenameResponse struct {
	Files    []RenameFile `json:"files" desc:"Every file the rename changes, by path."`
	Edits    int          `json:"edits" desc:"Occurrences renamed, over all files."`
	Applied  bool         `json:"applied" desc:"True when every file was written; false for the dry run and on conflict."`
	Conflict bool         `json:"conflict" desc:"True when nothing was written because a file changed since the dry run (or the rename now touches other files, or one has unsaved edits): run the dry run again."`
	Reason   string       `json:"reason,omitempty" desc:"On conflict: what changed."`
	Root     string       `json:"root" desc:"The workspace root the call used: relative paths are relative to it."`
}

// RenameFile is one file of a rename.
type RenameFile struct {
	Path     string `json:"path" desc:"The file, root-relative."`
	Version  string `json:"version" desc:"Its version the edits were planned on (pass it back in versions); after the apply, its new version."`
	Edits    int    `json:"edits" desc:"Occurrences renamed in it."`
	Patch    string `json:"patch" desc:"Unified diff of its change; empty when over max_diff_bytes."`
	Draft    bool   `json:"draft,omitempty" desc:"True when someone holds unsaved edits of it: the rename cannot be applied until they are saved or discarded."`
	Conflict bool   `json:"conflict,omitempty" desc:"True when it changed since the dry run."`
}

// renameMaxFiles bounds the files one rename writes.
const renameMaxFiles = 2000

func init() {
	define("editor::rename",
		"Rename a symbol everywhere, as its language server resolves it. A dry run returns each file's version and patch; "+
			"the same call with versions {path: version} writes every file, or none if any changed since.",
		destructive, (*Service).Rename)
}

func (s *Service) Rename(ctx context.Context, req *RenameRequest) (*RenameResponse, error) {
	if strings.TrimSpace(req.NewName) == "" {
		return nil, invalid("new_name is empty; pass the name to rename to")
	}
	apply := req.Versions != nil
	if apply && !filepath.IsAbs(req.Path) {
		if _, err := s.writeRoot(ctx, true); err != nil {
			return nil, err
		}
	}
	// An apply of the plan a dry run just made, with nothing written in
	// the workspace since (the journal's last seq) and no draft changed,
	// writes that plan: asking the server again would give the same edits
	// (it learns of changes through the same journal), at the cost of a
	// second rename's type checking.
	key, seq, drafts := s.renameKey(req)
	var p *renamePlan
	if apply {
		p = s.renames.take(key, seq, drafts)
	}
	if p == nil {
		var err error
		if p, err = s.renamePlanOf(ctx, req); err != nil {
			return nil, err
		}
		if !apply {
			s.renames.put(key, seq, drafts, p)
		}
	}
	out, batch := p.response(), p.batch
	if apply {
		// Drafts as they are now (a plan taken from the cache is as old
		// as its dry run).
		rec := s.store.Load()
		for i := range out.Files {
			out.Files[i].Draft = dirtyIn(rec, p.root, out.Files[i].Path)
		}
	}
	if !apply {
		return out, nil
	}
	if reason := renameRefusal(out.Files, req.Versions, p.root); reason != "" {
		out.Conflict, out.Reason = true, reason
		return out, nil
	}
	res, err := s.writeBatch(withCause(ctx, "editor::rename"), p.root, "editor::rename", batch)
	if err != nil {
		return nil, err
	}
	if len(res.conflicts) > 0 {
		out.Conflict = true
		var names []string
		for i := range out.Files {
			if _, ok := res.conflicts[out.Files[i].Path]; ok {
				out.Files[i].Conflict = true
				names = append(names, out.Files[i].Path)
			}
		}
		out.Reason = fmt.Sprintf("%s changed while the rename was written; nothing was written; run the dry run again", strings.Join(names, ", "))
		return out, nil
	}
	out.Applied = true
	for i := range out.Files {
		out.Files[i].Version = res.versions[out.Files[i].Path]
	}
	return out, nil
}

// renameRefusal says why an apply must not write (files planned on other
// versions than the dry run's, other files, drafts), or "".
func renameRefusal(files []RenameFile, versions map[string]string, root string) string {
	want := map[string]string{}
	for p, v := range versions {
		l, err := locate(root, p, "versions")
		if err != nil {
			return err.Error()
		}
		want[l.stored] = v
	}
	var changed, drafts, extra []string
	for _, f := range files {
		v, ok := want[f.Path]
		switch {
		case f.Draft:
			drafts = append(drafts, f.Path)
		case !ok:
			extra = append(extra, f.Path)
		case v != f.Version || f.Conflict:
			changed = append(changed, f.Path)
		}
		delete(want, f.Path)
	}
	for p := range want {
		extra = append(extra, p)
	}
	slices.Sort(extra)
	switch {
	case len(drafts) > 0:
		return fmt.Sprintf("%s %s unsaved edits; the rename writes the disk, so they must be saved or discarded first; nothing was written", strings.Join(drafts, ", "), hasHave(len(drafts)))
	case len(changed) > 0:
		return fmt.Sprintf("%s changed since the dry run; nothing was written; run the dry run again", strings.Join(changed, ", "))
	case len(extra) > 0:
		return fmt.Sprintf("the rename now changes other files than the dry run did (%s); nothing was written; run the dry run again", strings.Join(extra, ", "))
	}
	return ""
}

func hasHave(n int) string {
	if n == 1 {
		return "has"
	}
	return "have"
}

// renamePlan is a rename's dry run: the response and the batch that
// writes it.
type renamePlan struct {
	root  string
	out   RenameResponse
	batch []batchFile
}

// response is a copy of the plan's response, for a call to fill in.
func (p *renamePlan) response() *RenameResponse {
	out := p.out
	out.Files = slices.Clone(p.out.Files)
	return &out
}

// renamePlanOf asks the server for the rename's edits and applies them to
// the files as they are on disk.
func (s *Service) renamePlanOf(ctx context.Context, req *RenameRequest) (*renamePlan, error) {
	in, pos, err := s.intelAt(ctx, req.Path, req.Line, req.Column)
	if err != nil {
		return nil, err
	}
	params := in.docPosition(pos)
	params["newName"] = req.NewName
	var we *lsp.WorkspaceEdit
	if err := in.call(ctx, "textDocument/rename", params, &we); err != nil {
		return nil, err
	}
	if we == nil {
		return nil, shell.Errorf(shell.CodeInvalidArgument, in.l.stored, "the language server finds nothing to rename at %s:%d:%d; point at a name", display(in.l.stored), req.Line, req.Column)
	}
	edits, err := we.Edits()
	if err != nil {
		return nil, shell.Errorf(shell.CodeInvalidArgument, in.l.stored, "%v; editor::rename changes the text of files only (move files with editor::move)", err)
	}
	if len(edits) > renameMaxFiles {
		return nil, shell.Errorf(shell.CodeTooLarge, in.l.stored, "the rename changes %d files; the limit is %d", len(edits), renameMaxFiles)
	}
	out := &RenameResponse{Files: []RenameFile{}, Root: in.root}
	rec := s.store.Load()
	var batch []batchFile
	for _, abs := range sortedPaths(edits) {
		l, err := locate(in.root, abs, "path")
		if err != nil {
			return nil, err
		}
		if err := s.visible(l, "the rename would change it"); err != nil {
			return nil, err
		}
		cur, err := s.readDisk(l)
		if err != nil {
			return nil, err
		}
		if !cur.exists {
			return nil, shell.Errorf(shell.CodeNotFound, l.stored, "the rename changes %s, which does not exist on disk", display(l.stored))
		}
		if !isText(cur.data) {
			return nil, shell.Errorf(shell.CodeBinary, l.stored, "the rename changes %s, which is binary", display(l.stored))
		}
		f := RenameFile{Path: l.stored, Version: cur.version, Edits: len(edits[abs])}
		if dirtyIn(rec, in.root, l.stored) {
			f.Draft = true
		} else if held, ok := in.srv.Held(l.abs); ok && held != string(cur.data) {
			// The server planned on text the disk no longer holds.
			f.Conflict = true
		}
		next, err := lsp.Apply(string(cur.data), edits[abs])
		if err != nil {
			return nil, shell.Errorf(shell.CodeInternal, l.stored, "the language server's edits of %s do not apply: %v", display(l.stored), err)
		}
		if d := s.changeDiff(l, "modified", cur.data, []byte(next)); !d.Truncated {
			f.Patch = d.Patch
		}
		out.Edits += f.Edits
		out.Files = append(out.Files, f)
		batch = append(batch, batchFile{l: l, want: cur.version, next: []byte(next)})
	}
	return &renamePlan{root: in.root, out: *out, batch: batch}, nil
}
