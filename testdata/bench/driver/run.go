package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// editor::run (issue 25): the sandbox's cost on a real command, and a
// command that prints 100 MB.
//
//   - go test -count=1 ./... of the sample (make run's copy: a module with a
//     test) through editor_run on a warm server, against the same command
//     run directly with the environment editor::run gives it (read with
//     env through editor_run: its home, so the same warm build cache, its
//     PATH, ...; a temp folder of the driver's), interleaved. Goal ≤ 1.1×.
//     A note adds the command run with the driver's own environment (the
//     user's build cache and go env file), which is another build cache
//     and another go configuration, not the sandbox's cost.
//   - true through editor_run against true directly: what a command pays
//     for editord and its box whatever it does (the job's record and
//     output files, the before and after looks at the root, the sandbox).
//   - head -c 100000000 /dev/zero through editor_run, against the same to
//     a pipe read and dropped: the time, and editord's memory before and at
//     its peak (VmHWM), with the reply's size.

type runReply struct {
	Job         string `json:"job"`
	State       string `json:"state"`
	ExitCode    *int   `json:"exit_code"`
	Stdout      string `json:"stdout"`
	StdoutBytes int64  `json:"stdout_bytes"`
	DurationMS  int64  `json:"duration_ms"`
}

func benchRun(r *report) {
	const goal = "≤ 1.1×"
	op := "go test -count=1 ./... of the sample through editor::run (warm server, warm build cache)"
	ref := "go test directly, same environment"
	if !r.served["editor::run"] {
		r.na(op, ref, goal, "function not served")
		return
	}
	if _, err := exec.LookPath("go"); err != nil {
		r.na(op, ref, goal, "no go on PATH")
		return
	}
	ws := filepath.Join(tmpBase, "run-sample")
	if res := run("", "bash", "testdata/sample-repo.sh", ws); res.err != nil {
		r.na(op, ref, goal, "sample-repo.sh: "+res.err.Error())
		return
	}
	cfg := filepath.Join(tmpBase, "run.toml")
	check(os.WriteFile(cfg, []byte("[run]\nenabled = true\nprograms = [\"go\", \"head\", \"env\", \"true\"]\n"), 0o644))
	srv := startServerAt(ws, "", "--config", cfg)
	defer srv.close()
	if !srv.has("editor::run") {
		r.na(op, ref, goal, "editor_run not listed")
		return
	}
	goTest := []string{"go", "test", "-count=1", "./..."}
	call := func(argv []string) (runReply, time.Duration) {
		raw, d := srv.mustCall("editor::run", map[string]any{"argv": argv, "timeout_seconds": 600})
		var rep runReply
		check(json.Unmarshal(raw, &rep))
		if rep.State != "exited" || rep.ExitCode == nil || *rep.ExitCode != 0 {
			panic(fmt.Sprintf("editor_run %v: %s", argv, raw))
		}
		return rep, d
	}
	// The command's environment, for the direct runs; its TMPDIR (the
	// job's own, removed at its end) becomes one of ours.
	envRep, _ := call([]string{"env"})
	tmp := filepath.Join(tmpBase, "run-tmp")
	check(os.MkdirAll(tmp, 0o755))
	var boxEnv []string
	for _, kv := range strings.Split(strings.TrimSpace(envRep.Stdout), "\n") {
		if strings.HasPrefix(kv, "TMPDIR=") {
			kv = "TMPDIR=" + tmp
		}
		boxEnv = append(boxEnv, kv)
	}
	direct := func(env []string, argv []string) (time.Duration, time.Duration) {
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Dir, cmd.Env = ws, env
		t0 := time.Now()
		if out, err := cmd.CombinedOutput(); err != nil {
			panic(fmt.Sprintf("%v: %v: %s", argv, err, out))
		}
		return time.Since(t0), cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	// Warm both build caches (the sandbox's first go test compiles the
	// standard library's test dependencies: tens of seconds, once).
	t0 := time.Now()
	call(goTest)
	logf("  first sandboxed go test (cold build cache of its own): %s", time.Since(t0).Round(time.Millisecond))
	direct(boxEnv, goTest)
	direct(os.Environ(), goTest)
	// CPU times are summed over the runs (editord's are counted in 10 ms
	// ticks: one run's would be too coarse) and shown per run.
	var ed, same, user durs
	var edC, sameC, userC time.Duration
	runs := *runsF * 2
	for range runs {
		var d time.Duration
		edC += treeCPU(srv.pid(), func() { _, d = call(goTest) })
		ed = append(ed, d)
		d, c := direct(boxEnv, goTest)
		same, sameC = append(same, d), sameC+c
		d, c = direct(os.Environ(), goTest)
		user, userC = append(user, d), userC+c
	}
	perRun := func(d time.Duration) time.Duration { return d / time.Duration(runs) }
	ratioS, x := ratio(ed.median(), same.median())
	r.add(op, fmtDur(ed.median()), ref+" "+fmtDur(same.median()), ratioS, goal, verdict(x, 1.1))
	rs, _ := ratio(edC, sameC)
	ru, _ := ratio(ed.median(), user.median())
	r.note("go test through editor::run: CPU time %s a run (editord, its sandbox and the command; the mean of %d), directly %s (ratio %s); wall p90 %s against %s; "+
		"directly with the driver's own environment (another build cache and go env file): %s wall (editor::run's ratio to it %s), %s CPU",
		fmtDur(perRun(edC)), runs, fmtDur(perRun(sameC)), rs, fmtDur(ed.q(0.9)), fmtDur(same.q(0.9)),
		fmtDur(user.median()), ru, fmtDur(perRun(userC)))

	// What any command pays.
	var edT, refT durs
	var edTC, refTC time.Duration
	trueArgv := []string{"true"}
	runs = *runsF * 4
	for range runs {
		var d time.Duration
		edTC += treeCPU(srv.pid(), func() { _, d = call(trueArgv) })
		edT = append(edT, d)
		d, c := direct(boxEnv, trueArgv)
		refT, refTC = append(refT, d), refTC+c
	}
	ratioS, _ = ratio(edT.median(), refT.median())
	r.add("true through editor::run (what every command pays: the job's record, the looks at the root, the box)", fmtDur(edT.median()),
		"true directly "+fmtDur(refT.median()), ratioS, "", "")
	r.note("true through editor::run: CPU time %s a run (editord and its sandbox; the mean of %d runs, counted in 10 ms ticks), directly %s; wall p90 %s",
		fmtDur(edTC/time.Duration(runs)), runs, fmtDur(refTC/time.Duration(runs)), fmtDur(edT.q(0.9)))

	// 100 MB of output.
	const n = 100_000_000
	head := []string{"head", "-c", fmt.Sprint(n), "/dev/zero"}
	rss0, hwm0 := procStatus(srv.pid())
	var edBig, refBig durs
	var reply runReply
	var replyBytes int
	for range *runsF {
		raw, d := srv.mustCall("editor::run", map[string]any{"argv": head})
		check(json.Unmarshal(raw, &reply))
		replyBytes = len(raw)
		edBig = append(edBig, d)
		refBig = append(refBig, discardRun(ws, head))
	}
	rss1, hwm1 := procStatus(srv.pid())
	ratioS, _ = ratio(edBig.median(), refBig.median())
	r.add("a command printing 100 MB (head -c 100000000 /dev/zero) through editor::run", fmtDur(edBig.median()),
		"the same into a pipe, dropped "+fmtDur(refBig.median()), ratioS, "bounded memory", "")
	r.memf("editord while commands print 100 MB each (%d runs): VmRSS %.1f MB before, %.1f MB after; VmHWM %.1f MB before, %.1f MB after; "+
		"the reply %d bytes of JSON (stdout_bytes %d, the last %d bytes in it), the rest pageable from the job's files (at most run.max_output_bytes on disk)",
		*runsF, rss0, rss1, hwm0, hwm1, replyBytes, reply.StdoutBytes, len(reply.Stdout))
}

// discardRun runs argv in dir with its output read and dropped, and
// returns the wall time.
func discardRun(dir string, argv []string) time.Duration {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	out, err := cmd.StdoutPipe()
	check(err)
	t0 := time.Now()
	check(cmd.Start())
	io.Copy(io.Discard, out)
	check(cmd.Wait())
	return time.Since(t0)
}

// treeCPU is the CPU time (10 ms ticks) a process and the children it
// reaped (a sandbox's init, and through it the command's processes) used
// during call.
func treeCPU(pid int, call func()) time.Duration {
	ticks := func() int64 {
		data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			return 0
		}
		f := strings.Fields(string(data[bytes.LastIndexByte(data, ')')+1:]))
		if len(f) < 15 {
			return 0
		}
		var n int64
		for _, i := range []int{11, 12, 13, 14} { // utime stime cutime cstime
			v, _ := strconv.ParseInt(f[i], 10, 64)
			n += v
		}
		return n
	}
	before := ticks()
	call()
	return time.Duration(ticks()-before) * 10 * time.Millisecond
}
