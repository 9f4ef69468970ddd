package main

// Suite 3 of issue 6: crash safety. The real binary saves a 1 MiB file in
// a loop, one distinct version after another, and is killed with SIGKILL at
// random moments. After every kill the file is exactly one of the versions
// saved (never partial, never empty, never older than the last save the
// server confirmed); temp files a killed save leaves behind are hidden from
// listings and removed by the next write in their folder once they are
// stale; the shared record is never corrupt.

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/editord/editord/shell"
)

const crashFileSize = 1 << 20

// crashContent is version n of the file: 1 MiB of text whose first line,
// last line and one line in every 64 KiB block name n, so any mix of two
// versions or any cut is caught by comparing with crashContent(n).
func crashContent(n int) []byte {
	var b bytes.Buffer
	b.Grow(crashFileSize + 64)
	fmt.Fprintf(&b, "version %08d\n", n)
	filler := strings.Repeat("the quick brown fox jumps over the lazy dog ", 1) + "\n"
	block := 0
	for b.Len() < crashFileSize-64 {
		if b.Len() >= (block+1)*(64<<10) {
			block++
			fmt.Fprintf(&b, "block %d of version %08d\n", block, n)
			continue
		}
		b.WriteString(filler)
	}
	fmt.Fprintf(&b, "end of version %08d\n", n)
	return b.Bytes()
}

// crashVersionOf names the version data claims to be, or -1.
func crashVersionOf(data []byte) int {
	var n int
	if _, err := fmt.Sscanf(string(data[:min(len(data), 17)]), "version %08d\n", &n); err != nil {
		return -1
	}
	return n
}

func TestStressCrashSafety(t *testing.T) {
	kills := stN(30, 500)
	root := workspaceDir(t)
	state := t.TempDir()
	path := filepath.Join(root, "big.txt")
	if err := os.WriteFile(path, crashContent(0), 0o644); err != nil {
		t.Fatal(err)
	}
	want := map[int][32]byte{0: sha256.Sum256(crashContent(0))}
	rng := rand.New(rand.NewPCG(3, 500))
	next := 1
	confirmed := 0 // the newest version a server said it saved
	savesDone, killedMidSave := 0, 0
	deadline := time.Now().Add(time.Duration(stN(60, 900)) * time.Second)

	k := 0
	for ; k < kills && time.Now().Before(deadline); k++ {
		srv := startRaw(t, root, state, true)
		var inFlight atomic.Int64
		inFlight.Store(-1)
		stop := make(chan struct{})
		done := make(chan struct{})
		var saved []int
		go func() {
			defer close(done)
			for {
				select {
				case <-stop:
					return
				default:
				}
				n := next
				next++
				content := crashContent(n)
				want[n] = sha256.Sum256(content)
				inFlight.Store(int64(n))
				srv.nextID++
				err := srv.send(map[string]any{"jsonrpc": "2.0", "id": srv.nextID, "method": "tools/call",
					"params": map[string]any{"name": "editor_save", "arguments": map[string]any{"path": "big.txt", "content": string(content), "force": true}}})
				if err != nil {
					return
				}
				m, err := srv.read(30 * time.Second)
				if err != nil {
					return // killed
				}
				res, _ := m["result"].(map[string]any)
				if res == nil || res["isError"] == true {
					t.Errorf("save %d: %v", n, m)
					return
				}
				saved = append(saved, n)
				inFlight.Store(-1)
			}
		}()
		// Kill at a random moment: sometimes at once (mid start-up), mostly
		// while saves run.
		var wait time.Duration
		if rng.IntN(10) > 0 {
			wait = time.Duration(rng.IntN(600)) * time.Millisecond
		}
		time.Sleep(wait)
		midSave := inFlight.Load() >= 0
		srv.cmd.Process.Signal(syscall.SIGKILL)
		srv.cmd.Wait()
		close(stop)
		<-done
		if len(saved) > 0 {
			confirmed = saved[len(saved)-1]
		}
		savesDone += len(saved)
		if midSave {
			killedMidSave++
		}

		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("kill %d: the file is gone: %v", k, err)
		}
		n := crashVersionOf(data)
		sum, known := want[n]
		switch {
		case len(data) == 0:
			t.Fatalf("kill %d: the file is empty", k)
		case n < 0 || !known || sha256.Sum256(data) != sum:
			t.Fatalf("kill %d: the file is not any version saved (%d bytes, starts %.30q)", k, len(data), data)
		case n < confirmed:
			t.Fatalf("kill %d: the file holds version %d, older than version %d the server confirmed", k, n, confirmed)
		}
	}
	t.Logf("%d kills (%d mid-save), %d saves confirmed, last version sent %d", k, killedMidSave, savesDone, next-1)
	if k < min(kills, 10) || savesDone == 0 {
		t.Fatalf("the suite did not run: %d kills, %d saves", k, savesDone)
	}

	// Temp files a kill left behind: hidden, bounded by the kills, and
	// removed by the next write in the folder once stale.
	temps := tempFilesIn(t, root)
	t.Logf("%d temp files left by %d kills", len(temps), k)
	if len(temps) > k {
		t.Errorf("%d temp files after %d kills", len(temps), k)
	}
	tree, isErr := callCLI(t, root, state, "editor::tree", `{"max_depth": 1}`)
	if isErr || strings.Contains(fmt.Sprint(tree), ".editord-") {
		t.Errorf("the tree shows temp files or failed: %v", tree)
	}
	if len(temps) == 0 {
		// No kill landed inside a write this time; plant one so the
		// clean-up is still proven.
		p := filepath.Join(root, ".big.txt.editord-0123456789ab.tmp")
		if err := os.WriteFile(p, []byte("left by a killed save"), 0o600); err != nil {
			t.Fatal(err)
		}
		temps = append(temps, p)
	}
	// Not stale yet: a write in the folder keeps them (they could be a
	// live writer's).
	if _, isErr := callCLI(t, root, state, "editor::save", `{"path": "other.txt", "content": "x\n"}`); isErr {
		t.Fatal("save failed")
	}
	if got := tempFilesIn(t, root); len(got) != len(temps) {
		t.Errorf("fresh temp files were removed: %d left of %d", len(got), len(temps))
	}
	old := time.Now().Add(-10 * time.Minute)
	for _, p := range temps {
		os.Chtimes(p, old, old)
	}
	// A user's file that merely looks like one is never touched.
	lookalike := filepath.Join(root, ".notes.editord-draft.tmp")
	os.WriteFile(lookalike, []byte("mine"), 0o644)
	os.Chtimes(lookalike, old, old)
	if _, isErr := callCLI(t, root, state, "editor::save", `{"path": "other.txt", "content": "y\n", "force": true}`); isErr {
		t.Fatal("save failed")
	}
	if got := tempFilesIn(t, root); len(got) != 1 || got[0] != lookalike {
		t.Errorf("stale temp files not cleaned by the next write: %v", got)
	}

	// The shared record survived every kill: nothing was moved aside as
	// corrupt, and the buffer of the saved file is recorded.
	if aside, _ := filepath.Glob(filepath.Join(state, "workspace.json.corrupt-*")); len(aside) > 0 {
		t.Errorf("the record was corrupted by a kill: %v", aside)
	}
	list, isErr := callCLI(t, root, state, "editor::buffers::list", `{}`)
	if isErr || !strings.Contains(fmt.Sprint(list), "big.txt") {
		t.Errorf("buffers after the kills: %v", list)
	}
	if ch, isErr := callCLI(t, root, state, "editor::changes", `{}`); isErr {
		t.Errorf("changes after the kills: %v", ch)
	}
	// The state dir's own temp files are swept the same way.
	if n := len(tempFilesIn(t, state)); n > k {
		t.Errorf("%d temp files in the state dir", n)
	}
}

func tempFilesIn(t testing.TB, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && shell.IsTempName(d.Name()) {
			out = append(out, p)
		}
		return nil
	})
	return out
}
