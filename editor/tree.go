package editor

import (
	"context"
	"sort"

	"github.com/editord/editord/shell"
	"github.com/editord/editord/workspace"
)

type TreeRequest struct {
	Path       string   `json:"path,omitempty" desc:"Folder to list; default the root."`
	MaxDepth   int      `json:"max_depth,omitempty" default:"4" desc:"Levels to list; 1 = direct children."`
	Expand     []string `json:"expand,omitempty" desc:"Folders to mark expanded (persisted, every surface)."`
	Collapse   []string `json:"collapse,omitempty" desc:"Folders to mark collapsed, with all beneath them."`
	MaxEntries int      `json:"max_entries,omitempty" default:"400" desc:"Entries listed at most (up to 10,000)."`
}

// TreeEntry is one file, folder or symlink of a listing.
type TreeEntry struct {
	Name     string      `json:"name" desc:"Base name."`
	Path     string      `json:"path" desc:"Stored form of the path (root-relative)."`
	Kind     string      `json:"kind" enum:"file,dir,symlink,other" desc:"file, dir, symlink (listed, not followed) or other (a FIFO, socket or device, never opened)."`
	Size     int64       `json:"size" desc:"Size in bytes."`
	Mtime    int64       `json:"mtime" desc:"Modification time, Unix seconds."`
	Children []TreeEntry `json:"children,omitempty" desc:"Entries of a folder listed within max_depth."`
	More     int         `json:"more,omitempty" desc:"Entries of this folder left out by max_entries."`
}

type TreeResponse struct {
	Root      string      `json:"root" desc:"Absolute path of the workspace root."`
	Path      string      `json:"path" desc:"Stored form of the listed folder; empty for the root."`
	Entries   []TreeEntry `json:"entries" desc:"Folders first, then files, each sorted by name. Noise folders (.git, node_modules, ...) and deny-glob matches are left out."`
	Expanded  []string    `json:"expanded" desc:"Folders expanded for every surface, after this call's expand/collapse."`
	Truncated bool        `json:"truncated" desc:"True when entries were left out: omitted counts them."`
	Omitted   int         `json:"omitted" desc:"Entries within max_depth left out by max_entries (counted up to 10,000 scanned)."`
	Scanned   int         `json:"scanned" desc:"Entries looked at; 10,000 means the count stopped there."`
}

// treeCap bounds the entries one listing looks at and lists, so a huge
// tree cannot flood a client; treeDefaultEntries is what it lists by
// default, which keeps the reply's text within a model's budget.
const (
	treeCap            = 10_000
	treeDefaultEntries = 400
)

func init() {
	define("editor::tree",
		"List a folder as an indented tree, folders first, to max_depth (default 4) and max_entries (default 400; "+
			"the reply counts what it left out), without noise folders or denied paths. "+
			"expand/collapse persist for the user's editor.",
		readOnly, (*Service).Tree)
}

func (s *Service) Tree(ctx context.Context, req *TreeRequest) (*TreeResponse, error) {
	root, err := s.root()
	if err != nil {
		return nil, err
	}
	maxEntries, err := countArg("max_entries", req.MaxEntries, treeDefaultEntries, treeCap)
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
	w := &treeWalk{s: s, root: root, max: maxEntries}
	d, err := s.jail.OpenDir(l.abs)
	if err != nil {
		return nil, err
	}
	entries, err := w.list(d, l.abs, depth)
	d.Close()
	if err != nil {
		return nil, err
	}
	if entries == nil {
		entries = []TreeEntry{}
	}
	return &TreeResponse{Root: root, Path: l.stored, Entries: entries, Expanded: rec.Session(root).Expanded,
		Truncated: w.truncated || w.omitted > 0, Omitted: w.omitted, Scanned: w.scanned}, nil
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

// maxOpenDirs bounds the folder handles a listing keeps open for its next
// level; folders past it are opened by path when their turn comes.
const maxOpenDirs = 256

// treeItem is a folder waiting to be listed.
type treeItem struct {
	dir   *shell.Dir // open, or nil: opened by abs in its turn
	abs   string     // as the caller named it
	depth int        // levels still to list, 1 or more
	kids  *[]TreeEntry
	more  *int // its entries left out by max_entries; nil when the folder itself is not listed
}

// treeWalk lists a folder level by level: every entry of a level comes
// before any of the next, so max_entries keeps the top of the tree whole
// and cuts its bottom. Entries past max_entries are still counted (up to
// treeCap scanned), so the reply can say what it left out.
type treeWalk struct {
	s         *Service
	root      string
	max       int // entries listed at most
	listed    int
	omitted   int
	scanned   int
	truncated bool // the scan stopped at treeCap
}

func (w *treeWalk) list(d *shell.Dir, abs string, depth int) ([]TreeEntry, error) {
	var top []TreeEntry
	topMore := 0
	level := []treeItem{{dir: d, abs: abs, depth: depth, kids: &top, more: &topMore}}
	first := true
	for len(level) > 0 {
		var next []treeItem
		handles := 0
		for _, it := range level {
			nx, n, err := w.listOne(it, first, handles)
			if err != nil {
				return nil, err
			}
			next = append(next, nx...)
			handles += n
		}
		first = false
		level = next
	}
	return top, nil
}

// listOne lists one folder into it.kids and returns its subfolders to list
// next, with how many of them hold an open handle.
func (w *treeWalk) listOne(it treeItem, first bool, handles int) ([]treeItem, int, error) {
	d := it.dir
	if d == nil {
		var err error
		if d, err = w.s.jail.OpenDir(it.abs); err != nil {
			return nil, 0, nil // vanished or replaced since its parent was read
		}
	}
	if !first {
		defer d.Close() // the first folder is the caller's
	}
	if w.scanned >= treeCap {
		w.truncated = true
		return nil, 0, nil
	}
	// One entry past the cap is enough to know the scan is cut; noise
	// folders are skipped without counting, and a folder holds at most one
	// of each name.
	ents, _, err := d.ReadDirLimit(treeCap - w.scanned + 1 + len(w.s.cfg.Walk.Noise))
	if err != nil {
		if first {
			return nil, 0, err
		}
		return nil, 0, nil
	}
	sort.SliceStable(ents, func(i, j int) bool {
		di, dj := ents[i].Kind == shell.KindDir, ents[j].Kind == shell.KindDir
		if di != dj {
			return di
		}
		return ents[i].Name < ents[j].Name
	})
	kids := make([]TreeEntry, 0, min(len(ents), max(w.max-w.listed, 0)))
	type sub struct {
		name string
		kid  int // index in kids, or -1 when not listed
	}
	var subs []sub
	for _, e := range ents {
		if e.Kind == shell.KindDir && w.s.jail.Noise(e.Name) {
			continue
		}
		if w.scanned >= treeCap {
			w.truncated = true
			break
		}
		w.scanned++
		kid := -1
		if it.more != nil && w.listed < w.max {
			w.listed++
			kid = len(kids)
			kids = append(kids, TreeEntry{Name: e.Name, Path: stored(w.root, it.abs+"/"+e.Name), Kind: e.Kind, Size: e.Size, Mtime: e.ModTime})
		} else {
			w.omitted++
			if it.more != nil {
				*it.more++
			}
		}
		if e.Kind == shell.KindDir && it.depth > 1 {
			subs = append(subs, sub{e.Name, kid})
		}
	}
	if it.kids != nil {
		*it.kids = kids
	}
	var next []treeItem
	opened := 0
	for _, sb := range subs {
		n := treeItem{abs: it.abs + "/" + sb.name, depth: it.depth - 1}
		if sb.kid >= 0 {
			n.kids, n.more = &kids[sb.kid].Children, &kids[sb.kid].More
		}
		if handles+opened < maxOpenDirs {
			if h, err := d.Sub(sb.name); err == nil {
				n.dir = h
				opened++
			} else {
				continue // denied, vanished or not a folder any more
			}
		}
		next = append(next, n)
	}
	return next, opened, nil
}
