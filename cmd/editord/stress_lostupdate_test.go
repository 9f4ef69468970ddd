package main

// Suite 4 of issue 6: the lost-update proof. N `editord serve` processes on
// one state dir, each driven over its own stdio (MCP JSON-RPC), do
// M rounds of open -> change one line -> save with the version, re-opening
// and retrying on every conflict. At the end the file holds all N×M
// changes: no save ever overwrote another's change.

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

func TestStressLostUpdate(t *testing.T) {
	procs, rounds := stN(8, 16), stN(50, 100)
	root := workspaceDir(t)
	state := t.TempDir()
	// Raw JSON-RPC over each server's stdio: the test process decodes only
	// the fields it needs (under -race, decoding whole responses through a
	// client library cost more than the servers' own work).
	servers := make([]*rawServer, procs)
	paths := make([]string, procs)
	for p := range servers {
		servers[p] = startRaw(t, root, state, true)
		paths[p] = "shared.txt"
	}
	raceGuardedSaves(t, servers, paths, filepath.Join(root, "shared.txt"), rounds)
}

// raceGuardedSaves has each server p do rounds rounds of open -> change
// its own line -> guarded save of file, which server p names paths[p],
// retrying on conflict; then checks that no change was lost.
func raceGuardedSaves(t *testing.T, servers []*rawServer, paths []string, path string, rounds int) {
	procs := len(servers)
	var lines []string
	for i := range procs * rounds {
		lines = append(lines, fmt.Sprintf("%d-", i))
	}
	// Short lines keep the responses small: the proof is about lost
	// writes, not size. A leading newline gives every line a "\n" before
	// it, so "\n7-\n" names line 7 and no other.
	if err := os.WriteFile(path, []byte("\n"+strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(time.Duration(stN(120, 900)) * time.Second)
	var saves, conflicts, opens atomic.Int64
	type reply struct {
		ID     *int   `json:"id"`
		Method string `json:"method"`
		Result struct {
			IsError           bool `json:"isError"`
			StructuredContent struct {
				Content  string `json:"content"`
				Version  string `json:"version"`
				Saved    bool   `json:"saved"`
				Conflict bool   `json:"conflict"`
				Error    any    `json:"error"`
			} `json:"structuredContent"`
		} `json:"result"`
		Error any `json:"error"`
	}
	call := func(s *rawServer, tool string, args map[string]any) (*reply, error) {
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
				var r reply
				if err := json.Unmarshal(line, &r); err != nil {
					return nil, err
				}
				if r.Method != "" || r.ID == nil {
					continue // a notification (a change event, a log message)
				}
				if *r.ID != s.nextID {
					return nil, fmt.Errorf("%s: answer to id %d, want %d", tool, *r.ID, s.nextID)
				}
				if r.Error != nil || r.Result.IsError {
					return nil, fmt.Errorf("%s: %.300s", tool, line)
				}
				return &r, nil
			case <-timeout:
				return nil, fmt.Errorf("%s: no answer in 60s", tool)
			}
		}
	}
	var wg sync.WaitGroup
	for p, s := range servers {
		wg.Go(func() {
			for r := range rounds {
				slot := p*rounds + r
				for attempt := 0; ; attempt++ {
					if time.Now().After(deadline) {
						t.Errorf("process %d: out of time at round %d", p, r)
						return
					}
					o, err := call(s, "editor_open", map[string]any{"path": paths[p]})
					if err != nil {
						t.Errorf("process %d: %v", p, err)
						return
					}
					opens.Add(1)
					content := o.Result.StructuredContent.Content
					old := fmt.Sprintf("\n%d-\n", slot)
					if !strings.Contains(content, old) {
						t.Errorf("process %d round %d: its slot is gone before it wrote it", p, r)
						return
					}
					content = strings.Replace(content, old, fmt.Sprintf("\n%d-%d/%d\n", slot, p, r), 1)
					res, err := call(s, "editor_save", map[string]any{"path": paths[p], "content": content, "expected_version": o.Result.StructuredContent.Version})
					if err != nil {
						t.Errorf("process %d: %v", p, err)
						return
					}
					if res.Result.StructuredContent.Conflict {
						// Re-open and retry, after a short random pause as a
						// real client would take (eight writers retrying in
						// lockstep mostly conflict with each other again).
						conflicts.Add(1)
						time.Sleep(time.Duration(rand.IntN(4000)) * time.Microsecond)
						continue
					}
					if !res.Result.StructuredContent.Saved {
						t.Errorf("process %d: neither saved nor conflict: %+v", p, res)
						return
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
		want := fmt.Sprintf("%d-%d/%d", i, i/rounds, i%rounds)
		if l != want {
			lost++
			if lost <= 5 {
				t.Errorf("line %d is %q, want %q", i+1, l, want)
			}
		}
	}
	t.Logf("%d processes × %d rounds: %d saves, %d conflicts retried, %d opens; %d changes lost", procs, rounds, saves.Load(), conflicts.Load(), opens.Load(), lost)
	if lost > 0 {
		t.Fatalf("%d of %d changes were lost", lost, procs*rounds)
	}
	if saves.Load() != int64(procs*rounds) {
		t.Errorf("%d saves succeeded, want exactly %d", saves.Load(), procs*rounds)
	}
}
