package main

// The slot-file harness of the lost-update suites (stress_lostupdate,
// stress_overlap, stress_edit): writers on several `editord serve`
// processes each change their own lines of one file, and no change a
// writer was told succeeded may be missing at the end. Raw JSON-RPC over
// each server's stdio: the test process decodes only the fields it needs
// (under -race, decoding whole responses through a client library cost
// more than the servers' own work).

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
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

// rawCallOK is rawCall with a refusal (isError) as an error.
func rawCallOK(s *rawServer, tool string, args map[string]any) (*rawReply, error) {
	r, err := rawCall(s, tool, args)
	if err == nil && r.Result.IsError {
		return nil, fmt.Errorf("%s: refused: %+v %v", tool, r.Result.StructuredContent, r.Result.Content)
	}
	return r, err
}

// slotFile writes path with n slot lines "0-" to "n-1-". Short lines keep
// the responses small: the proof is about lost writes, not size. A leading
// newline gives every line a "\n" before it, so "\n7-\n" names line 7 and
// no other.
func slotFile(t *testing.T, path string, n int) {
	t.Helper()
	var lines []string
	for i := range n {
		lines = append(lines, fmt.Sprintf("%d-", i))
	}
	if err := os.WriteFile(path, []byte("\n"+strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// slotLine is what writer p writes in round r into slot.
func slotLine(slot, p, r int) string { return fmt.Sprintf("%d-%d/%d", slot, p, r) }

// guardedSave is one round of a writer: open (with openArgs, whose path
// names the file), replace the slot's line by mine, save with the
// version; on a conflict, re-open and retry after a short random pause
// as a real client would take (writers retrying in lockstep mostly
// conflict with each other again). It returns the answer of the save
// that was not a conflict, and the opens and conflicts it took.
func guardedSave(s *rawServer, openArgs map[string]any, slot int, mine string, deadline time.Time) (res *rawReply, opens, conflicts int, err error) {
	old := fmt.Sprintf("\n%d-\n", slot)
	for {
		if time.Now().After(deadline) {
			return nil, opens, conflicts, errors.New("out of time")
		}
		o, err := rawCallOK(s, "editor_open", openArgs)
		if err != nil {
			return nil, opens, conflicts, err
		}
		opens++
		content := o.Result.StructuredContent.Content
		if !strings.Contains(content, old) {
			return nil, opens, conflicts, errors.New("its slot is gone before it wrote it")
		}
		res, err := rawCallOK(s, "editor_save", map[string]any{"path": openArgs["path"],
			"content": strings.Replace(content, old, "\n"+mine+"\n", 1), "expected_version": o.Result.StructuredContent.Version})
		if err != nil {
			return nil, opens, conflicts, err
		}
		if !res.Result.StructuredContent.Conflict {
			return res, opens, conflicts, nil
		}
		conflicts++
		time.Sleep(time.Duration(rand.IntN(4000)) * time.Microsecond)
	}
}

// lostSlots reads the slot file of procs writers × rounds rounds after
// they are done: line i must be slotLine(i, i/rounds, i%rounds). It
// reports the first few that are not and returns how many.
func lostSlots(t *testing.T, path string, procs, rounds int) int {
	t.Helper()
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
		if want := slotLine(i, i/rounds, i%rounds); l != want {
			lost++
			if lost <= 5 {
				t.Errorf("line %d is %q, want %q", i+1, l, want)
			}
		}
	}
	return lost
}
