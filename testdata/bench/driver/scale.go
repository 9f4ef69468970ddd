package main

// Issue 12's rows: costs that must not grow with the events kept, the
// buffers open or the clients connected.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

func benchScale(r *report) {
	dir := filepath.Join(*corpus, "bench-scratch")
	os.MkdirAll(dir, 0o755)
	defer os.RemoveAll(dir)
	if !r.served["editor::open"] || !r.served["editor::save"] {
		r.na("scale rows", "", "", "function not served")
		return
	}
	// BENCH_SCALE=first,exact,capped,mib,kept,buffers,http runs some parts only.
	want := func(part string) bool {
		v := os.Getenv("BENCH_SCALE")
		return v == "" || strings.Contains(","+v+",", ","+part+",")
	}
	if want("first") {
		benchFirst(r)
	}
	if want("exact") {
		benchExact(r)
	}
	if want("capped") {
		benchCapped(r)
	}
	if want("mib") {
		benchStdioMiB(r)
	}
	if want("kept") {
		benchKept(r)
	}
	if want("buffers") {
		benchBuffers(r)
	}
	if want("http") {
		benchHTTP(r, 1)
		benchHTTP(r, 8, 32)
	}
	if want("peak") {
		benchPeak(r)
	}
	if want("bigfile") {
		benchBigFile(r)
	}
}

// benchBigFile: the peak memory (VmHWM) of one call on a 50 MB text file,
// with the limits raised to let it through, on a server of its own (a
// fresh state dir, a root holding only that file), over the idle server's.
// The goal is three times the file's size.
func benchBigFile(r *report) {
	root := filepath.Join(tmpBase, "bigfile")
	check(os.MkdirAll(root, 0o755))
	var b strings.Builder
	for i := 0; b.Len() < 50_000_000; i++ {
		fmt.Fprintf(&b, "%08d func handler(w http.ResponseWriter, r *http.Request) error { return serve(w, r, %d) }\n", i, i*7)
	}
	text := b.String()
	cfg := filepath.Join(tmpBase, "bigfile.toml")
	check(os.WriteFile(cfg, []byte("[limits]\nmax_file_bytes = 60000000\nmax_diff_bytes = 60000000\n[jail]\nmax_read_bytes = 60000000\nmax_write_bytes = 60000000\n"), 0o644))
	edited := strings.Replace(text, "00000040 func", "00000040 FUNC", 1)
	for _, c := range []struct {
		name string
		args map[string]any
	}{
		{"editor_open", map[string]any{"path": "big.txt"}},
		{"editor_edit", map[string]any{"path": "big.txt", "edits": []map[string]any{{"old_text": "00000031 func", "new_text": "00000031 FUNC"}}}},
		{"editor_save", map[string]any{"path": "big.txt", "content": edited, "force": true}},
		{"editor_search", map[string]any{"pattern": "handler", "max_matches": 10}},
	} {
		check(os.WriteFile(filepath.Join(root, "big.txt"), []byte(text), 0o644))
		s := startRaw(*binPath, "serve", "--root", root, "--state-dir", newStateDir(), "--config", cfg)
		(&server{cmd: s.cmd}).settle()
		_, idle := procStatus(s.cmd.Process.Pid)
		raw, _ := s.tool(c.name, c.args)
		_, peak := procStatus(s.cmd.Process.Pid)
		s.close()
		if bytes.Contains(raw, []byte(`"isError":true`)) {
			panic(fmt.Sprintf("%s on the 50 MB file: %.300s", c.name, raw))
		}
		x := (peak - idle) * (1 << 20) / float64(len(text))
		r.add(fmt.Sprintf("%s of a 50 MB file: peak memory over the idle server (VmHWM)", c.name),
			fmt.Sprintf("%.0f MB (%.1f× the file)", (peak-idle)*(1<<20)/1e6, x), "", "", "≤ 3× the file", verdict(x, 3))
	}
}

// benchPeak: a server's peak memory (VmHWM) over an agent's first calls on
// the corpus, from a fresh start with nothing warmed: two finds, three
// searches (a rare word, a common one capped, a regexp), git::status and
// the tree, then until the server is idle again (the watcher's walk).
// The goal is 200 MB at 240,000 files (the five-copy corpus).
func benchPeak(r *report) {
	s := startRaw(*binPath, "serve", "--root", *corpus, "--state-dir", newStateDir())
	defer s.close()
	calls := []struct {
		name string
		args map[string]any
	}{
		{"editor_find", map[string]any{"query": "runtime.go"}},
		{"editor_search", map[string]any{"pattern": "NewServeMux"}},
		{"editor_search", map[string]any{"pattern": "err", "literal": true}},
		{"editor_search", map[string]any{"pattern": `func \w+\(ctx`}},
		{"editor_git_status", map[string]any{}},
		{"editor_find", map[string]any{"query": "kubelet_pods"}},
		{"editor_tree", map[string]any{}},
	}
	for _, c := range calls {
		s.tool(c.name, c.args)
	}
	(&server{cmd: s.cmd}).settle()
	_, hwm := procStatus(s.cmd.Process.Pid) // MiB
	mb := hwm * (1 << 20) / 1e6
	files := run(*corpus, "git", "ls-files").out
	r.add(fmt.Sprintf("peak memory (VmHWM) over find, searches, status and tree from a fresh start, %d tracked files", bytes.Count(files, []byte{'\n'})),
		fmt.Sprintf("%.0f MB (%.0f MiB)", mb, hwm), "", "", "≤ 200 MB at 240k files", verdict(mb, 200))
}

// writeConfig writes a config file setting [limits] keys.
func writeConfig(name string, limits map[string]int) string {
	p := filepath.Join(tmpBase, name+".toml")
	var b strings.Builder
	b.WriteString("[limits]\n")
	for k, v := range limits {
		fmt.Fprintf(&b, "%s = %d\n", k, v)
	}
	check(os.WriteFile(p, []byte(b.String()), 0o644))
	return p
}

// fillJournal writes n events (with ~600-byte patches) as the journal of a
// state dir, the way editord writes them.
func fillJournal(state string, n int) {
	f, err := os.Create(filepath.Join(state, "changes.jsonl"))
	check(err)
	w := bufio.NewWriterSize(f, 1<<20)
	patch := strings.Repeat("+a line of a patch of some length\n", 18)
	for i := 1; i <= n; i++ {
		ev := map[string]any{"seq": i, "time": "2026-01-01T00:00:00Z", "root": *corpus, "path": fmt.Sprintf("old/f%d.go", i),
			"kind": "modified", "cause": "editor::save", "by": "bench", "added": 18, "removed": 0, "patch": patch, "truncated": false}
		line, _ := json.Marshal(ev)
		// Seq first, as editord writes it.
		w.WriteString(fmt.Sprintf(`{"seq":%d,`, i))
		w.Write(line[strings.Index(string(line), ",")+1:])
		w.WriteByte('\n')
	}
	check(w.Flush())
	check(f.Close())
}

// pairRounds runs rounds of n open+save+changes{since: tail} triples on
// each server in turn (alternating, so load on the machine hits both
// alike) and returns the per-call times of each.
type triple struct{ open, save, changes durs }

func pairRounds(srvs []*server, paths []string, rounds, n int) []triple {
	out := make([]triple, len(srvs))
	versions := make([]string, len(srvs))
	cursors := make([]string, len(srvs))
	for i, s := range srvs {
		raw, _ := s.mustCall("editor::changes", map[string]any{"limit": 1})
		var c struct {
			Cursor string `json:"cursor"`
			More   int    `json:"more"`
		}
		json.Unmarshal(raw, &c)
		cursors[i] = c.Cursor
		if c.More > 0 { // to the tail
			raw, _ = s.mustCall("editor::changes", map[string]any{"since": fmt.Sprint(atoi(c.Cursor) + c.More - 1), "limit": 1})
			json.Unmarshal(raw, &c)
			cursors[i] = c.Cursor
		}
	}
	for round := 0; round < rounds; round++ {
		for i, s := range srvs {
			for k := -2; k < n; k++ {
				raw, d := s.mustCall("editor::open", map[string]any{"path": paths[i]})
				var o struct{ Version string }
				json.Unmarshal(raw, &o)
				versions[i] = o.Version
				if k >= 0 {
					out[i].open = append(out[i].open, d)
				}
				raw, d = s.mustCall("editor::save", map[string]any{"path": paths[i], "content": fmt.Sprintf("package x\n// %d %d\n", round, k), "expected_version": versions[i]})
				if k >= 0 {
					out[i].save = append(out[i].save, d)
				}
				raw, d = s.mustCall("editor::changes", map[string]any{"since": cursors[i]})
				var c struct{ Cursor string }
				json.Unmarshal(raw, &c)
				cursors[i] = c.Cursor
				if k >= 0 {
					out[i].changes = append(out[i].changes, d)
				}
			}
		}
	}
	return out
}

func atoi(s string) int {
	var n int
	fmt.Sscan(s, &n)
	return n
}

// benchKept: open, save and changes at the tail on a fresh state dir and
// on one whose journal keeps 100,000 events.
func benchKept(r *report) {
	const kept = 100_000
	cfg := writeConfig("kept", map[string]int{"changes_kept": kept})
	fresh := newStateDir()
	full := newStateDir()
	fillJournal(full, kept)
	a := startServer(fresh, "--config", cfg)
	defer a.close()
	b := startServer(full, "--config", cfg)
	defer b.close()
	for _, p := range []string{"bench-scratch/kept-a.go", "bench-scratch/kept-b.go"} {
		check(os.WriteFile(filepath.Join(*corpus, p), []byte("package x\n"), 0o644))
	}
	res := pairRounds([]*server{a, b}, []string{"bench-scratch/kept-a.go", "bench-scratch/kept-b.go"}, max(5, *runsF), 40)
	for _, row := range []struct {
		name string
		a, b durs
	}{
		{"save", res[0].save, res[1].save},
		{"open", res[0].open, res[1].open},
		{"changes {since: tail}", res[0].changes, res[1].changes},
	} {
		rs, x := ratio(row.b.median(), row.a.median())
		r.add(fmt.Sprintf("%s with 100,000 kept events (stdio, p50)", row.name), fmtDur(row.b.median()),
			"fresh state dir "+fmtDur(row.a.median()), rs, "≤ 1.10", verdict(x, 1.10))
	}
}

// benchBuffers: open and save one file with 5 and with 5,000 buffers open,
// and the size of a default workspace::get with 5,000.
func benchBuffers(r *report) {
	few, many := startServer(""), startServer("")
	defer few.close()
	defer many.close()
	bufDir := filepath.Join(*corpus, "bench-scratch", "bufs")
	os.MkdirAll(bufDir, 0o755)
	for i := range 5000 {
		check(os.WriteFile(filepath.Join(bufDir, fmt.Sprintf("f%04d.txt", i)), []byte("x\n"), 0o644))
	}
	for i := range 5000 {
		p := fmt.Sprintf("bench-scratch/bufs/f%04d.txt", i)
		if i < 5 {
			few.mustCall("editor::open", map[string]any{"path": p})
		}
		many.mustCall("editor::open", map[string]any{"path": p})
	}
	for _, p := range []string{"bench-scratch/buf-a.go", "bench-scratch/buf-b.go"} {
		check(os.WriteFile(filepath.Join(*corpus, p), []byte("package x\n"), 0o644))
	}
	res := pairRounds([]*server{few, many}, []string{"bench-scratch/buf-a.go", "bench-scratch/buf-b.go"}, max(5, *runsF), 40)
	for _, row := range []struct {
		name string
		a, b durs
	}{
		{"save", res[0].save, res[1].save},
		{"open", res[0].open, res[1].open},
	} {
		rs, x := ratio(row.b.median(), row.a.median())
		r.add(fmt.Sprintf("%s with 5,000 buffers open (stdio, p50)", row.name), fmtDur(row.b.median()),
			"5 buffers "+fmtDur(row.a.median()), rs, "≤ 1.20", verdict(x, 1.20))
	}
	var t durs
	var raw json.RawMessage
	for i := 0; i < max(5, *runsF)*4; i++ {
		var d time.Duration
		raw, d = many.mustCall("editor::workspace::get", nil)
		t = append(t, d)
	}
	var v struct {
		Buffers      []json.RawMessage `json:"buffers"`
		BuffersTotal int               `json:"buffers_total"`
	}
	json.Unmarshal(raw, &v)
	r.add(fmt.Sprintf("workspace::get with 5,000 buffers (default page: %d of %d buffers, %.1f KiB)", len(v.Buffers), v.BuffersTotal, float64(len(raw))/1024),
		fmtDur(t.median()), "", "", "≤ 32 KiB", verdict(float64(len(raw)), 32<<10))
}

// httpServer is `editord serve --http` on the corpus, and its URL.
type httpServer struct {
	cmd *exec.Cmd
	url string
}

const benchToken = "editord-bench-token"

func startHTTP(state string) *httpServer {
	cmd := exec.Command(*binPath, "serve", "--http", "127.0.0.1:0", "--token", benchToken, "--root", *corpus, "--state-dir", state)
	xdg := filepath.Join(tmpBase, "xdg")
	cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+filepath.Join(xdg, "config"), "XDG_STATE_HOME="+filepath.Join(xdg, "state"))
	stderr, err := cmd.StderrPipe()
	check(err)
	check(cmd.Start())
	re := regexp.MustCompile(`serving MCP at (http://\S+/mcp)`)
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				found <- m[1]
			}
		}
	}()
	select {
	case u := <-found:
		s := &httpServer{cmd: cmd, url: u}
		(&server{cmd: cmd}).settle()
		return s
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		panic("the HTTP server did not say where it listens")
	}
}

func (h *httpServer) close() {
	h.cmd.Process.Signal(os.Interrupt)
	h.cmd.Wait()
}

// benchHTTP: clients of one HTTP server, each opening and saving its own
// 900-byte file as fast as it can. With several team sizes, the first n
// of the clients (all connected throughout) work in alternating rounds,
// so that sizes are compared on the same server and the same minutes of a
// shared machine (one after the other, the rate of one build varied by
// a fifth from run to run).
func benchHTTP(r *report, sizes ...int) {
	h := startHTTP(newStateDir())
	defer h.close()
	clients := make([]*client.Client, slices.Max(sizes))
	for i := range clients {
		c, err := client.NewStreamableHttpClient(h.url, transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + benchToken}))
		check(err)
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		check(c.Start(ctx))
		_, err = c.Initialize(ctx, mcp.InitializeRequest{Params: mcp.InitializeParams{
			ProtocolVersion: mcp.ProtocolVersion20251125,
			ClientInfo:      mcp.Implementation{Name: "editord-bench", Version: "1"},
		}})
		cancel()
		check(err)
		clients[i] = c
		defer c.Close()
	}
	content := strings.Repeat("a line of text in a small file\n", 29) // ~900 bytes
	for i := range clients {
		check(os.WriteFile(filepath.Join(*corpus, fmt.Sprintf("bench-scratch/http-%d.txt", i)), []byte(content), 0o644))
	}
	call := func(c *client.Client, name string, args map[string]any) map[string]any {
		res, err := c.CallTool(context.Background(), mcp.CallToolRequest{Params: mcp.CallToolParams{Name: name, Arguments: args}})
		if err != nil {
			panic(fmt.Sprintf("%s: %v", name, err))
		}
		raw, _ := json.Marshal(res.StructuredContent)
		var m map[string]any
		json.Unmarshal(raw, &m)
		if res.IsError {
			panic(fmt.Sprintf("%s: %s", name, raw))
		}
		return m
	}
	measure := func(team []*client.Client, d time.Duration) (lat durs) {
		var mu sync.Mutex
		var wg sync.WaitGroup
		deadline := time.Now().Add(d)
		for i, c := range team {
			wg.Go(func() {
				p := fmt.Sprintf("bench-scratch/http-%d.txt", i)
				var mine durs
				for k := 0; time.Now().Before(deadline); k++ {
					t0 := time.Now()
					o := call(c, "editor_open", map[string]any{"path": p})
					call(c, "editor_save", map[string]any{"path": p, "content": fmt.Sprintf("%s%d\n", content, k), "expected_version": o["version"]})
					mine = append(mine, time.Since(t0))
				}
				mu.Lock()
				lat = append(lat, mine...)
				mu.Unlock()
			})
		}
		wg.Wait()
		return lat
	}
	measure(clients, time.Second) // warm up
	type tally struct {
		lat durs
		el  time.Duration
		cpu time.Duration
	}
	got := make([]tally, len(sizes))
	const rounds, span = 3, 2 * time.Second
	for range rounds {
		for k, n := range sizes {
			cpu0, t0 := cpuTicks(h.cmd.Process.Pid), time.Now()
			lat := measure(clients[:n], span)
			got[k].el += time.Since(t0)
			got[k].cpu += time.Duration(cpuTicks(h.cmd.Process.Pid)-cpu0) * 10 * time.Millisecond // 100 ticks a second
			got[k].lat = append(got[k].lat, lat...)
		}
	}
	rate8 := 0.0
	for k, n := range sizes {
		t := got[k]
		pairs := len(t.lat)
		rate := float64(pairs) / t.el.Seconds()
		goal, v := "—", ""
		switch n {
		case 8:
			goal = "≥ 400/s, p99 ≤ 50 ms"
			v = verdict(boolf(rate >= 400 && t.lat.q(0.99) <= 50*time.Millisecond), 0)
			rate8 = rate
		case 32:
			// Within a tenth of the 8 clients' rate, measured in the rounds
			// between: the ratio of one build ranged 0.88-1.09 over runs
			// on this 2-core machine, whose cores the 32 clients share.
			goal = fmt.Sprintf("no fall from 8 (≥ 0.9× its rate: %.2f×), p99 ≤ 200 ms", rate/rate8)
			v = verdict(boolf(rate >= 0.9*rate8 && t.lat.q(0.99) <= 200*time.Millisecond), 0)
		}
		r.add(fmt.Sprintf("HTTP, %d client(s): open+save pairs/s (p50 / p99 of a pair; server CPU per pair)", n),
			fmt.Sprintf("%.0f/s (%s / %s; %s)", rate, fmtDur(t.lat.q(0.5)), fmtDur(t.lat.q(0.99)), fmtDur(t.cpu/time.Duration(max(pairs, 1)))), "", "", goal, v)
	}
}

// boolf is 0 for true (within goal 0) and 1 for false.
func boolf(ok bool) float64 {
	if ok {
		return 0
	}
	return 1
}

var fsServer = flag.String("fsmcp", os.Getenv("BENCH_FSMCP"), "the filesystem MCP server's script (npm @modelcontextprotocol/server-filesystem), for the 1 MiB stdio rows")

// benchStdioMiB: opening and saving a 1 MiB file over stdio, against the
// filesystem MCP server doing the same (read_text_file, write_file), in
// alternating rounds; and editor::diff of two 1 MiB texts and of two
// identical ones, against git diff --no-index.
func benchStdioMiB(r *report) {
	a, b := mibTexts()
	rel := "bench-scratch/mib.txt"
	abs := filepath.Join(*corpus, rel)
	check(os.WriteFile(abs, []byte(a), 0o644))
	ed := startRaw(*binPath, "serve", "--root", *corpus, "--state-dir", newStateDir())
	defer ed.close()
	(&server{cmd: ed.cmd}).settle()
	var fs *rawClient
	if *fsServer != "" && have("node") {
		fs = startRaw("node", *fsServer, *corpus)
		defer fs.close()
	}
	var edOpen, edSave, fsOpen, fsSave durs
	for round := 0; round < max(5, *runsF); round++ {
		for k := -1; k < 10; k++ {
			raw, d := ed.tool("editor_open", map[string]any{"path": rel})
			version := fieldOf(raw, "version")
			if k >= 0 {
				edOpen = append(edOpen, d)
			}
			content := a
			if k%2 == 0 {
				content = b
			}
			_, d = ed.tool("editor_save", map[string]any{"path": rel, "content": content, "expected_version": version})
			if k >= 0 {
				edSave = append(edSave, d)
			}
		}
		if fs == nil {
			continue
		}
		for k := -1; k < 10; k++ {
			_, d := fs.tool("read_text_file", map[string]any{"path": abs})
			if k >= 0 {
				fsOpen = append(fsOpen, d)
			}
			content := a
			if k%2 == 0 {
				content = b
			}
			_, d = fs.tool("write_file", map[string]any{"path": abs, "content": content})
			if k >= 0 {
				fsSave = append(fsSave, d)
			}
		}
	}
	for _, row := range []struct {
		name   string
		ed, fs durs
	}{{"open a 1 MiB file (stdio, p50)", edOpen, fsOpen}, {"save a 1 MiB file, guarded (stdio, p50)", edSave, fsSave}} {
		if fs == nil {
			r.add(row.name, fmtDur(row.ed.median()), "filesystem MCP server: not installed", "", "≤ 0.8", "")
			continue
		}
		rs, x := ratio(row.ed.median(), row.fs.median())
		r.add(row.name, fmtDur(row.ed.median()), "filesystem MCP server "+fmtDur(row.fs.median()), rs, "≤ 0.8", verdict(x, 0.8))
	}
	// editor::diff against git diff --no-index on the same texts.
	d := filepath.Join(tmpBase, "diff")
	os.MkdirAll(d, 0o755)
	os.WriteFile(filepath.Join(d, "a"), []byte(a), 0o644)
	os.WriteFile(filepath.Join(d, "b"), []byte(b), 0o644)
	var edDiff, edSame, git durs
	for i := -1; i < max(5, *runsF)*3; i++ {
		_, t1 := ed.tool("editor_diff", map[string]any{"before": a, "after": b})
		_, t2 := ed.tool("editor_diff", map[string]any{"before": a, "after": a})
		g := run(d, "git", "diff", "--no-index", "--no-color", "a", "b")
		if i >= 0 {
			edDiff, edSame, git = append(edDiff, t1), append(edSame, t2), append(git, g.dur)
		}
	}
	rs, x := ratio(edDiff.median(), git.median())
	r.add("diff two 1 MiB texts (stdio, p50)", fmtDur(edDiff.median()), "git diff --no-index "+fmtDur(git.median()), rs, "≤ 2", verdict(x, 2))
	r.add("diff two identical 1 MiB texts (stdio, p50)", fmtDur(edSame.median()), "", "", "≤ 10 ms", verdict(float64(edSame.median())/1e6, 10))
}

// rawClient speaks JSON-RPC over a server's stdio with no decoding beyond
// finding the end of each answer, so that rows about large messages time
// the server, not a client's JSON decoding.
type rawClient struct {
	cmd  *exec.Cmd
	in   io.WriteCloser
	out  *bufio.Reader
	id   int
	init []byte // the initialize answer (agent.go reads its instructions)
}

func startRaw(name string, args ...string) *rawClient {
	cmd := exec.Command(name, args...)
	xdg := filepath.Join(tmpBase, "xdg")
	cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+filepath.Join(xdg, "config"), "XDG_STATE_HOME="+filepath.Join(xdg, "state"))
	in, err := cmd.StdinPipe()
	check(err)
	out, err := cmd.StdoutPipe()
	check(err)
	check(cmd.Start())
	c := &rawClient{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 4<<20)}
	c.init, _ = c.call("initialize", map[string]any{"protocolVersion": mcp.LATEST_PROTOCOL_VERSION, "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "editord-bench", "version": "1"}})
	line, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"})
	c.in.Write(append(line, '\n'))
	return c
}

// call sends one request and returns its answer's bytes and the round trip.
func (c *rawClient) call(method string, params any) ([]byte, time.Duration) {
	c.id++
	msg, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": c.id, "method": method, "params": params})
	msg = append(msg, '\n')
	t0 := time.Now()
	_, err := c.in.Write(msg)
	check(err)
	want := []byte(fmt.Sprintf(`"id":%d`, c.id))
	for {
		var line []byte
		for {
			frag, err := c.out.ReadSlice('\n')
			line = append(line, frag...)
			if err == nil {
				break
			}
			if err != bufio.ErrBufferFull {
				panic(fmt.Sprintf("%s: %v", method, err))
			}
		}
		if bytes.Contains(line[:min(len(line), 64)], want) || bytes.Contains(line[max(0, len(line)-64):], want) {
			d := time.Since(t0)
			if bytes.Contains(line, []byte(`"isError":true`)) || bytes.Contains(line[:min(len(line), 64)], []byte(`"error"`)) {
				panic(fmt.Sprintf("%s: %.300s", method, line))
			}
			return line, d
		}
	}
}

func (c *rawClient) tool(name string, args map[string]any) ([]byte, time.Duration) {
	return c.call("tools/call", map[string]any{"name": name, "arguments": args})
}

func (c *rawClient) close() {
	c.in.Close()
	c.cmd.Wait()
}

// fieldOf finds "name":"value" in an answer (the structured content's).
func fieldOf(b []byte, name string) string {
	k := []byte(`"` + name + `":"`)
	i := bytes.LastIndex(b, k)
	if i < 0 {
		return ""
	}
	rest := b[i+len(k):]
	return string(rest[:bytes.IndexByte(rest, '"')])
}

// benchFirst: the first find, search and git status of a server started
// one second earlier (its caches cold but for what it warms at start),
// against fzf, rg and git run once each time, in alternating rounds. Two
// kinds of start: on a fresh state dir (nothing kept), and a restart on
// the state dir a server of the project used before (what it kept there
// for its next start, validated at start: a project's servers share
// theirs). BENCH_FIRST=fresh or kept runs one kind only.
func benchFirst(r *report) {
	files := strings.Split(strings.TrimSpace(git("ls-files")), "\n")
	basename, _ := pickFindQueries(files)
	pattern := envStr("BENCH_RARE", "NewServeMux")
	kinds := []string{"fresh", "kept"}
	if k := os.Getenv("BENCH_FIRST"); k == "fresh" || k == "kept" {
		kinds = []string{k}
	}
	for _, kind := range kinds {
		benchFirstKind(r, kind, basename, pattern)
	}
}

func benchFirstKind(r *report, kind, basename, pattern string) {
	type pair struct{ ed, ref durs }
	var find, search, status pair
	// kept: one state dir per call, used once before by a server that ran
	// until it settled (and kept what it keeps).
	kept := map[string]string{}
	stateFor := func(call string) string {
		if kind == "fresh" {
			return newStateDir()
		}
		if kept[call] == "" {
			kept[call] = newStateDir()
			s := startRaw(*binPath, "serve", "--root", *corpus, "--state-dir", kept[call])
			(&server{cmd: s.cmd}).settle()
			s.close()
		}
		return kept[call]
	}
	for round := 0; round < max(5, *runsF); round++ {
		s := startRaw(*binPath, "serve", "--root", *corpus, "--state-dir", stateFor("find"))
		time.Sleep(time.Second)
		_, d := s.tool("editor_find", map[string]any{"query": basename})
		find.ed = append(find.ed, d)
		s.close()
		if have("fzf") {
			find.ref = append(find.ref, pipeline(*corpus, []string{"git", "ls-files"}, []string{"fzf", "--filter", basename}).dur)
		}
		s = startRaw(*binPath, "serve", "--root", *corpus, "--state-dir", stateFor("search"))
		time.Sleep(time.Second)
		_, d = s.tool("editor_search", map[string]any{"pattern": pattern, "literal": true})
		search.ed = append(search.ed, d)
		s.close()
		if have("rg") {
			search.ref = append(search.ref, run(*corpus, "rg", append(append([]string{}, rgBase...), "-F", pattern)...).dur)
		}
		s = startRaw(*binPath, "serve", "--root", *corpus, "--state-dir", stateFor("status"))
		time.Sleep(time.Second)
		_, d = s.tool("editor_git_status", map[string]any{})
		status.ed = append(status.ed, d)
		s.close()
		status.ref = append(status.ref, run(*corpus, "git", "status", "--porcelain=v1").dur)
	}
	when := "server started 1 s earlier on a fresh state dir"
	if kind == "kept" {
		when = "server restarted 1 s earlier on its state dir"
	}
	for _, row := range []struct {
		name, peer string
		p          pair
	}{
		{"first find `" + basename + "`, " + when, "git ls-files | fzf --filter", find},
		{"first search `" + pattern + "`, " + when, "rg", search},
		{"first git::status, " + when, "git status", status},
	} {
		if len(row.p.ref) == 0 {
			r.add(row.name, fmtDur(row.p.ed.median()), row.peer+": not installed", "", "≤ 1.0", "")
			continue
		}
		rs, x := ratio(row.p.ed.median(), row.p.ref.median())
		r.add(row.name, fmtDur(row.p.ed.median()), row.peer+" "+fmtDur(row.p.ref.median()), rs, "≤ 1.0", verdict(x, 1.0))
	}
}

// benchExact: find by exact path, for the last tracked file in byte order
// (past max_find_candidates on a corpus of more than 200,000 files), on a
// warm server, against fzf given the same query.
func benchExact(r *report) {
	files := strings.Split(strings.TrimSpace(git("ls-files")), "\n")
	slices.Sort(files)
	q := files[len(files)-1]
	s := startRaw(*binPath, "serve", "--root", *corpus, "--state-dir", newStateDir())
	defer s.close()
	(&server{cmd: s.cmd}).settle()
	var ed, fz durs
	found := true
	for i := -2; i < max(30, *runsF); i++ {
		raw, d := s.tool("editor_find", map[string]any{"query": q, "limit": 5})
		if i >= 0 {
			ed = append(ed, d)
		}
		if !bytes.Contains(raw, []byte(`"matches":[{"path":"`+q+`"`)) {
			found = false
		}
		if have("fzf") && i < *runsF {
			res := pipeline(*corpus, []string{"git", "ls-files"}, []string{"fzf", "--filter", q})
			if i >= 0 {
				fz = append(fz, res.dur)
			}
		}
	}
	name := fmt.Sprintf("find the exact path `%s` (last of %d files in byte order; warm server, p50)", q, len(files))
	if !found {
		r.add(name, fmtDur(ed.median())+" NOT FOUND", "", "", "found, ≤ 0.1", "MISS")
		return
	}
	if len(fz) == 0 {
		r.add(name, fmtDur(ed.median()), "fzf: not installed", "", "found, ≤ 0.1", "")
		return
	}
	rs, x := ratio(ed.median(), fz.median())
	r.add(name, fmtDur(ed.median()), "git ls-files | fzf --filter "+fmtDur(fz.median()), rs, "found, ≤ 0.1", verdict(x, 0.1))
}

// benchCapped: a search capped at max_matches N against rg | head -n N,
// checking that editord's N hits are the first N of all of rg's hits in
// the contract's order (path bytes, then line).
func benchCapped(r *report) {
	if !have("rg") {
		r.add("capped search", "", "rg: not installed", "", "≤ 1.0", "")
		return
	}
	pattern := envStr("BENCH_VERY_COMMON", "err")
	const n = 20000
	s := startRaw(*binPath, "serve", "--root", *corpus, "--state-dir", newStateDir())
	defer s.close()
	(&server{cmd: s.cmd}).settle()
	rgArgs := append(append([]string{}, rgBase...), "-F", pattern)
	var ed, rg durs
	var raw []byte
	// 21 rounds at least: each is tens of milliseconds, and rg's time
	// alone varied by a fifth over five.
	for i := -1; i < max(21, *runsF); i++ {
		var d time.Duration
		raw, d = s.tool("editor_search", map[string]any{"pattern": pattern, "literal": true, "max_matches": n})
		res := headPipe(*corpus, rgArgs, n)
		if i >= 0 {
			ed, rg = append(ed, d), append(rg, res.dur)
		}
	}
	// Correctness, untimed: the first n of all of rg's hits, in order.
	var msg struct {
		Result struct {
			StructuredContent searchResp `json:"structuredContent"`
		} `json:"result"`
	}
	json.Unmarshal(raw, &msg)
	var got []string
	for _, f := range msg.Result.StructuredContent.Files {
		for _, h := range f.Hits {
			got = append(got, f.Path+":"+strconv.Itoa(h.Line))
		}
	}
	all := run(*corpus, "rg", rgArgs...)
	type hit struct {
		path string
		line int
	}
	var hits []hit
	for _, l := range strings.Split(string(all.out), "\n") {
		parts := strings.SplitN(l, ":", 3)
		if len(parts) < 3 {
			continue
		}
		ln, err := strconv.Atoi(parts[1])
		if err != nil {
			continue
		}
		hits = append(hits, hit{parts[0], ln})
	}
	slices.SortFunc(hits, func(a, b hit) int {
		if c := strings.Compare(a.path, b.path); c != 0 {
			return c
		}
		return a.line - b.line
	})
	same := len(got) == min(n, len(hits))
	for i := 0; same && i < len(got); i++ {
		same = got[i] == hits[i].path+":"+strconv.Itoa(hits[i].line)
	}
	v := "same first hits as rg"
	if !same {
		v = fmt.Sprintf("DIFFERENT first hits (%d vs %d)", len(got), min(n, len(hits)))
	}
	rs, x := ratio(ed.median(), rg.median())
	verd := verdict(x, 1.0)
	if !same {
		verd = "MISS"
	}
	r.add(fmt.Sprintf("search `%s` capped at %d hits (warm server, p50; %s of %d)", pattern, n, v, len(hits)), fmtDur(ed.median()),
		fmt.Sprintf("rg | head -n %d %s", n, fmtDur(rg.median())), rs, "≤ 1.0, same hits", verd)
}

// headPipe runs rg args | head -n n through a shell, so that rg ends on
// SIGPIPE when head has its lines (pipeline's in-process pipe would keep
// rg blocked).
func headPipe(dir string, args []string, n int) runResult {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	return run(dir, "sh", "-c", "rg "+strings.Join(q, " ")+" | head -n "+strconv.Itoa(n))
}
