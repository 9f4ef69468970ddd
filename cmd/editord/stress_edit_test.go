package main

// editor::edit and editor::save on one file from 8 processes (issue 11):
// half the servers edit their own lines in place, unguarded (the anchor is
// the guard); the other half open, change one line and save with the
// version, retrying on conflict. No reported success may be missing from
// the final file: an edit never clobbers a save, nor a save an edit.

import (
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestStressEditAndSave(t *testing.T) {
	procs, rounds := 8, stN(25, 100)
	root := workspaceDir(t)
	state := t.TempDir()
	path := filepath.Join(root, "shared.txt")
	slotFile(t, path, procs*rounds)
	servers := make([]*rawServer, procs)
	for p := range servers {
		servers[p] = startRaw(t, root, state, true)
	}
	deadline := time.Now().Add(time.Duration(stN(120, 900)) * time.Second)
	var edits, saves, conflicts atomic.Int64
	var wg sync.WaitGroup
	for p, s := range servers {
		editor := p%2 == 0
		wg.Go(func() {
			for r := range rounds {
				slot := p*rounds + r
				if editor {
					// The anchor is the guard: no version, no retry.
					old, mine := fmt.Sprintf("\n%d-\n", slot), "\n"+slotLine(slot, p, r)+"\n"
					res, err := rawCall(s, "editor_edit", map[string]any{"path": "shared.txt", "edits": []map[string]any{{"old_text": old, "new_text": mine}}})
					if err != nil {
						t.Errorf("process %d: %v", p, err)
						return
					}
					if sc := res.Result.StructuredContent; res.Result.IsError || !sc.Applied {
						t.Errorf("process %d round %d: edit not applied: %+v %v", p, r, sc, res.Result.Content)
						return
					}
					edits.Add(1)
					continue
				}
				_, _, c, err := guardedSave(s, map[string]any{"path": "shared.txt", "tab": false}, slot, slotLine(slot, p, r), deadline)
				conflicts.Add(int64(c))
				if err != nil {
					t.Errorf("process %d round %d: %v", p, r, err)
					return
				}
				saves.Add(1)
			}
		})
	}
	wg.Wait()
	lost := lostSlots(t, path, procs, rounds)
	t.Logf("%d processes × %d rounds: %d edits, %d saves, %d save conflicts retried; %d changes lost", procs, rounds, edits.Load(), saves.Load(), conflicts.Load(), lost)
	if lost > 0 {
		t.Fatalf("%d of %d changes were lost", lost, procs*rounds)
	}
}
