package editor

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/editord/editord/diff"
	"github.com/editord/editord/shell"
	"github.com/editord/editord/workspace"
)

type SaveRequest struct {
	Path            string  `json:"path" desc:"File to write, root-relative or absolute inside the jail."`
	Content         string  `json:"content" desc:"The complete new content (not a patch). Written byte for byte: no line-ending, BOM or encoding change."`
	ExpectedVersion *string `json:"expected_version,omitempty" desc:"The version editor::open (or the last editor::save) returned. The save is refused as a conflict unless the file on disk still has this version. Preferred guard."`
	ExpectedMtime   *int64  `json:"expected_mtime,omitempty" desc:"Unix-seconds mtime guard, used only when expected_version is absent. Coarse: two writes in one second look the same."`
	Force           bool    `json:"force,omitempty" default:"false" desc:"Overwrite an existing file without any guard. A deliberate clobber; leave it false."`
}

type SaveResponse struct {
	Path          string  `json:"path" desc:"The file, in stored form (root-relative)."`
	Saved         bool    `json:"saved" desc:"True when the content is now on disk."`
	Conflict      bool    `json:"conflict" desc:"True when nothing was written because the file changed since the guard's version; see conflict_patch."`
	Created       bool    `json:"created" desc:"True when the file did not exist and was created."`
	Version       string  `json:"version" desc:"On success the new content's version (use it as the next expected_version); on conflict the disk's version."`
	Mtime         int64   `json:"mtime" desc:"On success the new mtime; on conflict the disk's mtime. Unix seconds."`
	Added         int     `json:"added" desc:"Lines added relative to what was on disk."`
	Removed       int     `json:"removed" desc:"Lines removed relative to what was on disk."`
	DiskVersion   *string `json:"disk_version,omitempty" desc:"On conflict: the version on disk now."`
	DiskMtime     *int64  `json:"disk_mtime,omitempty" desc:"On conflict: the mtime on disk now, Unix seconds."`
	ConflictPatch *string `json:"conflict_patch,omitempty" desc:"On conflict: unified diff from the content on disk now to the content you sent. Reconcile, then save again with disk_version."`
}

func init() {
	define("editor::save",
		"Write a whole file, guarded against a concurrent change. Pass the version from editor::open (or from the previous save) "+
			"as expected_version: if the file changed in between, nothing is written and the result has conflict: true, "+
			"the disk's version and a conflict_patch from the disk's content to yours. Re-open, reconcile, save again; never drop "+
			"the guard to force it through. Omit the guard only to create a new file (parents are created). "+
			"Content with a NUL byte or invalid UTF-8 is refused (binary). "+
			`Example: {"path": "README.md", "content": "# Title\n", "expected_version": "8-1a2b3c4d5e6f7a8b"}.`,
		destructive, (*Service).Save)
}

// errSlippedIn marks a write that landed between our check and our rename.
var errSlippedIn = errors.New("the file changed while saving")

// saveLockName spreads saves over 256 lock files by path, so saves to
// different files rarely wait on each other while saves to one file are
// serialized across every process on the state dir.
func saveLockName(abs string) string {
	h := fnv.New32a()
	h.Write([]byte(abs))
	return fmt.Sprintf("save-%02x.lock", h.Sum32()&0xff)
}

// saveLock is the lock a save of l takes. It is keyed by the file's real
// path, so that saves naming one file differently (through a symlink to it,
// or through a symlinked folder) still exclude each other; a missing file is
// keyed by its real folder and its name, which is what its real path will be.
func (s *Service) saveLock(l loc) string {
	key := l.abs
	if p, err := s.jail.Realpath(l.abs); err == nil {
		key = p
	} else if d, err := s.jail.Realpath(filepath.Dir(l.abs)); err == nil {
		key = filepath.Join(d, filepath.Base(l.abs))
	}
	return saveLockName(key)
}

// isText reports whether content may be written as text: no NUL byte
// anywhere and valid UTF-8 (CONTRACT.md §3.4).
func isText(content []byte) bool {
	return bytes.IndexByte(content, 0) < 0 && utf8.Valid(content)
}

func (s *Service) Save(ctx context.Context, req *SaveRequest) (*SaveResponse, error) {
	root, l, err := s.target(req.Path, "path")
	if err != nil {
		return nil, err
	}
	content := []byte(req.Content)
	if !isText(content) {
		return nil, shell.Errorf(shell.CodeBinary, l.stored, "the content for %s has a NUL byte or invalid UTF-8; editor::save writes text only", display(l.stored))
	}
	done, err := s.writing(ctx) // before the save lock: writing.go's lock order
	if err != nil {
		return nil, err
	}
	defer done()
	unlock, err := s.store.Lock(ctx, s.saveLock(l))
	if err != nil {
		return nil, err
	}
	defer unlock()

	for attempt := 0; ; attempt++ {
		resp, err := s.saveLocked(ctx, root, l, content, req)
		if !errors.Is(err, errSlippedIn) {
			return resp, err
		}
		if attempt < 3 {
			continue // re-evaluate against what is on disk now: that yields the conflict
		}
		// Other writers keep landing between our check and our rename (a
		// forced save re-checks and tries again): answer with a conflict
		// against the disk as it is now. Never an uncoded error, which a
		// client would see as internal, and never a clobber.
		cur, rerr := s.readDisk(l)
		if rerr != nil {
			return nil, rerr
		}
		if !cur.exists {
			return nil, shell.Errorf(shell.CodeNotFound, l.stored, "%s keeps being created and removed by another program while saving; re-open it and save again", display(l.stored))
		}
		return s.conflict(l, cur, content), nil
	}
}

// slippedInHook runs in a save's last check, just before the rename; tests
// use it to make another writer land there.
var slippedInHook func()

// disk is what a save found at its path.
type disk struct {
	exists  bool
	data    []byte
	version string
	mtime   int64
}

func (s *Service) readDisk(l loc) (disk, error) {
	res, err := s.jail.ReadFile(l.abs, 0)
	if err != nil {
		if shell.CodeOf(err) == shell.CodeNotFound {
			return disk{}, nil
		}
		return disk{}, err
	}
	if res.Truncated {
		return disk{}, shell.Errorf(shell.CodeTooLarge, l.stored, "%s is %d bytes on disk, over max_read_bytes; it cannot be checked or saved through the editor", display(l.stored), res.Info.Size)
	}
	return disk{exists: true, data: res.Data, version: Version(res.Data), mtime: res.Info.ModTime}, nil
}

func (s *Service) saveLocked(ctx context.Context, root string, l loc, content []byte, req *SaveRequest) (*SaveResponse, error) {
	cur, err := s.readDisk(l)
	if err != nil {
		return nil, err
	}
	guarded := req.ExpectedVersion != nil || req.ExpectedMtime != nil
	if !cur.exists {
		if guarded {
			return nil, shell.Errorf(shell.CodeNotFound, l.stored, "%s does not exist any more; re-open it, or create it by saving without expected_version/expected_mtime", display(l.stored))
		}
		return s.write(ctx, root, l, cur, content, true)
	}
	if !isText(cur.data) {
		return nil, shell.Errorf(shell.CodeBinary, l.stored, "%s is binary on disk (NUL byte or invalid UTF-8); editor::save will not overwrite it", display(l.stored))
	}
	var ok bool
	switch {
	case req.ExpectedVersion != nil:
		ok = *req.ExpectedVersion != "" && *req.ExpectedVersion == cur.version
	case req.ExpectedMtime != nil:
		ok = *req.ExpectedMtime == cur.mtime
	default:
		ok = req.Force
	}
	if !ok {
		return s.conflict(l, cur, content), nil
	}
	return s.write(ctx, root, l, cur, content, false)
}

func (s *Service) conflict(l loc, cur disk, content []byte) *SaveResponse {
	d := diff.Unified(string(cur.data), string(content), diff.Options{
		Path: diffPath(l), Context: s.cfg.Limits.DiffContextLines, MaxBytes: s.cfg.Limits.MaxDiffBytes,
	})
	patch := d.Patch
	if d.Truncated {
		patch = ""
	}
	v, m := cur.version, cur.mtime
	return &SaveResponse{
		Path: l.stored, Conflict: true, Version: v, Mtime: m,
		Added: d.Added, Removed: d.Removed,
		DiskVersion: &v, DiskMtime: &m, ConflictPatch: &patch,
	}
}

// write replaces the file, re-checking the disk just before the rename so a
// writer that slipped in after our check (another program, which does not
// take our lock) turns the save into a conflict rather than a clobber.
func (s *Service) write(ctx context.Context, root string, l loc, cur disk, content []byte, create bool) (*SaveResponse, error) {
	resp := &SaveResponse{Path: l.stored, Saved: true, Created: create, Version: Version(content)}
	if !create && cur.version == resp.Version {
		// Same bytes: nothing to write, and no change event to send.
		resp.Mtime = cur.mtime
		return resp, s.remember(ctx, root, workspace.Buffer{Path: l.stored, Version: resp.Version, Mtime: cur.mtime, Language: Language(l.stored)})
	}
	info, err := s.jail.WriteFile(l.abs, content, shell.WriteOptions{
		Parents:   create,
		Exclusive: create,
		Before: func() error {
			if slippedInHook != nil {
				slippedInHook()
			}
			now, err := s.readDisk(l)
			if err != nil {
				return err
			}
			if now.exists != cur.exists || now.version != cur.version {
				return errSlippedIn
			}
			return nil
		},
	})
	if err != nil {
		if create && shell.CodeOf(err) == shell.CodeExists {
			return nil, errSlippedIn
		}
		return nil, err
	}
	resp.Mtime = info.ModTime
	kind := "modified"
	if create {
		kind = "created"
	}
	ev := s.changeEvent(root, l, causeOf(ctx, "editor::save"), kind, cur.data, content)
	resp.Added, resp.Removed = ev.Added, ev.Removed
	// The content is on disk now: a record that cannot be updated (a stuck
	// lock, a broken state dir) is reported, but must not turn a save that
	// happened into an error, or the caller would lose the new version and
	// believe nothing was written.
	if err := s.remember(ctx, root, workspace.Buffer{Path: l.stored, Version: resp.Version, Mtime: resp.Mtime, Language: Language(l.stored)}); err != nil {
		s.warn(fmt.Sprintf("%s was saved, but its buffer could not be recorded: %v", display(l.stored), err))
	}
	s.emit(ctx, ev)
	return resp, nil
}

// diffPath is the name a patch about l carries in its headers.
func diffPath(l loc) string {
	if p := strings.TrimPrefix(l.stored, "/"); p != "" {
		return p
	}
	return "file"
}
