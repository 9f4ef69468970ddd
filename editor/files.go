package editor

import (
	"context"
	"path/filepath"

	"github.com/editord/editord/shell"
	"github.com/editord/editord/workspace"
)

type MoveRequest struct {
	From      string `json:"from" desc:"Path to move."`
	To        string `json:"to" desc:"New path; parents are created."`
	Overwrite bool   `json:"overwrite,omitempty" default:"false" desc:"Replace an existing file at to."`
}

type MoveResponse struct {
	From     string             `json:"from" desc:"Old path, stored form."`
	To       string             `json:"to" desc:"New path, stored form."`
	Remapped int                `json:"remapped" desc:"How many open buffers and expanded folders were rewritten to the new location."`
	Root     string             `json:"root" desc:"Absolute path of the workspace root."`
	Buffers  []workspace.Buffer `json:"buffers" desc:"The tab set after the move."`
}

type CreateRequest struct {
	Path    string `json:"path" desc:"Path to create."`
	Kind    string `json:"kind" enum:"file,folder" desc:"\"file\" or \"folder\"."`
	Content string `json:"content,omitempty" desc:"Initial text of a file."`
}

type CreateResponse struct {
	Path    string `json:"path" desc:"Stored form of the path."`
	Kind    string `json:"kind" desc:"file or folder."`
	Created bool   `json:"created" desc:"False only for a folder that already existed."`
	Root    string `json:"root" desc:"The workspace root the call used: relative paths are relative to it."`
}

type DeleteRequest struct {
	Path      string `json:"path" desc:"File or folder to delete."`
	Recursive bool   `json:"recursive,omitempty" default:"false" desc:"Delete a non-empty folder with everything in it."`
}

type DeleteResponse struct {
	Path          string             `json:"path" desc:"Stored form of the removed path."`
	Deleted       bool               `json:"deleted" desc:"True when the path was removed."`
	BuffersClosed []string           `json:"buffers_closed" desc:"Buffers that were open at or under the path and are now closed."`
	Root          string             `json:"root" desc:"Absolute path of the workspace root."`
	Buffers       []workspace.Buffer `json:"buffers" desc:"The tab set after the delete."`
}

func init() {
	define("editor::move",
		"Move or rename a file or folder and update every open buffer and expanded folder under it. "+
			"Use it, not a shell mv, which leaves the user's tabs on the old path. "+
			"An existing to is refused unless overwrite; a folder cannot move into itself.",
		destructive, (*Service).Move)
	define("editor::create",
		"Create a file (kind \"file\", optional content) or folder (kind \"folder\") with its parents. "+
			"Never overwrites: anything at the path is exists (kind folder on a folder: created: false).",
		additive, (*Service).Create)
	define("editor::delete",
		"Delete a file or folder and close its buffers (a shell rm leaves them open). "+
			"A non-empty folder needs recursive: true; the root cannot be deleted.",
		destructive, (*Service).Delete)
}

func (s *Service) Move(ctx context.Context, req *MoveRequest) (*MoveResponse, error) {
	root, err := s.writeRoot(ctx, !filepath.IsAbs(req.From) || !filepath.IsAbs(req.To))
	if err != nil {
		return nil, err
	}
	from, err := locateRequired(root, req.From, "from")
	if err != nil {
		return nil, err
	}
	to, err := locateRequired(root, req.To, "to")
	if err != nil {
		return nil, err
	}
	if err := s.checkSlash(from); err != nil {
		return nil, err
	}
	if err := s.checkSlash(to); err != nil {
		return nil, err
	}
	if from.stored == "" {
		return nil, shell.Errorf(shell.CodeDenied, root, "the workspace root cannot be moved; repoint the workspace with editor::workspace::open instead")
	}
	if from.abs == to.abs {
		return nil, invalid("from and to are the same path (%s)", display(from.stored))
	}
	if workspace.Within(to.abs, from.abs) {
		return nil, shell.Errorf(shell.CodeInvalidArgument, to.stored, "cannot move %s into itself (%s)", display(from.stored), display(to.stored))
	}
	done, err := s.writing(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	before, err := s.jail.Lstat(from.abs)
	if err != nil {
		return nil, err
	}
	if to.dir && before.Kind != shell.KindDir {
		return nil, shell.Errorf(shell.CodeNotADirectory, to.stored, "to %s/ ends with a slash, which names a folder, but %s is not one; drop the slash", display(to.stored), display(from.stored))
	}
	if err := s.jail.Rename(from.abs, to.abs, req.Overwrite); err != nil {
		return nil, err
	}
	n := 0
	rec, err := s.store.Update(ctx, func(r *workspace.Record) (bool, error) {
		s.store.MoveDrafts(r.Session(root), root, from.stored, to.stored)
		n = r.Session(root).Move(from.stored, to.stored)
		return n > 0, nil
	})
	if err != nil {
		return nil, err
	}
	fromPath := from.stored
	ev := workspace.Event{Root: root, Path: to.stored, From: &fromPath, Kind: "moved", Cause: causeOf(ctx, "editor::move")}
	if before.Kind == shell.KindFile {
		if res, err := s.jail.ReadFile(to.abs, s.cfg.Limits.MaxFileBytes); err == nil && !res.Truncated {
			v := Version(res.Data)
			ev.Version = &v
		}
	}
	s.emit(ctx, ev)
	return &MoveResponse{From: from.stored, To: to.stored, Remapped: n, Root: root, Buffers: rec.Session(root).Buffers}, nil
}

func (s *Service) Create(ctx context.Context, req *CreateRequest) (*CreateResponse, error) {
	root, l, err := s.writeTarget(ctx, req.Path, "path")
	if err != nil {
		return nil, err
	}
	done, err := s.writing(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	switch req.Kind {
	case "folder":
		if in, err := s.jail.Lstat(l.abs); err == nil && in.Kind != shell.KindDir {
			return nil, shell.Errorf(shell.CodeExists, l.stored, "%s already exists and is not a folder", display(l.stored))
		}
		created, err := s.jail.Mkdir(l.abs, true)
		if err != nil {
			return nil, err
		}
		return &CreateResponse{Path: l.stored, Kind: "folder", Created: created, Root: root}, nil
	case "file":
		if err := fileOnly(l); err != nil {
			return nil, err
		}
		content := []byte(req.Content)
		if !isText(content) {
			return nil, shell.Errorf(shell.CodeBinary, l.stored, "the content for %s has a NUL byte or invalid UTF-8; editor::create writes text only", display(l.stored))
		}
		if _, err := s.jail.WriteFile(l.abs, content, shell.WriteOptions{Parents: true, Exclusive: true}); err != nil {
			if shell.CodeOf(err) == shell.CodeNotFound {
				// A dangling symlink inside the jail is something at the path.
				if in, lerr := s.jail.Lstat(l.abs); lerr == nil && in.Kind == shell.KindSymlink {
					return nil, shell.Errorf(shell.CodeExists, l.stored, "%s already exists (a symlink to a missing file); editor::create never overwrites, so remove it or choose another name", display(l.stored))
				}
			}
			return nil, err
		}
		s.emit(ctx, s.changeEvent(root, l, "editor::create", "created", nil, content))
		return &CreateResponse{Path: l.stored, Kind: "file", Created: true, Root: root}, nil
	}
	return nil, invalid("kind must be \"file\" or \"folder\", not %q", req.Kind)
}

func (s *Service) Delete(ctx context.Context, req *DeleteRequest) (*DeleteResponse, error) {
	root, l, err := s.writeTarget(ctx, req.Path, "path")
	if err != nil {
		return nil, err
	}
	if l.stored == "" {
		return nil, shell.Errorf(shell.CodeDenied, root, "the workspace root cannot be deleted")
	}
	done, err := s.writing(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	var old []byte
	in, err := s.jail.Lstat(l.abs)
	if err != nil {
		return nil, err
	} else if in.Kind == shell.KindFile {
		if res, err := s.jail.ReadFile(l.abs, s.cfg.Limits.MaxFileBytes); err == nil && !res.Truncated {
			old = res.Data
		}
	}
	var gone []workspace.GoneFile
	if in.Kind == shell.KindDir && req.Recursive {
		gone = s.folderContents(l)
	}
	if err := s.jail.Remove(l.abs, req.Recursive); err != nil {
		return nil, err
	}
	var closed []string
	rec, err := s.store.Update(ctx, func(r *workspace.Record) (bool, error) {
		ses := r.Session(root)
		nExp := len(ses.Expanded)
		closed = ses.CloseBeneath(l.stored)
		return len(closed) > 0 || len(ses.Expanded) != nExp, nil
	})
	if err != nil {
		return nil, err
	}
	ev := workspace.Event{Root: root, Path: l.stored, Kind: "deleted", Cause: "editor::delete"}
	if old != nil {
		ev = s.changeEvent(root, l, "editor::delete", "deleted", old, nil)
		ev.Mode = modeString(in.Mode)
	}
	ev.Gone = gone
	s.emit(ctx, ev)
	return &DeleteResponse{Path: l.stored, Deleted: true, BuffersClosed: closed, Root: root, Buffers: rec.Session(root).Buffers}, nil
}
