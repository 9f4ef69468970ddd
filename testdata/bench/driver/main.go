// Command driver runs editord side by side with the tools a person would
// otherwise reach for (ripgrep, fzf, git) on a large corpus, and prints one
// table of medians and ratios. It is run by testdata/bench/run.sh (`make
// bench`), which assembles the corpus; it is not product code, so it uses
// os and os/exec freely.
//
// Every function the binary does not serve yet is reported as
// "n/a (function not served)", so the harness can be rerun as functions land.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

var (
	corpus  = flag.String("corpus", "", "the corpus: a git repository")
	binPath = flag.String("bin", "bin/editord", "the editord binary")
	outPath = flag.String("out", ".bench/results.md", "where to write the results (markdown)")
	runsF   = flag.Int("runs", envInt("BENCH_RUNS", 5), "runs per slow measurement (at least 5)")
)

// The ignore rules editord applies (docs/contract.md §2, §6), spelled for rg.
// Files of any size are searched by both (issue 12).
var rgBase = []string{
	"--no-config", "--line-number", "--no-heading", "--hidden", "--color", "never",
	"-g", "!.git", "-g", "!node_modules", "-g", "!target", "-g", "!dist", "-g", "!build",
	"-g", "!.venv", "-g", "!__pycache__",
	"-g", "!.env", "-g", "!.env.*", "-g", "!*.pem", "-g", "!*.key", "-g", "!**/secrets/**",
}

func main() {
	flag.Parse()
	if *corpus == "" {
		fatalf("usage: driver -corpus DIR -bin BIN [-out FILE]")
	}
	if *runsF < 5 {
		*runsF = 5
	}
	abs, err := filepath.Abs(*corpus)
	check(err)
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		abs = r
	}
	*corpus = abs
	b, err := filepath.Abs(*binPath)
	check(err)
	*binPath = b

	tmp, err := os.MkdirTemp("", "editord-bench-")
	check(err)
	tmpBase = tmp
	defer os.RemoveAll(tmp)

	r := &report{}
	r.header()
	served := servedFunctions()
	r.served = served
	only := groupsWanted()

	ensureClean()
	start := time.Now()
	groups := []struct {
		name string
		run  func(*report)
	}{
		{"search", benchSearch},
		{"find", benchFind},
		{"git", benchGit},
		{"io", benchIO},
		{"memory", benchMemory},
		{"changes", benchChanges},
		{"scale", benchScale},
		{"history", benchHistory},
		{"agent", benchAgent},
		{"run", benchRun},
		{"lsp", benchLSP},
		{"turns", benchTurns},
	}
	for _, g := range groups {
		if only != nil && !only[g.name] {
			continue
		}
		t0 := time.Now()
		logf("== %s", g.name)
		func() {
			defer func() {
				if p := recover(); p != nil {
					r.note("group %s aborted: %v", g.name, p)
					logf("group %s aborted: %v", g.name, p)
				}
			}()
			g.run(r)
		}()
		ensureClean()
		logf("== %s done in %s", g.name, time.Since(t0).Round(time.Millisecond))
	}
	r.note("driver wall time: %s; load average at the end %s (other work on the machine skews absolute times; the interleaved ratios less so)",
		time.Since(start).Round(time.Second), loadAvg())
	out := r.render()
	fmt.Print(out)
	if *outPath != "" {
		os.MkdirAll(filepath.Dir(*outPath), 0o755)
		if err := os.WriteFile(*outPath, []byte(out), 0o644); err != nil {
			logf("writing %s: %v", *outPath, err)
		} else {
			logf("results written to %s", *outPath)
		}
	}
}

var tmpBase string

// ---------------------------------------------------------------------------
// Report

type row struct {
	op, ed, ref, ratio, goal, verdict string
}

type report struct {
	head   []string
	rows   []row
	mem    []string
	notes  []string
	served map[string]bool
}

func (r *report) add(op, ed, ref, ratio, goal, verdict string) {
	r.rows = append(r.rows, row{op, ed, ref, ratio, goal, verdict})
	logf("  %s | %s | %s | %s | %s %s", op, ed, ref, ratio, goal, verdict)
}

func (r *report) na(op, ref, goal, why string) {
	r.add(op, "n/a ("+why+")", ref, "", goal, "")
}

func (r *report) memf(format string, a ...any) {
	s := fmt.Sprintf(format, a...)
	r.mem = append(r.mem, s)
	logf("  mem: %s", s)
}

func (r *report) note(format string, a ...any) {
	s := fmt.Sprintf(format, a...)
	r.notes = append(r.notes, s)
	logf("  note: %s", s)
}

func (r *report) header() {
	host, _ := os.Hostname()
	r.head = append(r.head, fmt.Sprintf("date: %s, host %s", time.Now().Format(time.RFC3339), host))
	r.head = append(r.head, fmt.Sprintf("machine: %d cores (%s), %s memory, %s/%s; load average at start %s",
		runtime.NumCPU(), cpuModel(), memTotal(), runtime.GOOS, runtime.GOARCH, loadAvg()))
	files, mb := corpusSize()
	r.head = append(r.head, fmt.Sprintf("corpus: %s — %d tracked files, %.0f MB work tree", *corpus, files, mb))
	r.head = append(r.head, "editord: "+firstLine(output(*binPath, "version"))+" ("+*binPath+")")
	for _, t := range [][]string{{"rg", "--version"}, {"fzf", "--version"}, {"git", "--version"}} {
		if _, err := exec.LookPath(t[0]); err != nil {
			r.head = append(r.head, t[0]+": not installed")
			continue
		}
		r.head = append(r.head, t[0]+": "+firstLine(output(t[0], t[1])))
	}
}

func (r *report) render() string {
	var b strings.Builder
	b.WriteString("# editord benchmarks\n\n")
	for _, h := range r.head {
		fmt.Fprintf(&b, "- %s\n", h)
	}
	var na []string
	for _, id := range watched {
		if !r.served[id] {
			na = append(na, id)
		}
	}
	if len(na) > 0 {
		fmt.Fprintf(&b, "- not served by this binary (rows say n/a): %s\n", strings.Join(na, ", "))
	}
	fmt.Fprintf(&b, "- warm cache; times are medians of %d+ runs unless a row says p50/p99; ratio = editord / reference (lower is better)\n\n", *runsF)
	b.WriteString("| operation | editord | reference tool | ratio | goal |\n|---|---|---|---|---|\n")
	for _, x := range r.rows {
		goal := x.goal
		if x.verdict != "" {
			goal += " " + x.verdict
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", esc(x.op), esc(x.ed), esc(x.ref), x.ratio, esc(goal))
	}
	if len(r.mem) > 0 {
		b.WriteString("\n## Memory\n\n")
		for _, m := range r.mem {
			fmt.Fprintf(&b, "- %s\n", m)
		}
	}
	if len(r.notes) > 0 {
		b.WriteString("\n## Notes\n\n")
		for _, n := range r.notes {
			fmt.Fprintf(&b, "- %s\n", n)
		}
	}
	return b.String()
}

func esc(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

// ---------------------------------------------------------------------------
// Which functions exist

// watched are the functions this harness measures.
var watched = []string{
	"editor::search", "editor::find", "editor::git::status", "editor::git::hunks", "editor::git::log", "editor::git::blame",
	"editor::open", "editor::save", "editor::diff", "editor::workspace::get", "editor::changes",
	"editor::symbols", "editor::references", "editor::rename", "editor::history", "editor::revert",
}

func servedFunctions() map[string]bool {
	out := output(*binPath, "functions")
	m := map[string]bool{}
	for _, l := range strings.Split(out, "\n") {
		f := strings.Fields(l)
		if len(f) > 0 && strings.HasPrefix(f[0], "editor::") {
			m[f[0]] = true
		}
	}
	return m
}

func toolName(id string) string {
	s := strings.TrimPrefix(id, "editor::")
	s = strings.ReplaceAll(s, "::", "_")
	s = strings.ReplaceAll(s, "-", "_")
	return "editor_" + s
}

func groupsWanted() map[string]bool {
	v := os.Getenv("BENCH_ONLY")
	if v == "" {
		return nil
	}
	m := map[string]bool{}
	for _, g := range strings.Split(v, ",") {
		m[strings.TrimSpace(g)] = true
	}
	return m
}

// ---------------------------------------------------------------------------
// A warm stdio server, driven by mcp-go's client

type server struct {
	c      *client.Client
	cmd    *exec.Cmd
	tools  map[string]bool
	state  string
	notify func(mcp.JSONRPCNotification)
	mu     sync.Mutex
}

func newStateDir() string {
	d, err := os.MkdirTemp(tmpBase, "state-")
	check(err)
	return d
}

// startServer runs `editord serve --root CORPUS --state-dir STATE [extra...]`.
func startServer(state string, extra ...string) *server {
	return startServerAt(*corpus, state, extra...)
}

// startServerAt is startServer on another root.
func startServerAt(root, state string, extra ...string) *server {
	return startServerBin(*binPath, root, state, extra...)
}

// startServerBin is startServerAt with another binary.
func startServerBin(bin, root, state string, extra ...string) *server {
	if state == "" {
		state = newStateDir()
	}
	s := &server{state: state}
	args := append([]string{"serve", "--root", root, "--state-dir", state}, extra...)
	xdg := filepath.Join(tmpBase, "xdg")
	os.MkdirAll(filepath.Join(xdg, "config"), 0o755)
	env := []string{"XDG_CONFIG_HOME=" + filepath.Join(xdg, "config"), "XDG_STATE_HOME=" + filepath.Join(xdg, "state")}
	logFile, err := os.OpenFile(filepath.Join(tmpBase, "server-stderr.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	check(err)
	c, err := client.NewStdioMCPClientWithOptions(bin, env, args,
		transport.WithCommandFunc(func(ctx context.Context, command string, env []string, args []string) (*exec.Cmd, error) {
			cmd := exec.Command(command, args...)
			cmd.Env = append(os.Environ(), env...)
			s.cmd = cmd
			return cmd, nil
		}),
		transport.WithCommandStderrWriter(logFile),
	)
	check(err)
	s.c = c
	// Start is idempotent for the transport, and it is what wires the
	// client's notification handlers to it.
	check(c.Start(context.Background()))
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		s.mu.Lock()
		f := s.notify
		s.mu.Unlock()
		if f != nil {
			f(n)
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	_, err = c.Initialize(ctx, mcp.InitializeRequest{Params: mcp.InitializeParams{
		ProtocolVersion: mcp.ProtocolVersion20251125,
		ClientInfo:      mcp.Implementation{Name: "editord-bench", Version: "1"},
	}})
	check(err)
	lt, err := c.ListTools(ctx, mcp.ListToolsRequest{})
	check(err)
	s.tools = map[string]bool{}
	for _, t := range lt.Tools {
		s.tools[t.Name] = true
	}
	s.settle()
	return s
}

// settle waits until the server has finished its start-up work (the
// watcher's first walk of the tree and its inotify watches, seconds of CPU
// on the full corpus) so that "warm server" rows time calls, not start-up
// competing with them: until its CPU time stops growing for 300 ms.
func (s *server) settle() {
	deadline := time.Now().Add(60 * time.Second)
	last, quiet := cpuTicks(s.pid()), 0
	for quiet < 3 && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
		now := cpuTicks(s.pid())
		if now-last <= 1 {
			quiet++
		} else {
			quiet = 0
		}
		last = now
	}
}

// cpuTicks is a process's user+system CPU time in clock ticks.
func cpuTicks(pid int) int64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// Fields after the command (which may hold spaces) closes with ')'.
	rest := string(data[bytes.LastIndexByte(data, ')')+1:])
	f := strings.Fields(rest)
	if len(f) < 13 {
		return 0
	}
	u, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return u + st
}

func (s *server) has(id string) bool { return s.tools[toolName(id)] }

func (s *server) pid() int {
	if s.cmd == nil || s.cmd.Process == nil {
		return 0
	}
	return s.cmd.Process.Pid
}

func (s *server) close() {
	if s != nil && s.c != nil {
		s.c.Close()
	}
}

// callErr is a refused call (isError), with its code.
type callErr struct{ code, msg string }

func (e *callErr) Error() string { return e.code + ": " + e.msg }

// call invokes a function and returns its structured content as raw JSON and
// the wall time of the round trip (the client's JSON decoding included).
func (s *server) call(id string, args any) (json.RawMessage, time.Duration, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	t0 := time.Now()
	res, err := s.c.CallTool(ctx, mcp.CallToolRequest{Params: mcp.CallToolParams{Name: toolName(id), Arguments: args}})
	d := time.Since(t0)
	if err != nil {
		return nil, d, err
	}
	raw, _ := json.Marshal(res.StructuredContent)
	if res.IsError {
		var e struct {
			Error struct{ Code, Message string } `json:"error"`
		}
		json.Unmarshal(raw, &e)
		if e.Error.Code == "" && len(res.Content) > 0 {
			if tc, ok := res.Content[0].(mcp.TextContent); ok {
				e.Error.Message = tc.Text
			}
		}
		return raw, d, &callErr{e.Error.Code, e.Error.Message}
	}
	return raw, d, nil
}

func (s *server) mustCall(id string, args any) (json.RawMessage, time.Duration) {
	raw, d, err := s.call(id, args)
	if err != nil {
		panic(fmt.Sprintf("%s: %v", id, err))
	}
	return raw, d
}

// procStatus reads VmRSS and VmHWM (in MB) of a process.
func procStatus(pid int) (rss, hwm float64) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return math.NaN(), math.NaN()
	}
	for _, l := range strings.Split(string(data), "\n") {
		f := strings.Fields(l)
		if len(f) < 2 {
			continue
		}
		kb, _ := strconv.ParseFloat(f[1], 64)
		switch f[0] {
		case "VmRSS:":
			rss = kb / 1024
		case "VmHWM:":
			hwm = kb / 1024
		}
	}
	return rss, hwm
}

// ---------------------------------------------------------------------------
// Processes

type runResult struct {
	out []byte
	dur time.Duration
	err error
}

// run runs a command in dir and returns its stdout and wall time.
func run(dir string, name string, args ...string) runResult {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &errb
	t0 := time.Now()
	err := cmd.Run()
	d := time.Since(t0)
	r := runResult{out: out.Bytes(), dur: d, err: err}
	if err != nil && errb.Len() > 0 {
		r.err = fmt.Errorf("%v: %s", err, firstLine(errb.String()))
	}
	return r
}

// pipeline runs `a | b` in dir (both started by us, no shell), returning b's
// stdout and the wall time of the whole pipeline.
func pipeline(dir string, a, b []string) runResult {
	ca := exec.Command(a[0], a[1:]...)
	cb := exec.Command(b[0], b[1:]...)
	ca.Dir, cb.Dir = dir, dir
	var out bytes.Buffer
	cb.Stdout = &out
	t0 := time.Now()
	pr, pw := io.Pipe()
	ca.Stdout = pw
	cb.Stdin = pr
	if err := cb.Start(); err != nil {
		return runResult{err: err}
	}
	if err := ca.Start(); err != nil {
		return runResult{err: err}
	}
	errA := ca.Wait()
	pw.Close()
	errB := cb.Wait()
	d := time.Since(t0)
	return runResult{out: out.Bytes(), dur: d, err: errors.Join(errA, errB)}
}

// peakRSS runs a command (or a two-command pipeline) once, untimed, and
// returns the largest VmHWM (MB) of its processes, sampled from /proc every
// 2 ms until they exit. (The rusage of a child is no use here: a child that
// Go starts with vfork inherits the driver's own high-water mark.)
func peakRSS(dir string, cmds ...[]string) float64 {
	var procs []*exec.Cmd
	for _, c := range cmds {
		cmd := exec.Command(c[0], c[1:]...)
		cmd.Dir = dir
		procs = append(procs, cmd)
	}
	if len(procs) == 2 {
		pr, pw := io.Pipe()
		procs[0].Stdout = pw
		procs[1].Stdin = pr
		defer pw.Close()
	}
	procs[len(procs)-1].Stdout = io.Discard
	for i := len(procs) - 1; i >= 0; i-- {
		if err := procs[i].Start(); err != nil {
			return math.NaN()
		}
	}
	var mu sync.Mutex
	peak := 0.0
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(2 * time.Millisecond)
		defer t.Stop()
		for {
			for _, c := range procs {
				if _, hwm := procStatus(c.Process.Pid); !math.IsNaN(hwm) {
					mu.Lock()
					peak = max(peak, hwm)
					mu.Unlock()
				}
			}
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	for i, c := range procs {
		c.Wait()
		if i == 0 && len(procs) == 2 {
			if w, ok := procs[0].Stdout.(*io.PipeWriter); ok {
				w.Close()
			}
		}
	}
	close(done)
	mu.Lock()
	defer mu.Unlock()
	return peak
}

// editordCall runs `editord call ID JSON` as its own process.
func editordCall(state, id string, args any) (json.RawMessage, runResult) {
	js, _ := json.Marshal(args)
	r := run(*corpus, *binPath, "call", id, string(js), "--root", *corpus, "--state-dir", state)
	return json.RawMessage(r.out), r
}

func git(args ...string) string {
	r := run(*corpus, "git", args...)
	if r.err != nil {
		panic(fmt.Sprintf("git %s: %v", strings.Join(args, " "), r.err))
	}
	return string(r.out)
}

func have(tool string) bool {
	_, err := exec.LookPath(tool)
	return err == nil
}

// ensureClean puts the corpus back to its commit (the benchmarks modify
// tracked files and create a few untracked ones).
func ensureClean() {
	if st := git("status", "--porcelain"); strings.TrimSpace(st) != "" {
		logf("restoring the corpus (git checkout -- . && git clean -fdq)")
		git("checkout", "--", ".")
		git("clean", "-fdq")
		git("status", "--porcelain")
	}
}

// ---------------------------------------------------------------------------
// Statistics

type durs []time.Duration

func (d durs) q(p float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	i := int(math.Ceil(p*float64(len(s)))) - 1
	return s[max(0, min(i, len(s)-1))]
}

func (d durs) median() time.Duration { return d.q(0.5) }

func fmtDur(d time.Duration) string {
	switch {
	case d >= 10*time.Second:
		return fmt.Sprintf("%.1f s", d.Seconds())
	case d >= time.Second:
		return fmt.Sprintf("%.2f s", d.Seconds())
	case d >= 10*time.Millisecond:
		return fmt.Sprintf("%.0f ms", float64(d)/1e6)
	case d >= time.Millisecond:
		return fmt.Sprintf("%.1f ms", float64(d)/1e6)
	default:
		return fmt.Sprintf("%.0f µs", float64(d)/1e3)
	}
}

func ratio(a, b time.Duration) (string, float64) {
	if b <= 0 || a <= 0 {
		return "", math.NaN()
	}
	x := float64(a) / float64(b)
	return fmt.Sprintf("%.2f", x), x
}

func verdict(x, goal float64) string {
	if math.IsNaN(x) || math.IsNaN(goal) {
		return ""
	}
	if x <= goal {
		return "ok"
	}
	return "MISS"
}

// ---------------------------------------------------------------------------
// editor::search vs rg

type searchResp struct {
	Files []struct {
		Path string `json:"path"`
		Hits []struct {
			Line int `json:"line"`
		} `json:"hits"`
	} `json:"files"`
	Total        int  `json:"total"`
	FilesScanned int  `json:"files_scanned"`
	Truncated    bool `json:"truncated"`
}

func (s searchResp) keys() map[string]bool {
	m := make(map[string]bool, s.Total)
	for _, f := range s.Files {
		for _, h := range f.Hits {
			m[f.Path+":"+strconv.Itoa(h.Line)] = true
		}
	}
	return m
}

var rgLine = regexp.MustCompile(`^(.*?):(\d+):`)

func rgKeys(out []byte) (map[string]bool, int) {
	m := map[string]bool{}
	other := 0
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		if g := rgLine.FindSubmatch(sc.Bytes()); g != nil {
			m[string(g[1])+":"+string(g[2])] = true
		} else {
			other++
		}
	}
	return m, other
}

type searchCase struct {
	name       string
	pattern    string
	literal    bool
	maxMatches int // 0: the default (limits.search_max_matches)
	goal       float64
	compare    bool // compare hit sets with rg
}

func benchSearch(r *report) {
	rare := envStr("BENCH_RARE", "GOPACKAGESDRIVER")
	common := envStr("BENCH_COMMON", "ErrUnexpectedEOF")
	veryCommon := envStr("BENCH_VERY_COMMON", "err != nil")
	re := envStr("BENCH_REGEX", `func \([a-z]+ \*[A-Z][A-Za-z]*\) [A-Z][A-Za-z]*\(ctx context\.Context`)
	cases := []searchCase{
		{"rare literal `" + rare + "`", rare, true, 1000000, 1.0, true},
		{"regex `" + re + "`", re, false, 1000000, 1.3, true},
		{"common literal `" + common + "`", common, true, 1000000, 1.0, true},
		// Far more hits than one response holds: editord stops early at its
		// cap, rg prints them all, so these two rows are for scale only.
		{"very common literal `" + veryCommon + "`, max_matches default", veryCommon, true, 0, math.NaN(), false},
		{"very common literal `" + veryCommon + "`, max_matches 1,000,000", veryCommon, true, 1000000, math.NaN(), true},
	}
	var hwms []string
	rgOK := have("rg")
	r.note("search reference: rg %s [--fixed-strings] --regexp PATTERN, run in the corpus root", strings.Join(rgBase, " "))
	served := r.served["editor::search"]
	var srv *server
	if served {
		srv = startServer("")
		defer srv.close()
		if !srv.has("editor::search") {
			served = false
		}
	}
	callState := newStateDir()
	n := *runsF
	var rgPeak, callPeak float64
	for _, c := range cases {
		args := map[string]any{"pattern": c.pattern, "literal": c.literal}
		if c.maxMatches > 0 {
			args["max_matches"] = c.maxMatches
		}
		rgArgs := slices.Clone(rgBase)
		if c.literal {
			rgArgs = append(rgArgs, "--fixed-strings")
		}
		rgArgs = append(rgArgs, "--regexp", c.pattern)

		var rgT, srvT, callT durs
		var rgOut []byte
		var srvRaw, callRaw json.RawMessage
		// One warm-up of each, then n interleaved runs (the order rotates).
		for i := -1; i < n; i++ {
			steps := []func(){
				func() {
					if !rgOK {
						return
					}
					res := run(*corpus, "rg", rgArgs...)
					if res.err != nil && len(res.out) == 0 {
						if ee, ok := res.err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
							panic(fmt.Sprintf("rg: %v", res.err))
						}
					}
					rgOut = res.out
					if i >= 0 {
						rgT = append(rgT, res.dur)
					}
				},
				func() {
					if !served {
						return
					}
					raw, d := srv.mustCall("editor::search", args)
					srvRaw = raw
					if i >= 0 {
						srvT = append(srvT, d)
					}
				},
				func() {
					if !served {
						return
					}
					raw, res := editordCall(callState, "editor::search", args)
					if res.err != nil {
						panic(fmt.Sprintf("editord call editor::search: %v %s", res.err, firstLine(string(raw))))
					}
					callRaw = raw
					if i >= 0 {
						callT = append(callT, res.dur)
					}
				},
			}
			for k := range steps {
				steps[(k+max(i, 0))%len(steps)]()
			}
		}
		if rgOK {
			rgPeak = max(rgPeak, peakRSS(*corpus, append([]string{"rg"}, rgArgs...)))
		}
		if served {
			js, _ := json.Marshal(args)
			callPeak = max(callPeak, peakRSS(*corpus, []string{*binPath, "call", "editor::search", string(js), "--root", *corpus, "--state-dir", callState}))
		}
		ref := "n/a (rg not installed)"
		if rgOK {
			ref = "rg " + fmtDur(rgT.median())
		}
		goal := "—"
		if !math.IsNaN(c.goal) {
			goal = fmt.Sprintf("≤ %.1f", c.goal)
		}
		if !served {
			r.na("search "+c.name+" (warm server)", ref, goal, "function not served")
			r.na("search "+c.name+" (editord call)", ref, goal, "function not served")
			if rgOK {
				k, _ := rgKeys(rgOut)
				r.note("search %s: rg finds %d matching lines", c.name, len(k))
			}
			continue
		}
		_, hwm := procStatus(srv.pid())
		hwms = append(hwms, fmt.Sprintf("%.0f MB after %s", hwm, c.name))
		var sr searchResp
		if err := json.Unmarshal(srvRaw, &sr); err != nil {
			panic(fmt.Sprintf("search response: %v", err))
		}
		cgoal := c.goal
		if sr.Truncated {
			cgoal = math.NaN()
			goal = "— (capped at " + strconv.Itoa(sr.Total) + " hits; not like for like)"
		}
		rs, x := ratio(srvT.median(), rgT.median())
		r.add("search "+c.name+" (warm server)", fmtDur(srvT.median()), ref, rs, goal, verdict(x, cgoal))
		rc, xc := ratio(callT.median(), rgT.median())
		r.add("search "+c.name+" (editord call)", fmtDur(callT.median()), ref, rc, goal, verdict(xc, cgoal))

		// Hit counts, and where they differ.
		var cr searchResp
		if err := json.Unmarshal(callRaw, &cr); err == nil && cr.Total != sr.Total {
			r.note("search %s: the server says total %d, editord call says %d", c.name, sr.Total, cr.Total)
		}
		if !rgOK {
			continue
		}
		rk, other := rgKeys(rgOut)
		msg := fmt.Sprintf("search %s: editord total %d (returned %d, files_scanned %d, truncated %v); rg %d matching lines",
			c.name, sr.Total, countHits(sr), sr.FilesScanned, sr.Truncated, len(rk))
		if other > 0 {
			msg += fmt.Sprintf(" (+%d other rg lines, e.g. binary-file notices)", other)
		}
		if sr.Truncated {
			msg += fmt.Sprintf(" — editord stopped at %d hits (truncated: its per-response cap or max_matches), rg printed every hit: the times are not like for like", sr.Total)
			if onlyE, _ := diffKeys(sr.keys(), rk); len(onlyE) > 0 {
				msg += fmt.Sprintf("; %d returned hits are NOT in rg's output (e.g. %s)", len(onlyE), sample(onlyE))
			} else {
				msg += "; every returned hit is in rg's output"
			}
		} else if c.compare {
			ek := sr.keys()
			onlyE, onlyR := diffKeys(ek, rk)
			if len(onlyE) == 0 && len(onlyR) == 0 {
				msg += " — same (path, line) set"
			} else {
				msg += fmt.Sprintf(" — DIFFER: %d only in editord (e.g. %s), %d only in rg (e.g. %s)",
					len(onlyE), sample(onlyE), len(onlyR), sample(onlyR))
			}
		} else {
			msg += " — capped by max_matches, not comparable (rg has no global cap; it prints every hit)"
		}
		r.note("%s", msg)
	}
	if served {
		_, hwm := procStatus(srv.pid())
		rgMem := "rg not installed"
		if rgOK {
			rgMem = fmt.Sprintf("rg peak %.0f MB", rgPeak)
		}
		r.memf("search: warm server VmHWM %.0f MB after every search above (goal < 150 MB: %s); as it grew: %s; editord call peak RSS %.0f MB; %s",
			hwm, verdict(hwm, 150), strings.Join(hwms, ", "), callPeak, rgMem)
	}
}

func countHits(s searchResp) int {
	n := 0
	for _, f := range s.Files {
		n += len(f.Hits)
	}
	return n
}

func diffKeys(a, b map[string]bool) (onlyA, onlyB []string) {
	for k := range a {
		if !b[k] {
			onlyA = append(onlyA, k)
		}
	}
	for k := range b {
		if !a[k] {
			onlyB = append(onlyB, k)
		}
	}
	slices.Sort(onlyA)
	slices.Sort(onlyB)
	return
}

func sample(s []string) string {
	if len(s) == 0 {
		return "—"
	}
	if len(s) > 3 {
		s = s[:3]
	}
	return strings.Join(s, ", ")
}

// ---------------------------------------------------------------------------
// editor::find vs git ls-files | fzf --filter

type findResp struct {
	Matches []struct {
		Path string `json:"path"`
	} `json:"matches"`
	Scanned   int  `json:"scanned"`
	Truncated bool `json:"truncated"`
	FromGit   bool `json:"from_git"`
}

func benchFind(r *report) {
	files := strings.Split(strings.TrimSpace(git("ls-files")), "\n")
	basename, pathLike := pickFindQueries(files)
	queries := []struct{ name, q string }{
		{"3-letter `" + envStr("BENCH_FIND3", "srv") + "`", envStr("BENCH_FIND3", "srv")},
		{"basename `" + basename + "`", basename},
		{"path-like `" + pathLike + "`", pathLike},
	}
	fzfOK := have("fzf")
	served := r.served["editor::find"]
	var srv *server
	if served {
		srv = startServer("")
		defer srv.close()
		served = srv.has("editor::find")
	}
	if served {
		_, d := srv.mustCall("editor::find", map[string]any{"query": "main"})
		r.note("find: the first query on a fresh server (builds the candidate list) took %s", fmtDur(d))
	}
	nFind := max(30, *runsF)
	var fzfPeak float64
	for _, q := range queries {
		var fzfT durs
		var fzfOut []byte
		if fzfOK {
			for i := -1; i < *runsF; i++ {
				res := pipeline(*corpus, []string{"git", "ls-files"}, []string{"fzf", "--filter", q.q})
				fzfOut = res.out
				if i >= 0 {
					fzfT = append(fzfT, res.dur)
				}
			}
		}
		if fzfOK {
			fzfPeak = max(fzfPeak, peakRSS(*corpus, []string{"git", "ls-files"}, []string{"fzf", "--filter", q.q}))
		}
		ref := "n/a (fzf not installed)"
		if fzfOK {
			ref = "git ls-files | fzf " + fmtDur(fzfT.median())
		}
		if !served {
			r.na("find "+q.name+" (warm server; p50 / p99)", ref, "≤ 0.5, p50 < 30 ms", "function not served")
			continue
		}
		var t durs
		var raw json.RawMessage
		for i := -3; i < nFind; i++ {
			var d time.Duration
			raw, d = srv.mustCall("editor::find", map[string]any{"query": q.q})
			if i >= 0 {
				t = append(t, d)
			}
		}
		rs, x := ratio(t.median(), fzfT.median())
		v := verdict(x, 0.5)
		if t.median() >= 30*time.Millisecond {
			v = "MISS"
		}
		r.add("find "+q.name+" (warm server; p50 / p99)", fmtDur(t.q(0.5))+" / "+fmtDur(t.q(0.99)), ref, rs, "≤ 0.5, p50 < 30 ms", v)
		var fr findResp
		json.Unmarshal(raw, &fr)
		top := "—"
		if len(fr.Matches) > 0 {
			top = fr.Matches[0].Path
		}
		fzfTop := "—"
		if fzfOK {
			fzfTop = firstLine(string(fzfOut))
		}
		r.note("find %s: editord top %q (%d returned, scanned %d, from_git %v, truncated %v); fzf top %q of %d",
			q.name, top, len(fr.Matches), fr.Scanned, fr.FromGit, fr.Truncated, fzfTop, countLines(fzfOut))
	}
	if served {
		// The per-process path, for one query: every call reads the candidates anew.
		state := newStateDir()
		var t durs
		for i := -1; i < *runsF; i++ {
			_, res := editordCall(state, "editor::find", map[string]any{"query": basename})
			if i >= 0 {
				t = append(t, res.dur)
			}
		}
		r.add("find basename (editord call, a process per call)", fmtDur(t.median()), "", "", "—", "")
		_, hwm := procStatus(srv.pid())
		fz := "fzf not installed"
		if fzfOK {
			fz = fmt.Sprintf("git ls-files | fzf peak %.0f MB", fzfPeak)
		}
		r.memf("find: warm server VmHWM %.0f MB after every find above (goal < 150 MB: %s); %s", hwm, verdict(hwm, 150), fz)
	}
}

// pickFindQueries prefers kubernetes' kubelet_pods.go; on another corpus it
// takes a file from the middle of the list.
func pickFindQueries(files []string) (basename, pathLike string) {
	if b := os.Getenv("BENCH_FIND_BASENAME"); b != "" {
		basename = b
	}
	if p := os.Getenv("BENCH_FIND_PATH"); p != "" {
		pathLike = p
	}
	for _, f := range files {
		if strings.HasSuffix(f, "pkg/kubelet/kubelet_pods.go") {
			return or(basename, "kubelet_pods.go"), or(pathLike, "pkg/kubelet/pods")
		}
	}
	var cands []string
	for _, f := range files {
		parts := strings.Split(f, "/")
		b := parts[len(parts)-1]
		if len(parts) >= 3 && strings.HasSuffix(b, ".go") && len(b) >= 10 && !strings.HasSuffix(b, "_test.go") {
			cands = append(cands, f)
		}
	}
	if len(cands) == 0 {
		return or(basename, "main.go"), or(pathLike, "cmd/main")
	}
	f := cands[len(cands)/2]
	parts := strings.Split(f, "/")
	b := parts[len(parts)-1]
	stem := strings.TrimSuffix(b, ".go")
	if i := strings.LastIndex(stem, "_"); i > 0 {
		stem = stem[i+1:]
	}
	return or(basename, b), or(pathLike, strings.Join(parts[len(parts)-3:len(parts)-1], "/")+"/"+stem)
}

func or(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func countLines(b []byte) int {
	if len(b) == 0 {
		return 0
	}
	return bytes.Count(b, []byte("\n"))
}

// ---------------------------------------------------------------------------
// editor::git::status and editor::git::hunks vs git

type statusResp struct {
	Branch  *string `json:"branch"`
	Clean   bool    `json:"clean"`
	Entries []struct {
		Path     string `json:"path"`
		Worktree string `json:"worktree"`
	} `json:"entries"`
}

type hunksResp struct {
	Hunks     []json.RawMessage `json:"hunks"`
	Added     int               `json:"added"`
	Removed   int               `json:"removed"`
	Truncated bool              `json:"truncated"`
}

func benchGit(r *report) {
	files := strings.Split(strings.TrimSpace(git("ls-files")), "\n")
	var picked []string
	step := max(1, len(files)/100)
	for i := 0; i < len(files) && len(picked) < 100; i += step {
		f := files[i]
		if strings.HasPrefix(f, "bench/") {
			continue
		}
		if st, err := os.Lstat(filepath.Join(*corpus, f)); err != nil || !st.Mode().IsRegular() {
			continue
		}
		picked = append(picked, f)
	}
	served := r.served["editor::git::status"]
	var srv *server
	if served || r.served["editor::git::hunks"] {
		srv = startServer("")
		defer srv.close()
		served = srv.has("editor::git::status")
	}
	gitArgs := []string{"status", "--porcelain=v2", "--branch"}
	var gitPeak float64

	scenario := func(name string, prepare func(i int)) {
		var edT, gitT durs
		var edRaw json.RawMessage
		var gitOut []byte
		for i := -1; i < *runsF; i++ {
			if prepare != nil {
				prepare(2*i + 100)
			}
			res := run(*corpus, "git", gitArgs...)
			if res.err != nil {
				panic(fmt.Sprintf("git status: %v", res.err))
			}
			gitOut = res.out
			if i >= 0 {
				gitT = append(gitT, res.dur)
			}
			if served {
				if prepare != nil {
					prepare(2*i + 101)
				}
				raw, d := srv.mustCall("editor::git::status", map[string]any{})
				edRaw = raw
				if i >= 0 {
					edT = append(edT, d)
				}
			}
		}
		if prepare != nil {
			prepare(1000)
		}
		gitPeak = max(gitPeak, peakRSS(*corpus, append([]string{"git"}, gitArgs...)))
		rows := 0
		for _, l := range strings.Split(string(gitOut), "\n") {
			if l != "" && !strings.HasPrefix(l, "#") {
				rows++
			}
		}
		ref := "git status " + fmtDur(gitT.median())
		if !served {
			r.na("git::status "+name, ref, "≤ 1.0", "function not served")
			r.note("git::status %s: git lists %d rows", name, rows)
			return
		}
		rs, x := ratio(edT.median(), gitT.median())
		r.add("git::status "+name, fmtDur(edT.median()), ref, rs, "≤ 1.0", verdict(x, 1.0))
		var st statusResp
		json.Unmarshal(edRaw, &st)
		agree := "agree"
		if len(st.Entries) != rows {
			agree = "DIFFER"
		}
		r.note("git::status %s: editord %d entries (clean %v), git %d rows — %s", name, len(st.Entries), st.Clean, rows, agree)
	}

	ensureClean()
	scenario("clean tree", nil)
	scenario("after touching 100 files (mtime only)", func(i int) {
		t := time.Now().Add(time.Duration(i) * time.Second)
		for _, f := range picked {
			os.Chtimes(filepath.Join(*corpus, f), t, t)
		}
	})
	for _, f := range picked {
		p := filepath.Join(*corpus, f)
		fh, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
		check(err)
		fh.WriteString("\n// editord bench edit\n")
		fh.Close()
	}
	scenario("after modifying 100 files", nil)
	git("checkout", "--", ".")
	run(*corpus, "git", "status", "--porcelain") // settle the index again
	if served {
		_, hwm := procStatus(srv.pid())
		r.memf("git::status: warm server VmHWM %.0f MB after the status runs (goal < 150 MB: %s); git status peak %.0f MB",
			hwm, verdict(hwm, 150), gitPeak)
	} else {
		r.memf("git status peak %.0f MB (editor::git::status not served)", gitPeak)
	}

	// hunks on a ~3 MB file with scattered changes.
	large := "bench/large_3mb.txt"
	lp := filepath.Join(*corpus, large)
	orig, err := os.ReadFile(lp)
	if err != nil {
		r.note("git::hunks: %s missing (%v); rebuild the corpus", large, err)
		return
	}
	lines := strings.SplitAfter(string(orig), "\n")
	changed := 0
	for i := 150; i < len(lines); i += 397 {
		lines[i] = "// editord bench: line changed\n"
		changed++
		if i+1 < len(lines) && i%3 == 0 {
			lines[i+1] = "" // and a deletion now and then
		}
	}
	check(os.WriteFile(lp, []byte(strings.Join(lines, "")), 0o644))
	defer git("checkout", "--", large)

	var gitT durs
	var gitOut []byte
	for i := -1; i < *runsF; i++ {
		res := run(*corpus, "git", "diff", "-U0", "--", large)
		gitOut = res.out
		if i >= 0 {
			gitT = append(gitT, res.dur)
		}
	}
	gitHunks, gitAdded, gitRemoved := 0, 0, 0
	for _, l := range strings.Split(string(gitOut), "\n") {
		switch {
		case strings.HasPrefix(l, "@@"):
			gitHunks++
		case gitHunks == 0: // the file header
		case strings.HasPrefix(l, "+"):
			gitAdded++
		case strings.HasPrefix(l, "-"):
			gitRemoved++
		}
	}
	ref := "git diff -U0 " + fmtDur(gitT.median())
	name := fmt.Sprintf("git::hunks %.1f MB file, %d hunks", float64(len(orig))/1e6, gitHunks)
	if srv == nil || !srv.has("editor::git::hunks") {
		r.na(name, ref, "≤ 1.5", "function not served")
		return
	}
	args := map[string]any{"path": large, "against": "worktree", "context_lines": 0}
	hsrv := srv
	raw, _, err := srv.call("editor::git::hunks", args)
	var hr hunksResp
	json.Unmarshal(raw, &hr)
	if err != nil || hr.Truncated {
		// The default limits.max_diff_bytes (2,000,000) is smaller than the file:
		// measure on a server whose config raises it.
		why := "truncated"
		if err != nil {
			why = err.Error()
		}
		r.note("git::hunks on the %.1f MB file with the default config: %s; measured with limits.max_diff_bytes = 8000000", float64(len(orig))/1e6, why)
		cfg := filepath.Join(tmpBase, "big-diff.toml")
		os.WriteFile(cfg, []byte("[limits]\nmax_diff_bytes = 8000000\n"), 0o644)
		hsrv = startServer("", "--config", cfg)
		defer hsrv.close()
	}
	var edT durs
	for i := -1; i < *runsF; i++ {
		raw, d, err := hsrv.call("editor::git::hunks", args)
		if err != nil {
			r.na(name, ref, "≤ 1.5", "error: "+err.Error())
			return
		}
		if i >= 0 {
			edT = append(edT, d)
		}
		json.Unmarshal(raw, &hr)
	}
	rs, x := ratio(edT.median(), gitT.median())
	r.add(name, fmtDur(edT.median()), ref, rs, "≤ 1.5", verdict(x, 1.5))
	agree := "agree"
	if len(hr.Hunks) != gitHunks || hr.Added != gitAdded || hr.Removed != gitRemoved {
		agree = "DIFFER"
	}
	r.note("git::hunks: editord %d hunks (+%d −%d), git diff -U0 %d hunks (+%d −%d) — %s", len(hr.Hunks), hr.Added, hr.Removed, gitHunks, gitAdded, gitRemoved, agree)
}

// ---------------------------------------------------------------------------
// editor::open, editor::save, editor::diff over stdio

func tenKiB() (string, string) {
	var a, b strings.Builder
	for i := 0; a.Len() < 10240; i++ {
		fmt.Fprintf(&a, "line %05d: the quick brown fox jumps over the lazy dog\n", i)
	}
	s := a.String()[:10240]
	b.WriteString(strings.Replace(s, "line 00042", "LINE 00042", 1))
	return s, b.String()
}

func mibTexts() (string, string) {
	var a, b strings.Builder
	for i := 0; a.Len() < 1<<20; i++ {
		l := fmt.Sprintf("%06d\tfunc handler%d(w http.ResponseWriter, r *http.Request) { serve(w, r, %d) }\n", i, i%977, i*7)
		a.WriteString(l)
		switch {
		case i%211 == 0:
			b.WriteString("// changed: " + l)
		case i%503 == 0:
			// deleted
		default:
			b.WriteString(l)
		}
		if i%769 == 0 {
			b.WriteString("// inserted line\n")
		}
	}
	return a.String(), b.String()
}

func benchIO(r *report) {
	need := []string{"editor::open", "editor::save", "editor::diff"}
	for _, id := range need {
		if !r.served[id] {
			r.na(id, "", "", "function not served")
		}
	}
	srv := startServer("")
	defer srv.close()
	dir := filepath.Join(*corpus, "bench-scratch")
	os.MkdirAll(dir, 0o755)
	path := "bench-scratch/ten_kib.txt"
	a, b := tenKiB()
	check(os.WriteFile(filepath.Join(*corpus, path), []byte(a), 0o644))
	n := max(500, *runsF)

	if srv.has("editor::open") {
		var t durs
		for i := -20; i < n; i++ {
			_, d := srv.mustCall("editor::open", map[string]any{"path": path})
			if i >= 0 {
				t = append(t, d)
			}
		}
		v := verdict(float64(t.q(0.5))/1e6, 1)
		r.add("open 10 KiB file (stdio; p50 / p99)", fmtDur(t.q(0.5))+" / "+fmtDur(t.q(0.99)), "", "", "p50 < 1 ms", v)
	}
	if srv.has("editor::save") && srv.has("editor::open") {
		raw, _ := srv.mustCall("editor::open", map[string]any{"path": path})
		var o struct {
			Version string `json:"version"`
		}
		json.Unmarshal(raw, &o)
		version := o.Version
		var t durs
		for i := -20; i < n; i++ {
			content := a
			if i%2 == 0 {
				content = b
			}
			raw, d := srv.mustCall("editor::save", map[string]any{"path": path, "content": content, "expected_version": version})
			var sv struct {
				Saved    bool   `json:"saved"`
				Conflict bool   `json:"conflict"`
				Version  string `json:"version"`
			}
			json.Unmarshal(raw, &sv)
			if !sv.Saved {
				panic(fmt.Sprintf("save did not save: %s", raw))
			}
			version = sv.Version
			if i >= 0 {
				t = append(t, d)
			}
		}
		v := verdict(float64(t.q(0.5))/1e6, 1)
		r.add("save 10 KiB file, guarded (stdio; p50 / p99)", fmtDur(t.q(0.5))+" / "+fmtDur(t.q(0.99)), "", "", "p50 < 1 ms", v)
	}
	if srv.has("editor::diff") {
		before, after := mibTexts()
		var t durs
		var raw json.RawMessage
		for i := -2; i < max(30, *runsF); i++ {
			var d time.Duration
			raw, d = srv.mustCall("editor::diff", map[string]any{"before": before, "after": after})
			if i >= 0 {
				t = append(t, d)
			}
		}
		var dr struct {
			Hunks     []json.RawMessage `json:"hunks"`
			Added     int               `json:"added"`
			Removed   int               `json:"removed"`
			Truncated bool              `json:"truncated"`
		}
		json.Unmarshal(raw, &dr)
		ref := "—"
		if have("git") {
			// For scale: git diff --no-index on the same two texts, as files.
			d := filepath.Join(tmpBase, "diff")
			os.MkdirAll(d, 0o755)
			os.WriteFile(filepath.Join(d, "a"), []byte(before), 0o644)
			os.WriteFile(filepath.Join(d, "b"), []byte(after), 0o644)
			var gt durs
			for i := -1; i < *runsF; i++ {
				res := run(d, "git", "diff", "--no-index", "--no-color", "a", "b")
				if i >= 0 {
					gt = append(gt, res.dur)
				}
			}
			ref = "git diff --no-index " + fmtDur(gt.median()) + " (for scale)"
		}
		r.add(fmt.Sprintf("diff two 1 MiB texts, %d hunks (stdio; p50 / p99)", len(dr.Hunks)), fmtDur(t.q(0.5))+" / "+fmtDur(t.q(0.99)), ref, "", "—", "")
		if dr.Truncated {
			r.note("diff of the 1 MiB texts came back truncated")
		}
	}
	os.RemoveAll(dir)
}

// ---------------------------------------------------------------------------
// Memory: idle, and after 10,000 mixed calls

func benchMemory(r *report) {
	srv := startServer("")
	defer srv.close()
	time.Sleep(time.Second)
	rss0, hwm0 := procStatus(srv.pid())
	r.memf("idle server (after initialize + tools/list): VmRSS %.1f MB, VmHWM %.1f MB", rss0, hwm0)
	ids := []string{"editor::open", "editor::save", "editor::workspace::get", "editor::diff"}
	for _, id := range ids {
		if !srv.has(id) {
			r.memf("10,000 mixed calls: n/a (%s not served)", id)
			return
		}
	}
	dir := filepath.Join(*corpus, "bench-scratch")
	os.MkdirAll(dir, 0o755)
	defer os.RemoveAll(dir)
	a, b := tenKiB()
	var paths []string
	for i := range 20 {
		p := fmt.Sprintf("bench-scratch/mem_%02d.txt", i)
		check(os.WriteFile(filepath.Join(*corpus, p), []byte(a), 0o644))
		paths = append(paths, p)
	}
	const total = 10000
	var marks []string
	per := make([]durs, 4)
	t0 := time.Now()
	for i := 0; i < total; i++ {
		p := paths[i%len(paths)]
		var d time.Duration
		switch i % 4 {
		case 0:
			_, d = srv.mustCall("editor::open", map[string]any{"path": p})
		case 1:
			content := a
			if (i/4)%2 == 0 {
				content = b
			}
			_, d = srv.mustCall("editor::save", map[string]any{"path": p, "content": content, "force": true})
		case 2:
			_, d = srv.mustCall("editor::workspace::get", map[string]any{})
		case 3:
			_, d = srv.mustCall("editor::diff", map[string]any{"before": a, "after": b, "path": p})
		}
		per[i%4] = append(per[i%4], d)
		if (i+1)%2500 == 0 {
			rss, _ := procStatus(srv.pid())
			marks = append(marks, fmt.Sprintf("%d: %.1f", i+1, rss))
		}
	}
	el := time.Since(t0)
	rss, hwm := procStatus(srv.pid())
	r.memf("10,000 mixed calls (open/save/workspace::get/diff, 10 KiB, 20 files) in %s (%.0f calls/s; p50 open %s, save %s, workspace::get %s, diff of two 10 KiB texts %s): VmRSS after N calls (MB) %s; final VmRSS %.1f MB, VmHWM %.1f MB (idle %.1f MB)",
		el.Round(time.Millisecond), total/el.Seconds(), fmtDur(per[0].median()), fmtDur(per[1].median()), fmtDur(per[2].median()), fmtDur(per[3].median()),
		strings.Join(marks, ", "), rss, hwm, rss0)
}

// ---------------------------------------------------------------------------
// Change events (issue 5)

type evt struct {
	method string
	path   string
	cause  string
	at     time.Time
}

func benchChanges(r *report) {
	if !r.served["editor::changes"] {
		r.na("change event: save in one process → notification in another (p50 / p99)", "", "—", "function not served")
		return
	}
	state := newStateDir()
	listener := startServer(state)
	defer listener.close()
	writer := startServer(state)
	defer writer.close()
	events := make(chan evt, 4096)
	listener.mu.Lock()
	listener.notify = func(n mcp.JSONRPCNotification) {
		e := evt{method: n.Method, at: time.Now()}
		if os.Getenv("BENCH_DEBUG") != "" {
			raw, _ := json.Marshal(n)
			logf("notification: %.300s", raw)
		}
		if n.Params.AdditionalFields != nil {
			if p, ok := n.Params.AdditionalFields["path"].(string); ok {
				e.path = p
			}
			if c, ok := n.Params.AdditionalFields["cause"].(string); ok {
				e.cause = c
			}
		}
		select {
		case events <- e:
		default:
		}
	}
	listener.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	subErr := listener.c.Subscribe(ctx, mcp.SubscribeRequest{Params: mcp.SubscribeParams{URI: "editor://changes"}})
	cancel()
	if subErr != nil {
		r.note("changes: subscribing to editor://changes failed: %v", subErr)
	}
	dir := filepath.Join(*corpus, "bench-events")
	os.MkdirAll(dir, 0o755)
	defer os.RemoveAll(dir)
	drain := func() {
		for {
			select {
			case <-events:
			default:
				return
			}
		}
	}
	// wait returns the arrival of the notifications/editor/changed event for
	// path; resources/updated notifications are counted on the side.
	var updates int
	wait := func(path string, t0 time.Time, timeout time.Duration) (time.Duration, bool) {
		dl := time.After(timeout)
		for {
			select {
			case e := <-events:
				if e.method == "notifications/editor/changed" && e.path == path {
					return e.at.Sub(t0), true
				}
				if e.method == "notifications/resources/updated" {
					updates++
				}
			case <-dl:
				return 0, false
			}
		}
	}

	// 1. A save in the writer process → the event at the listener's client.
	savePath := "bench-events/save.txt"
	a, b := tenKiB()
	var t durs
	misses := 0
	n := max(50, *runsF)
	for i := -3; i < n; i++ {
		drain()
		content := a
		if i%2 == 0 {
			content = b
		}
		t0 := time.Now()
		writer.mustCall("editor::save", map[string]any{"path": savePath, "content": content, "force": true})
		d, ok := wait(savePath, t0, 3*time.Second)
		if !ok {
			misses++
			if i < 0 && misses >= 3 {
				break
			}
			continue
		}
		if i >= 0 {
			t = append(t, d)
		}
	}
	name := "change event: save in one process → notifications/editor/changed at another process's client, from sending the save (p50 / p99)"
	if len(t) == 0 {
		r.na(name, "", "—", "no notification within 3 s")
	} else {
		r.add(name, fmtDur(t.q(0.5))+" / "+fmtDur(t.q(0.99)), "", "", "—", "")
		if misses > 0 {
			r.note("changes: %d of %d saves produced no notification within 3 s", misses, n+3)
		}
	}

	// 2. An external write (os.WriteFile) → its event. Open the file first so
	// its folder is watched whatever the inotify budget.
	extPath := "bench-events/external.txt"
	check(os.WriteFile(filepath.Join(*corpus, extPath), []byte(a), 0o644))
	writer.call("editor::open", map[string]any{"path": extPath})
	time.Sleep(500 * time.Millisecond)
	t = nil
	misses = 0
	for i := -2; i < max(20, *runsF); i++ {
		drain()
		content := a
		if i%2 == 0 {
			content = b
		}
		t0 := time.Now()
		os.WriteFile(filepath.Join(*corpus, extPath), []byte(content), 0o644)
		d, ok := wait(extPath, t0, 3*time.Second)
		if !ok {
			misses++
			if i < 0 && misses >= 2 {
				break
			}
			continue
		}
		if i >= 0 {
			t = append(t, d)
		}
		time.Sleep(150 * time.Millisecond) // let coalescing windows close
	}
	name = "change event: external write (os.WriteFile) → notification (p50 / p99)"
	if len(t) == 0 {
		r.na(name, "", "—", "no notification within 3 s")
	} else {
		r.add(name, fmtDur(t.q(0.5))+" / "+fmtDur(t.q(0.99)), "", "", "—", "")
		if misses > 0 {
			r.note("changes: %d external writes produced no notification within 3 s", misses)
		}
	}

	if updates > 0 {
		r.note("changes: the subscribed client also got %d notifications/resources/updated", updates)
	}

	// 3. editor::changes with a cursor.
	raw, _ := writer.mustCall("editor::changes", map[string]any{})
	var cr struct {
		Cursor  any   `json:"cursor"`
		Changes []any `json:"changes"`
	}
	json.Unmarshal(raw, &cr)
	var ct durs
	for i := -5; i < 200; i++ {
		args := map[string]any{}
		if cr.Cursor != nil {
			args["since"] = cr.Cursor
		}
		_, d := writer.mustCall("editor::changes", args)
		if i >= 0 {
			ct = append(ct, d)
		}
	}
	r.add("changes {since: latest cursor} (stdio; p50 / p99)", fmtDur(ct.q(0.5))+" / "+fmtDur(ct.q(0.99)), "", "", "—", "")

	// 4. Journal throughput: 8 writer processes, 100 saves each, one state dir.
	const procs, each = 8, 100
	st := newStateDir()
	var srvs []*server
	for range procs {
		srvs = append(srvs, startServer(st))
	}
	defer func() {
		for _, s := range srvs {
			s.close()
		}
	}()
	var wg sync.WaitGroup
	t0 := time.Now()
	for p, s := range srvs {
		wg.Go(func() {
			for k := range each {
				s.mustCall("editor::save", map[string]any{"path": fmt.Sprintf("bench-events/w%d.txt", p), "content": fmt.Sprintf("%d\n", k), "force": true})
			}
		})
	}
	wg.Wait()
	el := time.Since(t0)
	raw, _ = srvs[0].mustCall("editor::changes", map[string]any{})
	json.Unmarshal(raw, &cr)
	r.add(fmt.Sprintf("journal: %d writer processes × %d saves (events/s)", procs, each),
		fmt.Sprintf("%.0f events/s (%s; %d events in the journal)", procs*each/el.Seconds(), el.Round(time.Millisecond), len(cr.Changes)), "", "", "—", "")
}

// ---------------------------------------------------------------------------
// Small helpers

func corpusSize() (int, float64) {
	files := strings.Count(git("ls-files"), "\n")
	var size int64
	filepath.WalkDir(*corpus, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if d.Type().IsRegular() {
			if info, err := d.Info(); err == nil {
				size += info.Size()
			}
		}
		return nil
	})
	return files, float64(size) / 1e6
}

func cpuModel() string {
	data, _ := os.ReadFile("/proc/cpuinfo")
	for _, l := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(l, "model name") {
			if i := strings.Index(l, ":"); i >= 0 {
				return strings.TrimSpace(l[i+1:])
			}
		}
	}
	return "unknown cpu"
}

func loadAvg() string {
	data, _ := os.ReadFile("/proc/loadavg")
	f := strings.Fields(string(data))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

func memTotal() string {
	data, _ := os.ReadFile("/proc/meminfo")
	for _, l := range strings.Split(string(data), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "MemTotal:" {
			kb, _ := strconv.ParseFloat(f[1], 64)
			return fmt.Sprintf("%.1f GiB", kb/1024/1024)
		}
	}
	return "unknown"
}

func output(name string, args ...string) string {
	out, err := exec.Command(name, args...).Output()
	if err != nil {
		return "(" + err.Error() + ")"
	}
	return string(out)
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func envInt(k string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(k)); err == nil {
		return v
	}
	return def
}

func envStr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}

func logf(format string, a ...any) {
	fmt.Fprintf(os.Stderr, "[bench] "+format+"\n", a...)
}

func fatalf(format string, a ...any) {
	logf(format, a...)
	os.Exit(1)
}

func check(err error) {
	if err != nil {
		panic(err)
	}
}
