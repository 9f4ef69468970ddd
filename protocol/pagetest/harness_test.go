package pagetest

// The harness: a workspace in a temp dir, `editord serve --http` on it (the
// real binary), a headless chromium with the page open, and agents: real
// MCP clients (mcp-go, each over stdio to its own `editord serve` process)
// sharing the state dir. The page is driven as a person would: accessible
// roles and names find things, real key events type.

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

var (
	binary   string // editord, built once
	chromium string // the browser, or "" when absent
)

func TestMain(m *testing.M) {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			chromium = p
			break
		}
	}
	dir, err := os.MkdirTemp("", "editord-page-")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "editord")
	if out, err := exec.Command("go", "build", "-o", binary, "../../cmd/editord").CombinedOutput(); err != nil {
		panic(fmt.Sprintf("building editord: %v\n%s", err, out))
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// needBrowser skips when no chromium is installed, unless the environment
// says the browser tests must run (.ci/run sets EDITORD_BROWSER_TESTS=1).
func needBrowser(t testing.TB) {
	t.Helper()
	if chromium != "" {
		return
	}
	if os.Getenv("EDITORD_BROWSER_TESTS") == "1" {
		t.Fatal("EDITORD_BROWSER_TESTS=1 but no chromium on PATH: install Debian's chromium (apt-get install -y chromium)")
	}
	t.Skip("no chromium on PATH: the page's browser tests need it (apt-get install -y chromium; .ci/run installs it)")
}

type env struct {
	t      testing.TB
	root   string
	state  string
	config string
	base   string // http://127.0.0.1:PORT
	addr   string // 127.0.0.1:PORT, kept across a server restart
	token  string
	server *exec.Cmd
	srvEnd chan struct{} // closed once the server process has been waited for
	srvLog *syncBuf
	ctx    context.Context // the page's tab
	cancel context.CancelFunc
	logs   *syncBuf // the page's console and errors
	host   string   // the name the page is opened at (opts.host), or ""
	opener string   // with opts.open: the file the opener writes its argument to
}

type syncBuf struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuf) add(line string) {
	s.mu.Lock()
	s.b.WriteString(line + "\n")
	s.mu.Unlock()
}

func (s *syncBuf) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

type opts struct {
	rootName string            // the workspace folder's name (default ws)
	config   string            // TOML for --config
	noToken  bool              // open the page without the token
	setup    func(root string) // runs before the server starts
	// host: serve with --allow-remote and open the page at this name,
	// which the browser resolves to the server's loopback address (as a
	// machine's own name resolves to it on a LAN or through /etc/hosts).
	host string
	// open: serve with --open, the opener being a script that notes the
	// launch page it is given; the browser opens that page (opened).
	open bool
}

// newEnv writes files into a fresh workspace, serves it, and opens the page.
func newEnv(t testing.TB, files map[string]string, o opts) *env {
	t.Helper()
	needBrowser(t)
	base, _ := filepath.EvalSymlinks(t.TempDir())
	name := o.rootName
	if name == "" {
		name = "ws"
	}
	e := &env{t: t, root: filepath.Join(base, name), state: filepath.Join(base, "state"), token: "page-test-token-0123456789abcdef", srvLog: &syncBuf{}, logs: &syncBuf{}, host: o.host}
	for p, c := range files {
		e.write(p, c)
	}
	os.MkdirAll(e.root, 0o755)
	if o.setup != nil {
		o.setup(e.root)
	}
	if o.config != "" {
		e.config = filepath.Join(base, "config.toml")
		os.WriteFile(e.config, []byte(o.config), 0o644)
	}
	if o.open {
		e.opener = filepath.Join(base, "opened")
	}
	e.startServer()
	e.openBrowser()
	if e.host != "" {
		_, port, _ := strings.Cut(e.addr, ":")
		e.base = "http://" + e.host + ":" + port
	}
	if o.noToken {
		e.navigate(e.base + "/")
	} else if o.open {
		e.navigate("file://" + e.opened())
		e.waitJS(`document.body.dataset.ready === "true"`, "the page opened by --open to load the workspace")
	} else {
		e.navigate(e.base + "/#token=" + e.token)
		e.waitJS(`document.body.dataset.ready === "true"`, "the page to load the workspace")
	}
	return e
}

// opened waits for what the --open opener was given.
func (e *env) opened() string {
	e.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		if b, err := os.ReadFile(e.opener); err == nil {
			return string(b)
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("--open ran no opener:\n%s", e.srvLog)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func (e *env) args(extra ...string) []string {
	a := []string{"--root", e.root, "--state-dir", e.state}
	if e.config != "" {
		a = append(a, "--config", e.config)
	}
	return append(a, extra...)
}

func (e *env) startServer() {
	e.t.Helper()
	addr := e.addr
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	serve := []string{"serve", "--http", addr}
	if e.host != "" {
		serve = append(serve, "--allow-remote")
	}
	env := []string{"HOME=" + e.t.TempDir(), "EDITORD_TOKEN=" + e.token}
	if e.opener != "" {
		script := e.opener + ".sh"
		os.WriteFile(script, []byte("#!/bin/sh\nprintf '%s' \"$1\" > "+e.opener+".tmp && mv "+e.opener+".tmp "+e.opener+"\n"), 0o755)
		serve = append(serve, "--open")
		env = append(env, "BROWSER="+script)
	}
	cmd := exec.Command(binary, append(serve, e.args()...)...)
	cmd.Env = append(os.Environ(), env...)
	pipe, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		e.t.Fatal(err)
	}
	e.server = cmd
	done := make(chan struct{})
	e.srvEnd = done
	e.t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
		}
	})
	url := make(chan string, 1)
	re := regexp.MustCompile(`^editor: (http://[^/]+)/#token=`)
	go func() {
		defer close(done)
		sc := bufio.NewScanner(pipe)
		for sc.Scan() {
			e.srvLog.add(sc.Text())
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				url <- m[1]
			}
		}
		io.Copy(io.Discard, pipe)
		cmd.Wait()
	}()
	select {
	case u := <-url:
		e.addr = strings.TrimPrefix(u, "http://")
		if e.base == "" || e.host == "" {
			e.base = u
		}
	case <-time.After(20 * time.Second):
		e.t.Fatalf("editord serve --http printed no editor link:\n%s", e.srvLog)
	}
}

// stopServer ends the HTTP server (a restart follows with startServer).
func (e *env) stopServer() {
	e.server.Process.Signal(syscall.SIGTERM)
	<-e.srvEnd
}

func browserFlags(userData, host string) []chromedp.ExecAllocatorOption {
	var rules []chromedp.ExecAllocatorOption
	if host != "" {
		rules = append(rules, chromedp.Flag("host-resolver-rules", "MAP "+host+" 127.0.0.1"))
	}
	return append(rules,
		chromedp.ExecPath(chromium),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("no-default-browser-check", true),
		chromedp.UserDataDir(userData),
		chromedp.WindowSize(1280, 800),
	)
}

func (e *env) openBrowser() {
	e.t.Helper()
	// A fresh profile, removed by us: chromium's helper processes may still
	// be writing into it for a moment after it exits, which t.TempDir's
	// cleanup would report as a failure.
	profile, err := os.MkdirTemp("", "editord-chromium-")
	if err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() {
		for range 20 {
			if os.RemoveAll(profile) == nil {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	})
	actx, acancel := chromedp.NewExecAllocator(context.Background(), browserFlags(profile, e.host)...)
	ctx, cancel := chromedp.NewContext(actx)
	e.ctx = ctx
	e.cancel = func() { cancel(); acancel() }
	e.t.Cleanup(e.cancel)
	chromedp.ListenTarget(ctx, func(ev any) {
		switch ev := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			var parts []string
			for _, a := range ev.Args {
				parts = append(parts, string(a.Value)+a.Description)
			}
			e.logs.add(fmt.Sprintf("console.%s: %s", ev.Type, strings.Join(parts, " ")))
		case *runtime.EventExceptionThrown:
			e.logs.add("exception: " + ev.ExceptionDetails.Error())
		}
	})
	// Before any script of the page: collect CSP violations, which must
	// never happen (the page is built for its own policy).
	watch := `window.__cspViolations = []; document.addEventListener("securitypolicyviolation", (e) => window.__cspViolations.push(e.violatedDirective + " " + e.blockedURI));`
	if err := chromedp.Run(ctx, chromedp.ActionFunc(func(ctx context.Context) error {
		_, err := page.AddScriptToEvaluateOnNewDocument(watch).Do(ctx)
		return err
	})); err != nil {
		e.t.Fatalf("starting chromium: %v", err)
	}
	e.t.Cleanup(func() {
		if !e.t.Failed() {
			var v []string
			cctx, cancel := context.WithTimeout(e.ctx, 5*time.Second)
			defer cancel()
			if err := chromedp.Run(cctx, chromedp.Evaluate(`window.__cspViolations || []`, &v)); err == nil && len(v) > 0 {
				e.t.Errorf("the page broke its Content-Security-Policy: %v", v)
			}
			if strings.Contains(e.logs.String(), "exception: ") {
				e.t.Errorf("the page threw:\n%s", e.logs)
			}
		}
		if e.t.Failed() {
			e.t.Logf("page console:\n%s\nserver:\n%s", e.logs, e.srvLog)
		}
	})
}

// secondPage opens another browser (its own profile) on the same server,
// as a second person's window would be.
func (e *env) secondPage() *env {
	e.t.Helper()
	p := &env{t: e.t, root: e.root, state: e.state, config: e.config, base: e.base, addr: e.addr, token: e.token,
		server: e.server, srvLog: e.srvLog, logs: &syncBuf{}, host: e.host}
	p.openBrowser()
	p.navigate(p.base + "/#token=" + p.token)
	p.waitJS(`document.body.dataset.ready === "true"`, "the second page to load the workspace")
	return p
}

func (e *env) run(actions ...chromedp.Action) {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(e.ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Run(ctx, actions...); err != nil {
		e.t.Fatalf("browser: %v\npage console:\n%s", err, e.logs)
	}
}

func (e *env) navigate(url string) {
	e.t.Helper()
	e.run(chromedp.Navigate(url))
}

// reload reloads the page (the token is in sessionStorage by then).
func (e *env) reload() {
	e.t.Helper()
	e.run(chromedp.Reload())
	e.waitJS(`document.body.dataset.ready === "true"`, "the page to load the workspace after a reload")
}

// js evaluates an expression in the page and decodes its value into out.
func (e *env) js(expr string, out any) {
	e.t.Helper()
	e.run(chromedp.Evaluate(expr, out))
}

// settle waits until the page has run what its last input started: a
// frame, then a task after it, so that every handler, promise reaction
// and request those began has run (the page has no timer of its own on
// input). Tests that check that something did not happen wait on it.
func (e *env) settle() {
	e.t.Helper()
	var ok bool
	e.run(chromedp.Evaluate(`new Promise((done) => requestAnimationFrame(() => setTimeout(() => done(true), 0)))`, &ok, awaitPromise))
}

// waitJS polls a page expression until it is truthy. Errors while the
// page navigates or reloads (no execution context yet) are retried.
func (e *env) waitJS(expr, what string) {
	e.t.Helper()
	deadline := time.Now().Add(patience)
	var last error
	for {
		var ok bool
		ctx, cancel := context.WithTimeout(e.ctx, 5*time.Second)
		last = chromedp.Run(ctx, chromedp.Evaluate(`!!(`+expr+`)`, &ok))
		cancel()
		if last == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("waiting for %s (%s): %v\npage:\n%s\npage console:\n%s\nserver:\n%s", what, expr, last, e.snapshot(), e.logs, e.srvLog)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// snapshot is what a person would see of the page's state when a wait
// fails: the tabs with their titles and the status bar's messages.
func (e *env) snapshot() string {
	var out string
	ctx, cancel := context.WithTimeout(e.ctx, 5*time.Second)
	defer cancel()
	err := chromedp.Run(ctx, chromedp.Evaluate(`[...document.querySelectorAll(".tabs [role=tab]")].map((t) => "tab " + t.dataset.path + ": " + t.title).concat(["status: " + (document.querySelector(".status")?.innerText ?? "")]).join("\n")`, &out))
	if err != nil {
		return err.Error()
	}
	return out
}

// node finds the element with an accessible role and name, waiting for it.
func (e *env) node(role, name string) cdp.BackendNodeID {
	e.t.Helper()
	deadline := time.Now().Add(patience)
	for {
		if id, ok := e.find(role, name); ok {
			return id
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("no %s named %q on the page\npage console:\n%s", role, name, e.logs)
		}
		time.Sleep(30 * time.Millisecond)
	}
}

// find looks an element up by accessible role and name once.
func (e *env) find(role, name string) (cdp.BackendNodeID, bool) {
	ids := e.findAll(role, name)
	if len(ids) == 0 {
		return 0, false
	}
	return ids[0], true
}

// findAll lists the elements with that role and name, in document order.
func (e *env) findAll(role, name string) []cdp.BackendNodeID {
	var ids []cdp.BackendNodeID
	e.run(chromedp.ActionFunc(func(ctx context.Context) error {
		doc, err := dom.GetDocument().Do(ctx)
		if err != nil {
			return err
		}
		nodes, err := accessibility.QueryAXTree().WithBackendNodeID(doc.BackendNodeID).WithRole(role).WithAccessibleName(name).Do(ctx)
		if err != nil {
			return err
		}
		for _, n := range nodes {
			if n.BackendDOMNodeID != 0 && !n.Ignored {
				ids = append(ids, n.BackendDOMNodeID)
			}
		}
		return nil
	}))
	return ids
}

// gone waits until no element has that role and name.
func (e *env) gone(role, name string) {
	e.t.Helper()
	deadline := time.Now().Add(patience)
	for {
		if _, ok := e.find(role, name); !ok {
			return
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("the %s named %q is still on the page", role, name)
		}
		time.Sleep(30 * time.Millisecond)
	}
}

// click clicks the middle of the element with that role and name. The page
// re-renders as the record changes: a node replaced between finding and
// clicking it is looked up again.
func (e *env) click(role, name string) {
	e.t.Helper()
	e.clickNth(role, name, 0)
}

// clickNth clicks the i-th (0-based) element with that role and name.
func (e *env) clickNth(role, name string, i int) {
	e.t.Helper()
	for try := 0; ; try++ {
		var ids []cdp.BackendNodeID
		waitFor(e.t, fmt.Sprintf("%d %s named %q", i+1, role, name), func() bool {
			ids = e.findAll(role, name)
			return len(ids) > i
		})
		err := e.clickNode(ids[i])
		if err == nil {
			return
		}
		if try > 20 {
			e.t.Fatalf("clicking the %s named %q: %v", role, name, err)
		}
		time.Sleep(30 * time.Millisecond)
	}
}

func (e *env) clickNode(id cdp.BackendNodeID) error {
	ctx, cancel := context.WithTimeout(e.ctx, 10*time.Second)
	defer cancel()
	return chromedp.Run(ctx, chromedp.ActionFunc(func(ctx context.Context) error {
		if err := dom.ScrollIntoViewIfNeeded().WithBackendNodeID(id).Do(ctx); err != nil {
			return err
		}
		box, err := dom.GetBoxModel().WithBackendNodeID(id).Do(ctx)
		if err != nil {
			return err
		}
		q := box.Border
		x, y := (q[0]+q[2]+q[4]+q[6])/4, (q[1]+q[3]+q[5]+q[7])/4
		for _, typ := range []input.MouseType{input.MousePressed, input.MouseReleased} {
			if err := input.DispatchMouseEvent(typ, x, y).WithButton(input.Left).WithClickCount(1).Do(ctx); err != nil {
				return err
			}
		}
		return nil
	}))
}

// attr reads an attribute of the element with that role and name.
func (e *env) attr(role, name, attr string) string {
	e.t.Helper()
	id := e.node(role, name)
	var v string
	e.run(chromedp.ActionFunc(func(ctx context.Context) error {
		obj, err := dom.ResolveNode().WithBackendNodeID(id).Do(ctx)
		if err != nil {
			return err
		}
		res, exc, err := runtime.CallFunctionOn(fmt.Sprintf(`function() { return this.getAttribute(%q) || "" }`, attr)).WithObjectID(obj.ObjectID).WithReturnByValue(true).Do(ctx)
		if err != nil {
			return err
		}
		if exc != nil {
			return exc
		}
		return json.Unmarshal(res.Value, &v)
	}))
	return v
}

// text is the textContent of the element with that role and name. The
// page re-renders as the record changes, so a node that went away between
// finding and reading it is looked up again.
func (e *env) text(role, name string) string {
	e.t.Helper()
	for try := 0; ; try++ {
		id := e.node(role, name)
		var v string
		ctx, cancel := context.WithTimeout(e.ctx, 10*time.Second)
		err := chromedp.Run(ctx, chromedp.ActionFunc(func(ctx context.Context) error {
			obj, err := dom.ResolveNode().WithBackendNodeID(id).Do(ctx)
			if err != nil {
				return err
			}
			res, _, err := runtime.CallFunctionOn(`function() { return this.textContent }`).WithObjectID(obj.ObjectID).WithReturnByValue(true).Do(ctx)
			if err != nil {
				return err
			}
			return json.Unmarshal(res.Value, &v)
		}))
		cancel()
		if err == nil {
			return v
		}
		if try > 20 {
			e.t.Fatalf("reading the %s named %q: %v", role, name, err)
		}
		time.Sleep(30 * time.Millisecond)
	}
}

// typeText sends key events for each character of s to the focused
// element, the way a keyboard does: one keyDown carrying the text (so a
// page that handles the key and prevents its default gets no text too),
// then keyUp. chromedp's KeyEvent sends the text as a separate char event,
// which Chrome inserts even when the page handled the keyDown.
func (e *env) typeText(s string) {
	e.t.Helper()
	e.run(keys(s, 0))
}

// key sends one key with modifiers (kb.Enter, or "s" with ctrl for Ctrl-S).
func (e *env) key(k string, mods ...input.Modifier) {
	e.t.Helper()
	var m input.Modifier
	for _, x := range mods {
		m |= x
	}
	e.run(keys(k, m))
}

func keys(s string, mods input.Modifier) chromedp.Action {
	return chromedp.ActionFunc(func(ctx context.Context) error {
		for _, r := range s {
			down := &input.DispatchKeyEventParams{Type: input.KeyRawDown, Modifiers: mods}
			if k, ok := kb.Keys[r]; ok {
				down.Key, down.Code = k.Key, k.Code
				down.WindowsVirtualKeyCode, down.NativeVirtualKeyCode = k.Windows, k.Native
				if k.Shift {
					down.Modifiers |= input.ModifierShift
				}
				if k.Print && mods&^input.ModifierShift == 0 {
					down.Type, down.Text, down.UnmodifiedText = input.KeyDown, k.Text, k.Unmodified
				}
			} else {
				down.Key, down.Type, down.Text, down.UnmodifiedText = string(r), input.KeyDown, string(r), string(r)
			}
			up := *down
			up.Type, up.Text, up.UnmodifiedText = input.KeyUp, "", ""
			if err := down.Do(ctx); err != nil {
				return err
			}
			if err := up.Do(ctx); err != nil {
				return err
			}
		}
		return nil
	})
}

// editorText is the text of the editor's rendered lines, joined by "\n"
// (what the person sees, not the file's bytes).
func (e *env) editorText() string {
	var s string
	e.js(`[...document.querySelectorAll("#editor-pane .cm-content .cm-line")].map(l => l.textContent).join("\n")`, &s)
	return s
}

// waitEditor waits until the editor shows text containing want.
func (e *env) waitEditor(want, what string) {
	e.t.Helper()
	e.waitJS(fmt.Sprintf(`[...document.querySelectorAll("#editor-pane .cm-content .cm-line")].map(l => l.textContent).join("\n").includes(%q)`, want), what)
}

// focusEditor clicks into the editor's first visible line, then moves the
// caret to the start of the document with Ctrl-Home.
func (e *env) focusEditor() {
	e.t.Helper()
	e.node("textbox", "File content")
	var at []float64
	e.js(`(() => { const r = document.querySelector("#editor-pane .cm-line").getBoundingClientRect(); return [r.left + 4, r.top + r.height / 2] })()`, &at)
	e.run(chromedp.ActionFunc(func(ctx context.Context) error {
		for _, typ := range []input.MouseType{input.MousePressed, input.MouseReleased} {
			if err := input.DispatchMouseEvent(typ, at[0], at[1]).WithButton(input.Left).WithClickCount(1).Do(ctx); err != nil {
				return err
			}
		}
		return nil
	}))
	e.key(kb.Home, input.ModifierCtrl)
}

func (e *env) abs(p string) string { return filepath.Join(e.root, filepath.FromSlash(p)) }

func (e *env) write(p, content string) {
	e.t.Helper()
	os.MkdirAll(filepath.Dir(e.abs(p)), 0o755)
	if err := os.WriteFile(e.abs(p), []byte(content), 0o644); err != nil {
		e.t.Fatal(err)
	}
}

func (e *env) read(p string) string {
	e.t.Helper()
	b, err := os.ReadFile(e.abs(p))
	if err != nil {
		e.t.Fatal(err)
	}
	return string(b)
}

// waitFile waits until a file holds exactly want.
func (e *env) waitFile(p, want string) {
	e.t.Helper()
	deadline := time.Now().Add(patience)
	for {
		b, _ := os.ReadFile(e.abs(p))
		if string(b) == want {
			return
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("%s holds %q, want %q\npage console:\n%s", p, b, want, e.logs)
		}
		time.Sleep(30 * time.Millisecond)
	}
}

// agent is a real MCP client over stdio to its own editord process on the
// same workspace and state dir.
type agent struct {
	t testing.TB
	c *client.Client
}

func (e *env) agent(name string) *agent {
	e.t.Helper()
	c, err := client.NewStdioMCPClient(binary, []string{"HOME=" + e.t.TempDir()}, append([]string{"serve"}, e.args()...)...)
	if err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() { c.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if _, err := c.Initialize(ctx, mcp.InitializeRequest{Params: mcp.InitializeParams{
		ProtocolVersion: mcp.LATEST_PROTOCOL_VERSION,
		ClientInfo:      mcp.Implementation{Name: name, Version: "1"},
	}}); err != nil {
		e.t.Fatal(err)
	}
	return &agent{t: e.t, c: c}
}

// call runs a tool and returns its structured result; a refusal fails the test.
func (a *agent) call(tool string, args map[string]any) map[string]any {
	a.t.Helper()
	out, err := a.try(tool, args)
	if err != nil {
		a.t.Fatalf("%s %v: %v", tool, args, err)
	}
	return out
}

func (a *agent) try(tool string, args map[string]any) (map[string]any, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res, err := a.c.CallTool(ctx, mcp.CallToolRequest{Params: mcp.CallToolParams{Name: tool, Arguments: args}})
	if err != nil {
		return nil, err
	}
	raw, _ := json.Marshal(res.StructuredContent)
	var out map[string]any
	json.Unmarshal(raw, &out)
	if res.IsError {
		return out, fmt.Errorf("refused: %s", raw)
	}
	return out, nil
}

// dirty reports whether the record shows a draft for path.
func (a *agent) dirty(path string) bool {
	a.t.Helper()
	for _, b := range a.call("editor_buffers_list", map[string]any{})["buffers"].([]any) {
		if m := b.(map[string]any); m["path"] == path {
			return m["dirty"] == true
		}
	}
	return false
}

// bufferPaths lists the record's buffers as the agent sees them.
func (a *agent) bufferPaths() []string {
	a.t.Helper()
	var out []string
	for _, b := range a.call("editor_buffers_list", map[string]any{})["buffers"].([]any) {
		out = append(out, b.(map[string]any)["path"].(string))
	}
	return out
}

// waitFor polls cond until it holds.
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(patience)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(30 * time.Millisecond)
	}
}

// awaitPromise makes an Evaluate wait for the promise its expression returns.
func awaitPromise(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }

// clickAt clicks the middle of the first element a CSS selector matches
// (for lists whose items' accessible names are their whole text).
func (e *env) clickAt(selector string) {
	e.t.Helper()
	e.waitJS(fmt.Sprintf(`document.querySelector(%q)`, selector), selector)
	var at []float64
	e.js(fmt.Sprintf(`(() => { const el = document.querySelector(%q); el.scrollIntoView({block: "nearest"}); const r = el.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2] })()`, selector), &at)
	e.run(chromedp.ActionFunc(func(ctx context.Context) error {
		for _, typ := range []input.MouseType{input.MousePressed, input.MouseReleased} {
			if err := input.DispatchMouseEvent(typ, at[0], at[1]).WithButton(input.Left).WithClickCount(1).Do(ctx); err != nil {
				return err
			}
		}
		return nil
	}))
}

// patience is how long a wait for the page lasts: long, because CI runs
// the browser beside every other package's tests on few cores.
const patience = 45 * time.Second
