package editor

import (
	"context"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/editord/editord/shell"
	"github.com/editord/editord/shell/sandbox"
	"github.com/editord/editord/workspace"
)

// The test binary is also the sandbox's init (shell/sandbox re-executes
// the running binary).
func TestMain(m *testing.M) {
	sandbox.Init()
	fakeServerMain() // or a planted language server (intel_box_test.go)
	os.Exit(m.Run())
}

// rcNew is a workspace with editor::run on, allowing the programs named.
func rcNew(t *testing.T, programs ...string) *tcEnv {
	t.Helper()
	rcNeedSandbox(t)
	return tcNew(t, func(c *Config) {
		c.Run.Enabled = true
		c.Run.Programs = programs
		c.Run.Path = "/usr/bin:/bin"
	})
}

// rcNeedSandbox skips when commands cannot be confined here, unless the
// environment says the sandbox tests must run (.ci/run sets
// EDITORD_SANDBOX_TESTS=1).
func rcNeedSandbox(t testing.TB) {
	t.Helper()
	if err := sandbox.Available(); err != nil {
		if os.Getenv("EDITORD_SANDBOX_TESTS") == "1" {
			t.Fatalf("EDITORD_SANDBOX_TESTS=1 but %v", err)
		}
		t.Skipf("%v", err)
	}
}

func rcRun(t *testing.T, s *Service, ctx context.Context, req *RunRequest) *RunResponse {
	t.Helper()
	resp, err := s.Run(ctx, req)
	if err != nil {
		t.Fatalf("run %v: %v", req.Argv, err)
	}
	return resp
}

func rcCaller(by string) context.Context {
	return WithCaller(context.Background(), NewCaller(by))
}

func TestRunIsOffByDefault(t *testing.T) {
	e := tcNew(t)
	_, err := e.s.Run(context.Background(), &RunRequest{Argv: []string{"true"}})
	tcWantCode(t, err, shell.CodeNotAllowed)
	if !strings.Contains(err.Error(), "[run] enabled = true") {
		t.Fatalf("the refusal does not say how to turn it on: %v", err)
	}
}

func TestRunRefusals(t *testing.T) {
	e := rcNew(t, "sh", "echo")
	e.write(".env", "TOKEN=1\n")
	e.write("a.txt", "a\n")
	ctx := context.Background()
	for _, c := range []struct {
		name string
		req  RunRequest
		code shell.Code
	}{
		{"program not listed", RunRequest{Argv: []string{"cat", "a.txt"}}, shell.CodeNotAllowed},
		{"shell line not allowed", RunRequest{Command: "echo hi"}, shell.CodeNotAllowed},
		{"both", RunRequest{Argv: []string{"echo"}, Command: "echo"}, shell.CodeInvalidArgument},
		{"empty", RunRequest{}, shell.CodeInvalidArgument},
		{"PATH", RunRequest{Argv: []string{"echo"}, Env: map[string]string{"PATH": "/tmp"}}, shell.CodeNotAllowed},
		{"LD_PRELOAD", RunRequest{Argv: []string{"echo"}, Env: map[string]string{"LD_PRELOAD": "/x.so"}}, shell.CodeNotAllowed},
		{"GIT_DIR", RunRequest{Argv: []string{"echo"}, Env: map[string]string{"GIT_DIR": "/x"}}, shell.CodeNotAllowed},
		{"bad name", RunRequest{Argv: []string{"echo"}, Env: map[string]string{"A=B": "x"}}, shell.CodeInvalidArgument},
		{"cwd outside", RunRequest{Argv: []string{"echo"}, Cwd: e.canary}, shell.CodeOutsideJail},
		{"cwd a file", RunRequest{Argv: []string{"echo"}, Cwd: "a.txt"}, shell.CodeNotADirectory},
		{"cwd missing", RunRequest{Argv: []string{"echo"}, Cwd: "nope"}, shell.CodeNotFound},
		{"program missing", RunRequest{Argv: []string{"sh-not-there"}}, shell.CodeNotAllowed},
	} {
		_, err := e.s.Run(ctx, &c.req)
		if tcCode(err) != c.code {
			t.Errorf("%s: want %s, got %v", c.name, c.code, err)
		}
	}
	// An allowed variable goes through.
	r := rcRun(t, e.s, ctx, &RunRequest{Argv: []string{"sh", "-c", "echo $GREETING"}, Env: map[string]string{"GREETING": "hi"}})
	if r.Stdout != "hi\n" {
		t.Fatalf("env: %q", r.Stdout)
	}
}

func TestRunJournalsTheCallersWrites(t *testing.T) {
	e := rcNew(t, "sh")
	e.write("a.txt", "one\ntwo\n")
	e.write("gone.txt", "bye\n")
	e.write("sub/keep.txt", "keep\n")
	e.write(".env", "TOKEN=secret\n")
	e.open("a.txt") // its content before is known: the event has a patch
	ctx := rcCaller("agent#1234")
	r := rcRun(t, e.s, ctx, &RunRequest{Argv: []string{"sh", "-c",
		"echo out; echo err >&2; printf 'three\\n' >> a.txt; echo new > made.txt; rm gone.txt; cat .env; exit 4"}})
	if r.State != "exited" || r.ExitCode == nil || *r.ExitCode != 4 {
		t.Fatalf("state %s exit %v", r.State, r.ExitCode)
	}
	if r.Stdout != "out\n" || !strings.HasPrefix(r.Stderr, "err\n") || !strings.Contains(r.Stderr, "Permission denied") {
		t.Fatalf("stdout %q stderr %q", r.Stdout, r.Stderr)
	}
	if r.Root != e.root || r.Cwd != "" || r.Job == "" {
		t.Fatalf("root %q cwd %q job %q", r.Root, r.Cwd, r.Job)
	}
	c := r.Changed
	if c == nil || c.Created != 1 || c.Modified != 1 || c.Deleted != 1 || len(c.Files) != 3 {
		t.Fatalf("changed %+v", c)
	}
	want := []RunChanged{{"a.txt", "modified", 1, 0}, {"gone.txt", "deleted", 0, 0}, {"made.txt", "created", 1, 0}}
	for i, f := range c.Files {
		if f != want[i] {
			t.Errorf("file %d: %+v, want %+v", i, f, want[i])
		}
	}
	// Journaled as the caller's writes, with cause editor::run.
	ch, err := e.s.Changes(context.Background(), &ChangesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]workspace.Event{}
	for _, ev := range ch.Changes {
		if ev.Cause == "editor::run" {
			got[ev.Path] = ev
		}
	}
	if len(got) != 3 {
		t.Fatalf("events %+v", ch.Changes)
	}
	for p, ev := range got {
		if ev.By != "agent#1234" {
			t.Errorf("%s by %q", p, ev.By)
		}
	}
	if ev := got["a.txt"]; !strings.Contains(ev.Patch, "+three") || ev.Version == nil || *ev.Version != Version([]byte("one\ntwo\nthree\n")) {
		t.Errorf("a.txt event %+v", ev)
	}
	if ev := got["made.txt"]; !strings.Contains(ev.Patch, "+new") {
		t.Errorf("made.txt event %+v", ev)
	}
	if e.read(".env") != "TOKEN=secret\n" || e.read("sub/keep.txt") != "keep\n" {
		t.Fatal("a file the command did not write changed")
	}
	e.checkCanary()
	// The job is recorded for every process, its output pageable.
	st, err := e.service().RunStatus(context.Background(), &RunStatusRequest{Job: r.Job})
	if err != nil || len(st.Jobs) != 1 || st.Jobs[0].State != "exited" || st.Jobs[0].By != "agent#1234" || st.Jobs[0].StdoutBytes != 4 {
		t.Fatalf("status %+v %v", st, err)
	}
	out, err := e.s.RunOutput(context.Background(), &RunOutputRequest{Job: r.Job, Stream: "stderr", Offset: tcPtr[int64](0)})
	if err != nil || !strings.HasPrefix(out.Content, "err\n") || !out.EOF || out.NextOffset != out.Total {
		t.Fatalf("output %+v %v", out, err)
	}
}

func TestRunCannotEscapeTheJail(t *testing.T) {
	e := rcNew(t, "sh")
	e.write(".git/HEAD", "ref: refs/heads/main\n")
	e.mkdir(".git/hooks")
	e.write("secrets/key.txt", "k\n")
	e.symlink(e.canary, "out")
	r := rcRun(t, e.s, context.Background(), &RunRequest{Argv: []string{"sh", "-c", strings.Join([]string{
		"echo x > " + e.canary + "/planted",
		"echo x > ../canary/planted2",
		"echo x > out/planted3",
		"echo x >> " + e.canary + "/secret.txt",
		"echo x > .git/hooks/pre-commit",
		"cat secrets/key.txt",
		"cat " + e.state + "/workspace.json",
		"echo done",
	}, "; ")}})
	if r.ExitCode == nil || *r.ExitCode != 0 || r.Stdout != "done\n" {
		t.Fatalf("%+v", r)
	}
	if n := strings.Count(r.Stderr, "\n"); n != 7 {
		t.Fatalf("want 7 refusals, got:\n%s", r.Stderr)
	}
	e.checkCanary()
	if e.exists(".git/hooks/pre-commit") {
		t.Fatal("a hook was planted")
	}
}

func TestRunBackgroundJob(t *testing.T) {
	e := rcNew(t, "sh")
	ctx := rcCaller("agent#bg01")
	// bg.txt before "started": the kill below follows the output, and a
	// kill between the two left nothing written (a CI run under load).
	r := rcRun(t, e.s, ctx, &RunRequest{Background: true, Argv: []string{"sh", "-c",
		"echo made > bg.txt; echo started; exec sleep 600"}})
	if r.State != "running" || r.ExitCode != nil || r.Changed != nil {
		t.Fatalf("%+v", r)
	}
	// Follow its output from another process, waiting for it.
	other := e.service()
	out, err := other.RunOutput(context.Background(), &RunOutputRequest{Job: r.Job, Offset: tcPtr[int64](0), WaitMS: 20_000})
	if err != nil || out.Content != "started\n" || out.State != "running" || out.EOF {
		t.Fatalf("output %+v %v", out, err)
	}
	st, err := other.RunStatus(context.Background(), &RunStatusRequest{})
	if err != nil || len(st.Jobs) != 1 || st.Jobs[0].State != "running" || !st.Jobs[0].Background {
		t.Fatalf("status %+v %v", st, err)
	}
	// Killed from the other process; the owner records the end and
	// journals what it wrote.
	k, err := other.RunKill(context.Background(), &RunKillRequest{Job: r.Job})
	if err != nil || !k.Killed || k.State != "killed" {
		t.Fatalf("kill %+v %v", k, err)
	}
	st, err = e.s.RunStatus(context.Background(), &RunStatusRequest{Job: r.Job})
	if err != nil || st.Jobs[0].State != "killed" || st.Jobs[0].Changed == nil || st.Jobs[0].Changed.Created != 1 {
		t.Fatalf("status after kill %+v %v", st.Jobs, err)
	}
	k, err = e.s.RunKill(context.Background(), &RunKillRequest{Job: r.Job})
	if err != nil || k.Killed || k.State != "killed" {
		t.Fatalf("second kill %+v %v", k, err)
	}
}

func TestRunBackgroundEndsWithItsCaller(t *testing.T) {
	e := rcNew(t, "sh")
	caller := NewCaller("agent#gone")
	r := rcRun(t, e.s, WithCaller(context.Background(), caller), &RunRequest{Background: true, Argv: []string{"sh", "-c", "exec sleep 600"}})
	caller.End()
	deadline := time.Now().Add(20 * time.Second)
	for {
		st, err := e.s.RunStatus(context.Background(), &RunStatusRequest{Job: r.Job})
		if err != nil {
			t.Fatal(err)
		}
		if st.Jobs[0].State == "killed" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the job outlived its caller: %+v", st.Jobs[0])
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestRunTimeout(t *testing.T) {
	e := rcNew(t, "sh")
	r := rcRun(t, e.s, context.Background(), &RunRequest{TimeoutSeconds: 1, Argv: []string{"sh", "-c", "echo before; while :; do :; done"}})
	if r.State != "timeout" || r.ExitCode != nil || r.Stdout != "before\n" {
		t.Fatalf("%+v", r)
	}
}

// A command printing 100 MB: the reply holds the end, the job's files the
// newest run.max_output_bytes, and editord's memory does not grow with it.
func TestRunHundredMegabytes(t *testing.T) {
	rcNeedSandbox(t)
	e := tcNew(t, func(c *Config) {
		c.Run.Enabled, c.Run.Programs, c.Run.Path = true, []string{"head"}, "/usr/bin:/bin"
		c.Run.MaxOutputBytes = 1 << 20
	})
	var base runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&base)
	stop := make(chan struct{})
	peak := make(chan uint64)
	go func() {
		var top uint64
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			top = max(top, m.HeapInuse)
			select {
			case <-stop:
				peak <- top
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()
	const n = 100_000_000
	r := rcRun(t, e.s, context.Background(), &RunRequest{Argv: []string{"head", "-c", "100000000", "/dev/zero"}})
	close(stop)
	grew := int64(<-peak) - int64(base.HeapInuse)
	t.Logf("heap in use grew by at most %.1f MB while 100 MB went through", float64(grew)/(1<<20))
	if grew > 16<<20 {
		t.Errorf("the heap grew by %d bytes while the command printed %d", grew, n)
	}
	if r.StdoutBytes != n || len(r.Stdout) != runTailDefault || r.ExitCode == nil || *r.ExitCode != 0 {
		t.Fatalf("stdout_bytes %d, %d bytes in the reply, exit %v", r.StdoutBytes, len(r.Stdout), r.ExitCode)
	}
	out, err := e.s.RunOutput(context.Background(), &RunOutputRequest{Job: r.Job})
	if err != nil || out.Total != n || out.NextOffset != n || len(out.Content) != runOutputDefault || out.First < n-(1<<20) || !out.EOF {
		t.Fatalf("output %+v %v", out, err)
	}
	if _, err := e.s.RunOutput(context.Background(), &RunOutputRequest{Job: r.Job, Offset: tcPtr[int64](0), Limit: 10}); err != nil {
		t.Fatal(err)
	}
	var kept int64
	ents, _ := os.ReadDir(e.s.store.JobDir(r.Job))
	for _, en := range ents {
		if strings.HasPrefix(en.Name(), "stdout.") {
			fi, _ := en.Info()
			kept += fi.Size()
		}
	}
	if kept > 1<<20 || kept < 1<<19 {
		t.Fatalf("%d bytes of stdout kept on disk, want between 512 KiB and 1 MiB", kept)
	}
}

// git works inside the sandbox (go build's VCS stamping runs it) on a copy
// of the repository's config without its secrets; the real one is neither
// readable nor writable.
func TestRunGitWithoutTheConfigsSecrets(t *testing.T) {
	git := tcGit(t)
	e := rcNew(t, "git", "cat", "sh")
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"remote", "add", "origin", "https://x-access-token:ghp_SECRET@github.com/o/r.git"},
		{"config", "http.extraheader", "AUTHORIZATION: bearer SECRET2"}} {
		if out, err := exec.Command(git, append([]string{"-C", e.root}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	e.write("a.txt", "a\n")
	ctx := context.Background()
	r := rcRun(t, e.s, ctx, &RunRequest{Argv: []string{"git", "status", "--short"}})
	if r.ExitCode == nil || *r.ExitCode != 0 || r.Stdout != "?? a.txt\n" {
		t.Fatalf("git status: %+v", r)
	}
	r = rcRun(t, e.s, ctx, &RunRequest{Argv: []string{"cat", ".git/config"}})
	if strings.Contains(r.Stdout, "SECRET") || !strings.Contains(r.Stdout, "url = https://github.com/o/r.git") {
		t.Fatalf("the config the command reads:\n%s", r.Stdout)
	}
	r = rcRun(t, e.s, ctx, &RunRequest{Argv: []string{"sh", "-c", "echo '[core] hooksPath = /tmp' >> .git/config"}})
	if r.ExitCode == nil || *r.ExitCode == 0 {
		t.Fatalf("the config was written: %+v", r)
	}
	if data, _ := os.ReadFile(e.abs(".git/config")); !strings.Contains(string(data), "ghp_SECRET") || strings.Contains(string(data), "hooksPath") {
		t.Fatalf("the real config changed:\n%s", data)
	}
}

// Closing the service stops its jobs and records how they ended.
func TestRunStoppedWhenTheServiceCloses(t *testing.T) {
	e := rcNew(t, "sh")
	s, err := New(e.cfg, Options{Root: e.root, StateDir: e.state})
	if err != nil {
		t.Fatal(err)
	}
	r := rcRun(t, s, rcCaller("agent#close"), &RunRequest{Background: true, Argv: []string{"sh", "-c", "exec sleep 600"}})
	s.Close()
	st, err := e.s.RunStatus(context.Background(), &RunStatusRequest{Job: r.Job})
	if err != nil || st.Jobs[0].State != "killed" {
		t.Fatalf("%+v %v", st, err)
	}
}

func TestRunKillInProcess(t *testing.T) {
	e := rcNew(t, "sh")
	r := rcRun(t, e.s, rcCaller("agent#kill"), &RunRequest{Background: true, Argv: []string{"sh", "-c", "exec sleep 600"}})
	k, err := e.s.RunKill(context.Background(), &RunKillRequest{Job: r.Job})
	if err != nil || !k.Killed || k.State != "killed" {
		t.Fatalf("%+v %v", k, err)
	}
}
