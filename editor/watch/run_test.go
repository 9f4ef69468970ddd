package watch

import (
	"context"
	"fmt"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/editord/editord/editor"
	"github.com/editord/editord/shell/sandbox"
)

// The test binary is also the sandbox's init (shell/sandbox re-executes
// the running binary).
func TestMain(m *testing.M) {
	sandbox.Init()
	os.Exit(m.Run())
}

// rcNew is a workspace with editor::run on, allowing the programs named.
func rcNew(t *testing.T, programs ...string) *tcEnv {
	t.Helper()
	if err := sandbox.Available(); err != nil {
		if os.Getenv("EDITORD_SANDBOX_TESTS") == "1" {
			t.Fatalf("EDITORD_SANDBOX_TESTS=1 but %v", err)
		}
		t.Skipf("%v", err)
	}
	return tcNew(t, func(c *editor.Config) {
		c.Run.Enabled = true
		c.Run.Programs = programs
		c.Run.Path = "/usr/bin:/bin"
	})
}

func rcRun(t *testing.T, s *svc, ctx context.Context, req *editor.RunRequest) *editor.RunResponse {
	t.Helper()
	resp, err := s.Run(ctx, req)
	if err != nil {
		t.Fatalf("run %v: %v", req.Argv, err)
	}
	return resp
}

func rcCaller(by string) context.Context {
	return editor.WithCaller(context.Background(), editor.NewCaller(by))
}

// A command's writes reach the journal once, as its caller's (cause
// editor::run), though the watcher sees them too, in this process or
// another; a write by another program after the command is external.
func TestRunWritesAreTheCallersNotExternal(t *testing.T) {
	for _, where := range []string{"same process", "other process"} {
		t.Run(where, func(t *testing.T) {
			e := rcNew(t, "sh")
			e.write("a.txt", "a\n")
			e.write("old.txt", "old\n")
			watcher := e.s
			if where == "other process" {
				watcher = e.service()
			}
			twStart(t, watcher)
			twReady(t, watcher, e.root)
			cursor := twCursor(t, e.s)
			r := rcRun(t, e.s, rcCaller("agent#run1"), &editor.RunRequest{Argv: []string{"sh", "-c",
				"echo more >> a.txt; mkdir -p gen/sub; echo x > gen/sub/out.txt; mv old.txt new.txt"}})
			if r.ExitCode == nil || *r.ExitCode != 0 {
				t.Fatalf("%+v", r)
			}
			twWriteRaw(t, e.abs("ext.txt"), "by hand\n")
			twSettle(t, watcher)
			if evs := twSince(t, watcher, cursor); len(evs) == 0 {
				r, err := watcher.Changes(context.Background(), &editor.ChangesRequest{})
				data, _ := os.ReadFile(e.state + "/changes.jsonl")
				r2, err2 := e.s.Changes(context.Background(), &editor.ChangesRequest{})
				t.Fatalf("cursor %q; changes %+v %v; mine %+v %v; journal %d bytes:\n%s", cursor, r, err, r2, err2, len(data), data)
			}
			evs := twWait(t, watcher, cursor, "created ext.txt")
			twExactly(t, evs,
				"modified a.txt editor::run", "created gen/sub/out.txt editor::run",
				"deleted old.txt editor::run", "created new.txt editor::run",
				"created ext.txt external")
			for _, ev := range evs {
				if want := map[bool]string{true: "agent#run1", false: "external"}[ev.Cause == "editor::run"]; ev.By != want {
					t.Errorf("%s %s by %q, want %q", ev.Kind, ev.Path, ev.By, want)
				}
			}
		})
	}
}

// The watcher decides a command's write while the command still runs
// (the journal has nothing of it yet): still not external.
func TestRunWriteDecidedWhileItRuns(t *testing.T) {
	e := rcNew(t, "sh")
	fifo := e.abs("go-on.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	watcher := e.service()
	twStart(t, watcher)
	twReady(t, watcher, e.root)
	cursor := twCursor(t, e.s)
	_, settled := watcher.watchFences()
	fence := fmt.Sprintf("%s%d.tmp", twFence, twFenceSeq.Add(1))
	r := rcRun(t, e.s, rcCaller("agent#run2"), &editor.RunRequest{Background: true, Argv: []string{"sh", "-c",
		"echo x > during.txt; ln -s fence " + fence + "; read line < go-on.fifo; echo after > after.txt"}})
	// The fence the command wrote after its file is decided...
	deadline := time.Now().Add(twPatience)
	for {
		if _, now := watcher.watchFences(); now > settled {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the watcher did not settle the command's fence")
		}
		time.Sleep(5 * time.Millisecond)
	}
	// ...while the command waits; let it end.
	f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("go\n")
	f.Close()
	for {
		st, err := e.s.RunStatus(context.Background(), &editor.RunStatusRequest{Job: r.Job})
		if err != nil {
			t.Fatal(err)
		}
		if st.Jobs[0].State != "running" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the job did not end")
		}
		time.Sleep(5 * time.Millisecond)
	}
	evs := twWait(t, watcher, cursor, "created during.txt", "created after.txt")
	twExactly(t, evs, "created during.txt editor::run", "created after.txt editor::run")
}
