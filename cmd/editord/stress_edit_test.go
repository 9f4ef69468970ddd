package main

// editor::edit and editor::save on one file from 8 processes (issue 11):
// half the servers edit their own lines in place, unguarded (the anchor is
// the guard); the other half open, change one line and save with the
// version, retrying on conflict. No reported success may be missing from
// the final file: an edit never clobbers a save, nor a save an edit.

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// rawReply is the part of a tools/call answer these tests read.
type rawReply struct {
	ID     *int   `json:"id"`
	Method string `json:"method"`
	Result struct {
		IsError           bool `json:"isError"`
		StructuredContent struct {
			Content  string `json:"content"`
			Version  string `json:"version"`
			Saved    bool   `json:"saved"`
			Applied  bool   `json:"applied"`
			Conflict bool   `json:"conflict"`
			Error    *struct {
				Code    string `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		} `json:"structuredContent"`
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
	} `json:"result"`
	Error any `json:"error"`
}

// rawCall sends one tools/call and waits for its answer, skipping
// notifications; a refusal (isError) is returned, not failed.
func rawCall(s *rawServer, tool string, args map[string]any) (*rawReply, error) {
	s.nextID++
	if err := s.send(map[string]any{"jsonrpc": "2.0", "id": s.nextID, "method": "tools/call",
		"params": map[string]any{"name": tool, "arguments": args}}); err != nil {
		return nil, err
	}
	timeout := time.After(60 * time.Second)
	for {
		select {
		case line, ok := <-s.lines:
			if !ok {
				return nil, fmt.Errorf("the server exited: %s", s.stderr)
			}
			var r rawReply
			if err := json.Unmarshal(line, &r); err != nil {
				return nil, err
			}
			if r.Method != "" || r.ID == nil {
				continue
			}
			if *r.ID != s.nextID {
				return nil, fmt.Errorf("%s: answer to id %d, want %d", tool, *r.ID, s.nextID)
			}
			if r.Error != nil {
				return nil, fmt.Errorf("%s: %.300s", tool, line)
			}
			return &r, nil
		case <-timeout:
			return nil, fmt.Errorf("%s: no answer in 60s", tool)
		}
	}
}

func TestStressEditAndSave(t *testing.T) {
	procs, rounds := 8, stN(25, 100)
	root := workspaceDir(t)
	state := t.TempDir()
	var lines []string
	for i := range procs * rounds {
		lines = append(lines, fmt.Sprintf("%d-", i))
	}
	path := filepath.Join(root, "shared.txt")
	// A leading newline gives every line a "\n" before it, so "\n7-\n"
	// names line 7 and no other.
	if err := os.WriteFile(path, []byte("\n"+strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
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
				old := fmt.Sprintf("\n%d-\n", slot)
				mine := fmt.Sprintf("\n%d-%d/%d\n", slot, p, r)
				if editor {
					// The anchor is the guard: no version, no retry.
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
				for {
					if time.Now().After(deadline) {
						t.Errorf("process %d: out of time at round %d", p, r)
						return
					}
					o, err := rawCall(s, "editor_open", map[string]any{"path": "shared.txt", "tab": false})
					if err != nil || o.Result.IsError {
						t.Errorf("process %d: open: %v %v", p, err, o)
						return
					}
					content := o.Result.StructuredContent.Content
					if !strings.Contains(content, old) {
						t.Errorf("process %d round %d: its slot is gone before it wrote it", p, r)
						return
					}
					res, err := rawCall(s, "editor_save", map[string]any{"path": "shared.txt", "content": strings.Replace(content, old, mine, 1), "expected_version": o.Result.StructuredContent.Version})
					if err != nil || res.Result.IsError {
						t.Errorf("process %d: save: %v %v", p, err, res)
						return
					}
					if res.Result.StructuredContent.Conflict {
						conflicts.Add(1)
						time.Sleep(time.Duration(rand.IntN(4000)) * time.Microsecond)
						continue
					}
					saves.Add(1)
					break
				}
			}
		})
	}
	wg.Wait()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Split(strings.TrimSuffix(strings.TrimPrefix(string(data), "\n"), "\n"), "\n")
	if len(got) != procs*rounds {
		t.Fatalf("the file has %d lines, want %d", len(got), procs*rounds)
	}
	lost := 0
	for i, l := range got {
		if want := fmt.Sprintf("%d-%d/%d", i, i/rounds, i%rounds); l != want {
			lost++
			if lost <= 5 {
				t.Errorf("line %d is %q, want %q", i+1, l, want)
			}
		}
	}
	t.Logf("%d processes × %d rounds: %d edits, %d saves, %d save conflicts retried; %d changes lost", procs, rounds, edits.Load(), saves.Load(), conflicts.Load(), lost)
	if lost > 0 {
		t.Fatalf("%d of %d changes were lost", lost, procs*rounds)
	}
}
