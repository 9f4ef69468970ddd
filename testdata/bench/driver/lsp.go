package main

// The lsp group: code intelligence on a large real Go workspace
// (kubernetes with its staging modules, lsp-corpus.sh), through a warm
// editord server running the pinned gopls:
//
//   - cold start: a fresh server's first workspace symbol query (gopls
//     started, the workspace loaded, the answer);
//   - editor::symbols {query} warm (goal ≤ 100 ms), new queries and the
//     same one again (remembered) in rows of their own;
//   - editor::references of a name used in hundreds of files, warm
//     (goal ≤ 500 ms);
//   - beside those two, gopls's own time to answer them (its -rpc.trace
//     log): what editord's round trip adds is the difference;
//   - editor::rename of an exported name used across packages: the dry
//     run warm, and the apply (the dry run's plan, every file checked and
//     written) — goal ≤ 2 s — with the files it writes compared byte
//     for byte with `gopls rename -w` run on a copy of the workspace, whose
//     time (a cold gopls) is the reference column.
//
// The workspace is put back (git checkout) after the rename.

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

var (
	lspCorpus = flag.String("lsp-corpus", "", "the lsp group's workspace (lsp-corpus.sh)")
	goplsBin  = flag.String("gopls", "", "the gopls the lsp group runs")
)

// lspTarget is a name in the workspace: its file and position.
type lspTarget struct {
	file      string // root-relative
	decl      string // the declaration's line starts with this
	name      string
	line, col int // found by locate
}

func (t *lspTarget) locate(root string) {
	data, err := os.ReadFile(filepath.Join(root, t.file))
	check(err)
	for i, l := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(l, t.decl) {
			t.line, t.col = i+1, strings.Index(l, t.name)+1
			return
		}
	}
	panic(fmt.Sprintf("%s: no line starting with %q", t.file, t.decl))
}

func benchLSP(r *report) {
	if *lspCorpus == "" || *goplsBin == "" {
		for _, op := range []string{"workspace symbol (warm)", "references (warm)", "rename (warm)"} {
			r.na(op, "", "", "no -lsp-corpus/-gopls: run through make bench")
		}
		return
	}
	root, err := filepath.EvalSymlinks(*lspCorpus)
	check(err)
	if !r.served["editor::rename"] {
		servedCheck := startServerAt(root, "")
		has := servedCheck.has("editor::rename")
		servedCheck.close()
		if !has {
			r.na("code intelligence", "", "", "function not served")
			return
		}
	}
	modcache := filepath.Join(filepath.Dir(filepath.Dir(root)), "modcache")
	cfg := filepath.Join(tmpBase, "lsp.toml")
	// BENCH_LSP_SANDBOX=0 runs gopls unconfined, to measure what the
	// sandbox costs.
	sandboxed := os.Getenv("BENCH_LSP_SANDBOX") != "0"
	// gopls traces its messages (-rpc.trace) with the time it took to
	// answer each request: its own time, beside editord's round trip. A
	// sandboxed gopls writes only its home in the state dir.
	state := newStateDir()
	trace := filepath.Join(tmpBase, "gopls-rpc.log")
	if sandboxed {
		trace = filepath.Join(state, "lsp", "go", "home", "gopls-rpc.log")
	}
	check(os.WriteFile(cfg, []byte(fmt.Sprintf("[lsp.go]\ncommand = [%q, \"-rpc.trace\", \"-logfile\", %q]\nidle_seconds = 3600\nsandbox = %v\n\n[lsp.go.env]\nGOMODCACHE = %q\n",
		*goplsBin, trace, sandboxed, modcache)), 0o644))
	files := strings.Count(output("git", "-C", root, "ls-files"), "\n")
	r.note("lsp: %s, %d tracked files; gopls %s; module cache %s; sandbox %v", root, files, firstLine(output(*goplsBin, "version")), modcache, sandboxed)

	informers := &lspTarget{file: "staging/src/k8s.io/client-go/informers/factory.go", decl: "func NewSharedInformerFactory(", name: "NewSharedInformerFactory"}
	hash := &lspTarget{file: "pkg/util/hash/hash.go", decl: "func DeepHashObject(", name: "DeepHashObject"}
	informers.locate(root)
	hash.locate(root)

	s := startServerAt(root, state, "--config", cfg)
	defer s.close()
	sym := map[string]any{"query": "NewSharedInformerFactory", "language": "go"}
	raw, cold := s.mustCall("editor::symbols", sym)
	var sr struct {
		Total int `json:"total"`
	}
	json.Unmarshal(raw, &sr)
	r.add(fmt.Sprintf("workspace symbol cold start: a fresh server's first query (editord's Go index built from the %d files; %d matches)", files, sr.Total),
		fmtDur(cold), "", "", "report", "")
	refArgs := map[string]any{"path": informers.file, "line": informers.line, "column": informers.col}
	raw, refCold := s.mustCall("editor::references", refArgs)
	var rr struct {
		Total int `json:"total"`
	}
	json.Unmarshal(raw, &rr)
	r.add("code intelligence cold start: a fresh server's first editor::references (gopls started, the workspace loaded)", fmtDur(refCold), "", "", "report", "")

	// Warm means the server done with its start-up work (after the load,
	// gopls checks the whole workspace): until its CPU time stops growing.
	settleProc(goplsPid(s.pid()), 10*time.Minute)

	gp := goplsPid(s.pid())
	// A new query each time: gopls searches the workspace's symbols (its
	// CPU is the cost; it spreads it over the cores).
	var symT durs
	cpu := cpuMeter(gp, s.pid())
	var asked []string
	for i := range *runsF * 2 {
		asked = append(asked, symbolQueries[i%len(symbolQueries)])
		q := map[string]any{"query": asked[i], "language": "go"}
		_, d := s.mustCall("editor::symbols", q)
		symT = append(symT, d)
	}
	symCPU := cpu(len(symT))
	// Its row is written at the end, beside gopls asked the same queries
	// directly (lsp_gopls.go): editord no longer asks gopls.

	// A query after each of a few agent's edits of a Go file: the index
	// takes the change (the file parsed again, its shard re-prepared).
	var editT durs
	editFile := hash.file
	for i := range *runsF {
		opened, _ := s.mustCall("editor::open", map[string]any{"path": editFile, "limit": 1})
		var o struct {
			Version string `json:"version"`
		}
		check(json.Unmarshal(opened, &o))
		s.mustCall("editor::edit", map[string]any{"path": editFile, "expected_version": o.Version,
			"edits": []any{map[string]any{"old_text": "func DeepHashObject(", "new_text": fmt.Sprintf("func DeepHashObjectEdit%d() {}\n\nfunc DeepHashObject(", i)}}})
		_, d := s.mustCall("editor::symbols", map[string]any{"query": fmt.Sprintf("DeepHashObjectEdit%d", i), "language": "go"})
		editT = append(editT, d)
	}
	run(root, "git", "checkout", "-q", "--", editFile)
	r.add("editor::symbols {query} right after an edit of a Go file (the file parsed again; p50 / p90)", fmtDur(editT.q(0.5))+" / "+fmtDur(editT.q(0.9)), "", "", "≤ 100 ms", verdictAbs(editT.q(0.5), 100*time.Millisecond))

	var refT durs
	cpu = cpuMeter(gp, s.pid())
	before := len(goplsTimes(trace, "textDocument/references"))
	for range *runsF {
		_, d := s.mustCall("editor::references", refArgs)
		refT = append(refT, d)
	}
	own := goplsTimes(trace, "textDocument/references")[before:]
	r.add(fmt.Sprintf("editor::references of client-go's NewSharedInformerFactory, %d references, warm (first call %s; %s)", rr.Total, fmtDur(refCold), cpu(len(refT))),
		fmtDur(refT.median()), ownCol(own), ratioOf(refT, own), "≤ 500 ms", verdictAbs(refT.median(), 500*time.Millisecond))

	// The rename: dry runs, a copy for gopls rename, the apply, the
	// comparison, and the workspace put back.
	newName := "DeepHashObjectRenamed"
	renArgs := map[string]any{"path": hash.file, "line": hash.line, "column": hash.col, "new_name": newName}
	var dry struct {
		Files []struct {
			Path    string `json:"path"`
			Version string `json:"version"`
		} `json:"files"`
		Edits int `json:"edits"`
	}
	raw, dryCold := s.mustCall("editor::rename", renArgs)
	check(json.Unmarshal(raw, &dry))
	var dryT durs
	cpu = cpuMeter(gp, s.pid())
	for range *runsF {
		_, d := s.mustCall("editor::rename", renArgs)
		dryT = append(dryT, d)
	}
	dryCPU := cpu(len(dryT))
	copyDir := filepath.Join(tmpBase, "lsp-copy")
	if res := run(tmpBase, "cp", "-a", root, copyDir); res.err != nil {
		panic(res.err)
	}
	defer os.RemoveAll(copyDir)
	versions := map[string]any{}
	for _, f := range dry.Files {
		versions[f.Path] = f.Version
	}
	renArgs["versions"] = versions
	cpu = cpuMeter(gp, s.pid())
	raw, applyT := s.mustCall("editor::rename", renArgs)
	applyCPU := cpu(1)
	var applied struct {
		Applied bool   `json:"applied"`
		Reason  string `json:"reason"`
	}
	json.Unmarshal(raw, &applied)
	defer func() {
		run(root, "git", "checkout", "-q", "--", ".")
	}()
	if !applied.Applied {
		panic("rename not applied: " + applied.Reason)
	}

	// gopls rename -w on the copy, as a person would run it.
	data, err := os.ReadFile(filepath.Join(copyDir, hash.file))
	check(err)
	off := bytes.Index(data, []byte(hash.decl)) + strings.Index(hash.decl, hash.name)
	cmd := exec.Command(*goplsBin, "rename", "-w", fmt.Sprintf("%s:#%d", filepath.Join(copyDir, hash.file), off), newName)
	cmd.Dir = copyDir
	cmd.Env = append(os.Environ(), "GOMODCACHE="+modcache, "GOPROXY=off", "GOTOOLCHAIN=local", "GOFLAGS=-mod=readonly -buildvcs=false", "CGO_ENABLED=0", "GOPACKAGESDRIVER=off")
	t0 := time.Now()
	out, err := cmd.CombinedOutput()
	goplsT := time.Since(t0)
	if err != nil {
		panic(fmt.Sprintf("gopls rename: %v: %s", err, firstLine(string(out))))
	}
	ours := strings.Fields(output("git", "-C", root, "diff", "--name-only"))
	theirs := strings.Fields(output("git", "-C", copyDir, "diff", "--name-only"))
	same := strings.Join(ours, " ") == strings.Join(theirs, " ")
	for _, p := range ours {
		a, _ := os.ReadFile(filepath.Join(root, p))
		b, _ := os.ReadFile(filepath.Join(copyDir, p))
		same = same && bytes.Equal(a, b)
	}
	equal := "byte-equal to gopls rename -w"
	if !same {
		equal = fmt.Sprintf("DIFFERS from gopls rename -w (ours %v, theirs %v)", ours, theirs)
	}
	// More applies, renaming back and forth (the name's position stays):
	// a dry run, then its apply, each a real guarded write the server is
	// told of before the next.
	applyT2 := durs{applyT}
	var e2e durs
	names := []string{hash.name, newName}
	for i := 0; len(applyT2) < *runsF; i++ {
		args := map[string]any{"path": hash.file, "line": hash.line, "column": hash.col, "new_name": names[i%2]}
		raw, dt := s.mustCall("editor::rename", args)
		var plan struct {
			Files []struct{ Path, Version string } `json:"files"`
		}
		check(json.Unmarshal(raw, &plan))
		vs := map[string]any{}
		for _, f := range plan.Files {
			vs[f.Path] = f.Version
		}
		args["versions"] = vs
		raw, at := s.mustCall("editor::rename", args)
		var res struct {
			Applied bool   `json:"applied"`
			Reason  string `json:"reason"`
		}
		json.Unmarshal(raw, &res)
		if !res.Applied {
			panic("rename back and forth not applied: " + res.Reason)
		}
		applyT2 = append(applyT2, at)
		e2e = append(e2e, dt+at)
	}
	r.add(fmt.Sprintf("editor::rename of DeepHashObject (%d edits in %d files, across packages): dry run warm (first %s; %s)", dry.Edits, len(dry.Files), fmtDur(dryCold), dryCPU),
		fmtDur(dryT.median()), "", "", "—", "")
	r.add(fmt.Sprintf("editor::rename apply (the dry run's plan: %d files checked and written as one batch; first apply %s; %s), p50 / p90", len(dry.Files), applyCPU, equal),
		fmtDur(applyT2.q(0.5))+" / "+fmtDur(applyT2.q(0.9)), "gopls rename -w (a cold gopls): "+fmtDur(goplsT), "", "≤ 2 s, equal", verdictAbsOK(applyT2.median(), 2*time.Second, same))
	r.add("editor::rename dry run + apply, renaming back and forth (p50)", fmtDur(e2e.median()), "", "", "—", "")
	if pid := goplsPid(s.pid()); pid > 0 {
		rss, hwm := procStatus(pid)
		r.memf("gopls serving %s: RSS %.0f MB, peak %.0f MB", root, rss, hwm)
	}

	// editord started again on the same state dir: the first answer of a
	// server whose caches (gopls's and Go's, in the state dir when it runs
	// in the sandbox) are there from the first start.
	s.close()
	s.c = nil
	again := startServerAt(root, s.state, "--config", cfg)
	defer again.close()
	_, restart := again.mustCall("editor::symbols", sym)
	r.add("workspace symbol restart: editord started again on the same state dir, its first query (the index built again)", fmtDur(restart), "", "", "report", "")
	_, restartRefs := again.mustCall("editor::references", refArgs)
	r.add("code intelligence restart: its first editor::references (gopls started again, its caches kept in the state dir)", fmtDur(restartRefs), "", "", "report", "")
	// Its memory once settled, its caches warm: the first start's peak is
	// a cold cache's (every package type-checked), not the steady state.
	if pid := goplsPid(again.pid()); pid > 0 {
		settleProc(pid, 5*time.Minute)
		rss, hwm := procStatus(pid)
		r.memf("gopls after the restart, settled (its caches warm from the first start): RSS %.0f MB, peak %.0f MB", rss, hwm)
	}
	r.memf("editord serving %s, its Go index built: RSS %.0f MB", root, func() float64 { rss, _ := procStatus(again.pid()); return rss }())

	// gopls asked the same symbol queries directly, with the environment
	// editord gives it (its caches warm), once editord's is gone.
	again.close()
	again.c = nil
	home := filepath.Join(state, "lsp", "go", "home")
	if !sandboxed {
		home = os.Getenv("HOME")
	}
	load, direct := goplsDirectSymbols(root, goplsEnv(home, modcache), "NewSharedInformerFactory", asked)
	r.add("editor::symbols {query} warm, a new query each time (p50 / p90; "+symCPU+")", fmtDur(symT.q(0.5))+" / "+fmtDur(symT.q(0.9)),
		fmt.Sprintf("gopls asked directly (workspace/symbol, symbolScope workspace, loaded in %s), p50 / p90: %s / %s", fmtDur(load), fmtDur(direct.q(0.5)), fmtDur(direct.q(0.9))),
		ratioOf(symT, direct), "≤ 100 ms", verdictAbs(symT.q(0.5), 100*time.Millisecond))
}

// goplsTimes are the times gopls's rpc trace says it took to answer
// method's requests, in order (whole milliseconds: the trace's own unit).
func goplsTimes(trace, method string) durs {
	data, err := os.ReadFile(trace)
	if err != nil {
		return nil
	}
	re := regexp.MustCompile(`(?:Sending|Received) response '` + regexp.QuoteMeta(method) + ` - \(\d+\)' in (\d+)ms`)
	var out durs
	for _, m := range re.FindAllSubmatch(data, -1) {
		ms, _ := strconv.Atoi(string(m[1]))
		out = append(out, time.Duration(ms)*time.Millisecond)
	}
	return out
}

// ownCol is the reference column of a row whose calls gopls answered in
// own (its rpc trace): its p50 / p90.
func ownCol(own durs) string {
	if len(own) == 0 {
		return "gopls's own time: n/a (no rpc trace)"
	}
	return fmt.Sprintf("gopls's own time (its rpc trace, %d answers), p50 / p90: %s / %s", len(own), fmtDur(own.q(0.5)), fmtDur(own.q(0.9)))
}

// ratioOf is editord's p50 over gopls's own.
func ratioOf(ours, own durs) string {
	if len(own) == 0 {
		return ""
	}
	x, _ := ratio(ours.q(0.5), own.q(0.5))
	return x
}

// symbolQueries are names of kubernetes asked once each (none is a prefix
// of another, so no answer helps the next).
var symbolQueries = []string{"DeepHashObject", "ObjectMeta", "Reconcile", "podWorkers", "NewForConfig",
	"HandleCrash", "ListWatch", "ParseQuantity", "RESTMapper", "GetControllerOf"}

// settleProc waits until process pid's CPU time grows by less than a
// tenth of the wall time over 2 s, or at most max.
func settleProc(pid int, max time.Duration) {
	if pid <= 0 {
		return
	}
	deadline := time.Now().Add(max)
	for time.Now().Before(deadline) {
		a := cpuTicks(pid)
		time.Sleep(2 * time.Second)
		if cpuTicks(pid)-a < 20 { // ticks are 10 ms: 0.2 s of CPU in 2 s
			return
		}
	}
	logf("  note: gopls still busy after %s", max)
}

// cpuMeter starts counting the CPU time of gopls and editord; the func it
// returns says how much each took per call over n calls: on a loaded
// machine, wall time is mostly waiting for a core.
func cpuMeter(gopls, editord int) func(n int) string {
	g0, e0 := cpuTicks(gopls), cpuTicks(editord)
	return func(n int) string {
		g, e := cpuTicks(gopls)-g0, cpuTicks(editord)-e0
		return fmt.Sprintf("CPU per call: gopls %d ms, editord %d ms", g*10/int64(max(n, 1)), e*10/int64(max(n, 1)))
	}
}

// verdictAbs is ok when d is within goal.
func verdictAbs(d, goal time.Duration) string {
	if d <= goal {
		return "ok"
	}
	return "MISS"
}

func verdictAbsOK(d, goal time.Duration, ok bool) string {
	if ok && d <= goal {
		return "ok"
	}
	return "MISS"
}

// goplsPid is the pid of the gopls editord's process pid runs (its child,
// or its sandbox's init's), or 0.
func goplsPid(parent int) int {
	return descendant(parent, "gopls", 3)
}

// descendant is the pid of a process named comm below parent, at most
// depth generations down, or 0.
func descendant(parent int, comm string, depth int) int {
	if depth == 0 {
		return 0
	}
	entries, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", parent))
	for _, e := range entries {
		data, _ := os.ReadFile(e)
		for _, f := range strings.Fields(string(data)) {
			var pid int
			fmt.Sscan(f, &pid)
			if c, _ := os.ReadFile(fmt.Sprintf("/proc/%d/comm", pid)); strings.TrimSpace(string(c)) == comm {
				return pid
			}
			if p := descendant(pid, comm, depth-1); p > 0 {
				return p
			}
		}
	}
	return 0
}
