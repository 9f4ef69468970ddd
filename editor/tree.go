package editor

import (
	"context"
	"sort"

	"github.com/editord/editord/shell"
	"github.com/editord/editord/workspace"
)

type TreeRequest struct {
	Path     string   `json:"path,omitempty" desc:"Folder to list, root-relative or absolute; default the workspace root."`
	MaxDepth int      `json:"max_depth,omitempty" default:"4" desc:"Levels to descend; 1 lists only the direct children."`
	Expand   []string `json:"expand,omitempty" desc:"Folders to mark expanded for every surface (persisted)."`
	Collapse []string `json:"collapse,omitempty" desc:"Folders to mark collapsed, with every folder beneath them (persisted)."`
}

// TreeEntry is one file, folder or symlink of a listing.
type TreeEntry struct {
	Name     string      `json:"name" desc:"Base name."`
	Path     string      `json:"path" desc:"Stored form of the path (root-relative)."`
	Kind     string      `json:"kind" enum:"file,dir,symlink" desc:"file, dir or symlink (symlinks are listed, not followed)."`
	Size     int64       `json:"size" desc:"Size in bytes."`
	Mtime    int64       `json:"mtime" desc:"Modification time, Unix seconds."`
	Children []TreeEntry `json:"children,omitempty" desc:"Entries of a folder listed within max_depth."`
}

type TreeResponse struct {
	Root      string      `json:"root" desc:"Absolute path of the workspace root."`
	Path      string      `json:"path" desc:"Stored form of the listed folder; empty for the root."`
	Entries   []TreeEntry `json:"entries" desc:"Folders first, then files, each sorted by name. Noise folders (.git, node_modules, ...) and deny-glob matches are left out."`
	Expanded  []string    `json:"expanded" desc:"Folders expanded for every surface, after this call's expand/collapse."`
	Truncated bool        `json:"truncated" desc:"True when the listing stopped at the entry cap (10,000); narrow path or max_depth."`
}

// treeCap bounds one listing so a huge tree cannot flood a client.
const treeCap = 10_000

func init() {
	define("editor::tree",
		"List a folder as a nested tree (folders first, then files, by name), to max_depth levels (default 4; 1 = direct children). "+
			"expand and collapse mark folders for every surface, the user's editor included, and persist. "+
			"Noise folders (.git, node_modules, target, dist, build, .venv, __pycache__) and denied paths are left out. "+
			`Example: {"path": "src", "max_depth": 2, "expand": ["src"]}.`,
		readOnly, (*Service).Tree)
}

func (s *Service) Tree(ctx context.Context, req *TreeRequest) (*TreeResponse, error) {
	root, err := s.root()
	if err != nil {
		return nil, err
	}
	if req.MaxDepth < 0 {
		return nil, invalid("max_depth must be 1 or more, not %d", req.MaxDepth)
	}
	depth := req.MaxDepth
	if depth == 0 {
		depth = 4
	}
	l, err := locate(root, req.Path, "path")
	if err != nil {
		return nil, err
	}
	if in, err := s.jail.Stat(l.abs); err != nil {
		return nil, err
	} else if in.Kind != shell.KindDir {
		return nil, shell.Errorf(shell.CodeNotADirectory, l.stored, "%s is a file; editor::tree lists folders (open files with editor::open)", display(l.stored))
	}
	expand, err := s.folders(root, req.Expand, "expand")
	if err != nil {
		return nil, err
	}
	collapse := make([]string, 0, len(req.Collapse))
	for _, p := range req.Collapse {
		c, err := locateRequired(root, p, "collapse")
		if err != nil {
			return nil, err
		}
		collapse = append(collapse, c.stored)
	}
	rec := s.store.Load()
	if len(expand)+len(collapse) > 0 {
		rec, err = s.store.Update(ctx, func(r *workspace.Record) (bool, error) {
			ses, changed := r.Session(root), false
			for _, c := range collapse {
				changed = ses.Collapse(c) || changed
			}
			for _, e := range expand {
				changed = ses.Expand(e) || changed
			}
			return changed, nil
		})
		if err != nil {
			return nil, err
		}
	}
	w := &treeWalk{s: s, root: root}
	d, err := s.jail.OpenDir(l.abs)
	if err != nil {
		return nil, err
	}
	entries, err := w.list(d, l.abs, depth)
	d.Close()
	if err != nil {
		return nil, err
	}
	return &TreeResponse{Root: root, Path: l.stored, Entries: entries, Expanded: rec.Session(root).Expanded, Truncated: w.truncated}, nil
}

// folders normalizes paths that must name existing folders.
func (s *Service) folders(root string, paths []string, field string) ([]string, error) {
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		l, err := locate(root, p, field)
		if err != nil {
			return nil, err
		}
		in, err := s.jail.Stat(l.abs)
		if err != nil {
			return nil, err
		}
		if in.Kind != shell.KindDir {
			return nil, shell.Errorf(shell.CodeNotADirectory, l.stored, "cannot expand %s: it is a file, not a folder", display(l.stored))
		}
		out = append(out, l.stored)
	}
	return out, nil
}

type treeWalk struct {
	s         *Service
	root      string
	n         int
	truncated bool
}

// list lists the open folder d (abs as the caller named it) and, through
// its handle, the folders beneath it: each level costs a lookup or two, not
// a resolution of its whole path from the root.
func (w *treeWalk) list(d *shell.Dir, abs string, depth int) ([]TreeEntry, error) {
	// One entry past the cap is enough to know the listing is truncated;
	// noise folders are skipped without counting, and a folder holds at
	// most one of each name.
	ents, _, err := d.ReadDirLimit(treeCap - w.n + 1 + len(w.s.cfg.Walk.Noise))
	if err != nil {
		return nil, err
	}
	out := make([]TreeEntry, 0, len(ents))
	for _, e := range ents {
		if e.Kind == shell.KindDir && w.s.jail.Noise(e.Name) {
			continue
		}
		if w.n >= treeCap {
			w.truncated = true
			break
		}
		w.n++
		childAbs := abs + "/" + e.Name
		te := TreeEntry{Name: e.Name, Path: stored(w.root, childAbs), Kind: e.Kind, Size: e.Size, Mtime: e.ModTime}
		if e.Kind == shell.KindDir && depth > 1 {
			if sub, err := d.Sub(e.Name); err == nil {
				if kids, err := w.list(sub, childAbs, depth-1); err == nil {
					te.Children = kids
				}
				sub.Close()
			}
		}
		out = append(out, te)
	}
	sort.SliceStable(out, func(i, j int) bool {
		di, dj := out[i].Kind == shell.KindDir, out[j].Kind == shell.KindDir
		if di != dj {
			return di
		}
		return out[i].Name < out[j].Name
	})
	return out, nil
}
