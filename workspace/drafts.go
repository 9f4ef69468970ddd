package workspace

// Drafts: the unsaved edits a surface (the person's page) holds for an open
// buffer. Each lives in its own file under drafts/ in the state dir, so the
// record stays small; the record's Buffer says only that one exists (Dirty)
// and over which version (DraftBase). Callers change a draft file and the
// record together inside one Update, under the record lock.

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/editord/editord/shell"
)

// Draft is one buffer's unsaved content.
type Draft struct {
	Root    string `json:"root"`
	Path    string `json:"path"`
	Base    string `json:"base_version"`
	By      string `json:"by"`
	Time    string `json:"time"`
	Content string `json:"content"`
}

// MaxDraftsBytes caps the drafts of one state dir together (docs/contract.md §9).
const MaxDraftsBytes = 64 << 20

const draftsDir = "drafts"

func (s *Store) draftPath(root, path string) string {
	sum := sha256.Sum256([]byte(root + "\x00" + path))
	return s.path(draftsDir + "/" + hex.EncodeToString(sum[:12]) + ".json")
}

// ReadDraft returns the draft of path under root, or nil when there is none.
func (s *Store) ReadDraft(root, path string) (*Draft, error) {
	res, err := s.jail.ReadFile(s.draftPath(root, path), 0)
	if err != nil {
		if shell.CodeOf(err) == shell.CodeNotFound {
			return nil, nil
		}
		return nil, err
	}
	d := &Draft{}
	if err := json.Unmarshal(res.Data, d); err != nil || d.Root != root || d.Path != path {
		// Unreadable or not what its name promises: treat as absent, keep
		// the file for a person to look at until the next write replaces it.
		return nil, nil
	}
	return d, nil
}

// WriteDraft keeps d, refusing with too_large when the drafts of the state
// dir would then hold more than maxTotal bytes. Call it inside Update.
func (s *Store) WriteDraft(d *Draft, maxTotal int64) error {
	data, err := json.Marshal(d)
	if err != nil {
		return err
	}
	if _, err := s.jail.Mkdir(s.path(draftsDir), false); err != nil {
		return err
	}
	name := s.draftPath(d.Root, d.Path)
	total := int64(len(data))
	ents, err := s.jail.ReadDir(s.path(draftsDir))
	if err != nil {
		return err
	}
	for _, e := range ents {
		if s.path(draftsDir+"/"+e.Name) != name {
			total += e.Size
		}
	}
	if total > maxTotal {
		return shell.Errorf(shell.CodeTooLarge, d.Path, "keeping this draft of %s would make the unsaved drafts %d bytes, over the %d allowed in all; save or discard other drafts first", d.Path, total, maxTotal)
	}
	_, err = s.jail.WriteFile(name, data, shell.WriteOptions{Perm: 0o600, NoSync: true})
	return err
}

// RemoveDraft drops the draft of path under root; none is not an error.
func (s *Store) RemoveDraft(root, path string) error {
	err := s.jail.Remove(s.draftPath(root, path), false)
	if err != nil && shell.CodeOf(err) != shell.CodeNotFound {
		return err
	}
	return nil
}

// MoveDrafts carries the drafts of the dirty buffers at or under from to
// sit under to (editor::move). Call it inside Update, before Session.Move.
// The files have moved already, so trouble is only reported.
func (s *Store) MoveDrafts(ses *Session, root, from, to string) {
	for _, b := range slices.Concat(ses.Buffers, ses.Detached) {
		if !b.Dirty {
			continue
		}
		if p, ok := Remap(b.Path, from, to); ok {
			if err := s.moveDraft(root, b.Path, p); err != nil {
				s.warn(err.Error())
			}
		}
	}
}

func (s *Store) moveDraft(root, from, to string) error {
	d, err := s.ReadDraft(root, from)
	if err != nil || d == nil {
		return err
	}
	d.Path = to
	data, err := json.Marshal(d)
	if err != nil {
		return err
	}
	if _, err := s.jail.WriteFile(s.draftPath(root, to), data, shell.WriteOptions{Perm: 0o600, NoSync: true}); err != nil {
		return fmt.Errorf("moving the draft of %s to %s: %w", from, to, err)
	}
	return s.RemoveDraft(root, from)
}

// SweepDrafts removes the draft files that no dirty buffer or detached
// draft of rec names (left when a dirty buffer was closed before drafts
// were detached, or by a crash between the two writes), so they stop
// counting against MaxDraftsBytes; and forgets detached drafts whose file
// is gone. Call it inside Update; it reports whether rec changed.
func (s *Store) SweepDrafts(rec *Record) (bool, error) {
	ents, err := s.jail.ReadDir(s.path(draftsDir))
	if err != nil {
		if shell.CodeOf(err) == shell.CodeNotFound {
			err = nil
		}
		return false, err
	}
	held := map[string]bool{}
	for root, ses := range rec.Sessions {
		if ses == nil {
			continue
		}
		for _, b := range slices.Concat(ses.Buffers, ses.Detached) {
			if b.Dirty {
				held[s.draftPath(root, b.Path)] = true
			}
		}
	}
	present := map[string]bool{}
	for _, e := range ents {
		name := s.path(draftsDir + "/" + e.Name)
		if held[name] {
			present[name] = true
			continue
		}
		if err := s.jail.Remove(name, false); err != nil && shell.CodeOf(err) != shell.CodeNotFound {
			s.warn(fmt.Sprintf("removing the leftover draft %s: %v", name, err))
		}
	}
	changed := false
	for root, ses := range rec.Sessions {
		if ses == nil {
			continue
		}
		for _, d := range slices.Clone(ses.Detached) {
			if !present[s.draftPath(root, d.Path)] {
				ses.SetDraft(d.Path, "")
				changed = true
			}
		}
	}
	return changed, nil
}
