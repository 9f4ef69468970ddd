package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/editord/editord/shell"
)

// Server is one running language server for one workspace root.
type Server struct {
	Name string // the [lsp.NAME] it was configured as
	Root string // the workspace folder it serves

	cfg     ServerConfig
	program string
	proc    process
	conn    *conn
	// Sandboxed is true when the server runs in shell/sandbox (box.go).
	Sandboxed bool
	covered   map[string]bool // what its box hides or covers
	Started   time.Time
	// Ready is how long start-up took: the process started and answered
	// initialize.
	Ready time.Duration

	// sending orders the document notifications (a document's versions
	// reach the server in order); it is held while one is written, never
	// with mu, which the reader of the server's messages takes.
	sending  sync.Mutex
	mu       sync.Mutex
	docs     map[string]*doc
	diags    map[string]*fileDiags
	seq      uint64        // publications of diagnostics so far
	changed  chan struct{} // closed (and replaced) at each publication
	progress map[string]bool
	lastUse  time.Time
	cursor   int64 // the change journal's seq this server has been told of; -1 before any
	stopping bool

	// versions numbers every text sent, across documents, so that a
	// document closed and opened again never takes a number it had: a
	// publication about its old text, still on its way, would otherwise
	// read as one about the new (what made the page miss an agent's error).
	versions int
	// versioned is set once the server has named the version of a
	// publication: then a publication without one is about the disk, not
	// about the text held open.
	versioned bool
	// gen counts the notifications sent (every change of what the server
	// holds).
	gen uint64
	// sentAt and publishedAt are when the last notification was sent and
	// the last diagnostics published (WaitDiagnostics' settling).
	sentAt, publishedAt time.Time
	// diagnoseCommand: the server offers goplsDiagnose; diagnosedGen is
	// the gen of the last one it answered (diagnose.go).
	diagnoseCommand bool
	diagnosedGen    uint64
}

// doc is a document the server holds open.
type doc struct {
	version  int
	text     string
	language string
	draft    bool // its text is a person's draft, not the disk's
	used     time.Time
	sentAt   uint64 // publications of diagnostics before its text was last sent
}

// fileDiags is the last publication of diagnostics for one document.
type fileDiags struct {
	version *int
	list    []Diagnostic
	seq     uint64
	gen     uint64    // the server's gen when it was published
	at      time.Time // when it was published
}

// MissingError is a server whose program is not installed.
type MissingError struct {
	Name, Program, Install string
}

func (e *MissingError) Error() string {
	msg := fmt.Sprintf("the language server %s ([lsp.%s] command) is not installed or not on PATH", e.Program, e.Name)
	if e.Install != "" {
		msg += "; install it with `" + e.Install + "`"
	}
	return msg + ", or set [lsp." + e.Name + "] command in the config to where it is"
}

// ExitedError is a request the server did not answer because it exited.
type ExitedError struct {
	Name   string
	Stderr string
}

func (e *ExitedError) Error() string {
	msg := fmt.Sprintf("the language server [lsp.%s] exited", e.Name)
	if t := strings.TrimSpace(e.Stderr); t != "" {
		if len(t) > 600 {
			t = "…" + t[len(t)-600:]
		}
		msg += ": " + t
	}
	return msg + "; the next call starts it again"
}

// initTimeout bounds a server's start-up (gopls loads the workspace's
// packages lazily, after initialize, so this is only the handshake).
const initTimeout = 60 * time.Second

// start runs and initializes a server for root.
func (m *Manager) start(ctx context.Context, name string, cfg ServerConfig, root string, env []string) (*Server, error) {
	if len(cfg.Command) == 0 {
		return nil, fmt.Errorf("[lsp.%s] has no command", name)
	}
	program, err := shell.LookPath(cfg.Command[0], envValue(env, "PATH"))
	if err != nil {
		return nil, &MissingError{Name: name, Program: cfg.Command[0], Install: cfg.Install}
	}
	init := cfg.InitializationOptions
	var reads []string // what the sandbox must let it read besides its program
	if tsserverWanted(cfg) {
		if init, err = withTsserver(init, program); err != nil {
			return nil, fmt.Errorf("[lsp.%s]: %w", name, err)
		}
		if ts, _ := init["tsserver"].(map[string]any); ts != nil {
			if p, _ := ts["path"].(string); p != "" {
				reads = append(reads, p)
			}
		}
	}
	began := time.Now()
	l, err := m.launch(ctx, name, cfg, root, program, cfg.Command[1:], env, reads)
	if err != nil {
		return nil, err
	}
	proc := l.proc
	s := &Server{Name: name, Root: root, cfg: cfg, program: program, proc: proc, Sandboxed: l.sandboxed, covered: l.covered, Started: began,
		docs: map[string]*doc{}, diags: map[string]*fileDiags{}, changed: make(chan struct{}),
		progress: map[string]bool{}, lastUse: began, cursor: -1}
	s.conn = newConn(l.stdout, l.stdin, s.handle)
	if c, ok := l.stdout.(io.Closer); ok {
		go func() {
			<-s.conn.done // read to the end
			c.Close()
		}()
	}
	ictx, cancel := context.WithTimeout(ctx, initTimeout)
	defer cancel()
	var result struct {
		Capabilities struct {
			ExecuteCommandProvider struct {
				Commands []string `json:"commands"`
			} `json:"executeCommandProvider"`
		} `json:"capabilities"`
	}
	if err := s.conn.call(ictx, "initialize", s.initializeParams(init), &result); err != nil {
		s.kill()
		if errors.Is(err, errClosed) {
			return nil, &ExitedError{Name: name, Stderr: proc.Stderr()}
		}
		return nil, fmt.Errorf("[lsp.%s] did not start: %w", name, err)
	}
	if err := s.conn.notify("initialized", map[string]any{}); err != nil {
		s.kill()
		return nil, &ExitedError{Name: name, Stderr: proc.Stderr()}
	}
	s.diagnoseCommand = slices.Contains(result.Capabilities.ExecuteCommandProvider.Commands, goplsDiagnose)
	s.Ready = time.Since(began)
	return s, nil
}

func (s *Server) initializeParams(init map[string]any) map[string]any {
	folder := map[string]any{"uri": URI(s.Root), "name": filepath.Base(s.Root)}
	p := map[string]any{
		"processId":        nil,
		"clientInfo":       map[string]any{"name": "editord"},
		"rootUri":          URI(s.Root),
		"rootPath":         s.Root,
		"workspaceFolders": []any{folder},
		"capabilities": map[string]any{
			"general": map[string]any{"positionEncodings": []string{"utf-16"}},
			"window":  map[string]any{"workDoneProgress": true},
			"workspace": map[string]any{
				"configuration":          true,
				"workspaceFolders":       true,
				"symbol":                 map[string]any{},
				"didChangeWatchedFiles":  map[string]any{"dynamicRegistration": false},
				"workspaceEdit":          map[string]any{"documentChanges": true},
				"didChangeConfiguration": map[string]any{},
			},
			"textDocument": map[string]any{
				"synchronization":    map[string]any{"didSave": false},
				"definition":         map[string]any{"linkSupport": true},
				"references":         map[string]any{},
				"hover":              map[string]any{"contentFormat": []string{"markdown", "plaintext"}},
				"documentSymbol":     map[string]any{"hierarchicalDocumentSymbolSupport": true},
				"rename":             map[string]any{"prepareSupport": true},
				"publishDiagnostics": map[string]any{"versionSupport": true, "relatedInformation": false},
			},
		},
	}
	if init != nil {
		p["initializationOptions"] = init
	}
	return p
}

// handle serves what the server sends unasked.
func (s *Server) handle(method string, params json.RawMessage, reply func(any, *RPCError)) {
	switch method {
	case "textDocument/publishDiagnostics":
		var p publishDiagnosticsParams
		if json.Unmarshal(params, &p) == nil {
			s.publish(p)
		}
	case "$/progress":
		var p struct {
			Token json.RawMessage `json:"token"`
			Value struct {
				Kind string `json:"kind"`
			} `json:"value"`
		}
		if json.Unmarshal(params, &p) == nil {
			s.mu.Lock()
			switch p.Value.Kind {
			case "begin":
				s.progress[string(p.Token)] = true
			case "end":
				delete(s.progress, string(p.Token))
			}
			s.mu.Unlock()
		}
	}
	if reply == nil {
		return
	}
	switch method {
	case "workspace/configuration":
		var p struct {
			Items []struct {
				Section string `json:"section"`
			} `json:"items"`
		}
		_ = json.Unmarshal(params, &p)
		out := make([]any, len(p.Items))
		for i, it := range p.Items {
			out[i] = lookup(s.cfg.Settings, it.Section)
		}
		reply(out, nil)
	case "workspace/workspaceFolders":
		reply([]any{map[string]any{"uri": URI(s.Root), "name": filepath.Base(s.Root)}}, nil)
	case "workspace/applyEdit":
		// editord writes only through its guarded functions.
		reply(map[string]any{"applied": false, "failureReason": "editord applies edits only through editor::rename"}, nil)
	case "window/workDoneProgress/create", "client/registerCapability", "client/unregisterCapability",
		"window/showMessageRequest", "window/showDocument", "workspace/diagnostic/refresh",
		"workspace/semanticTokens/refresh", "workspace/inlayHint/refresh", "workspace/codeLens/refresh":
		reply(nil, nil)
	default:
		reply(nil, &RPCError{Code: -32601, Message: "editord does not serve " + method})
	}
}

// lookup finds a dotted section ("python.analysis") in settings; nil when
// absent, and the whole of settings for "".
func lookup(settings map[string]any, section string) any {
	if section == "" {
		return settings
	}
	var cur any = settings
	for _, part := range strings.Split(section, ".") {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = m[part]
	}
	return cur
}

func (s *Server) publish(p publishDiagnosticsParams) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seq++
	if len(p.Diagnostics) == 0 {
		// Kept as an empty publication: "no problems" is an answer too.
		p.Diagnostics = []Diagnostic{}
	}
	if p.Version != nil {
		s.versioned = true
	}
	s.publishedAt = time.Now()
	s.diags[p.URI] = &fileDiags{version: p.Version, list: p.Diagnostics, seq: s.seq, gen: s.gen, at: s.publishedAt}
	close(s.changed)
	s.changed = make(chan struct{})
}

// Call sends a request and decodes its answer into out. A server busy
// rebuilding (content modified, not ready) is asked again, a few times.
func (s *Server) Call(ctx context.Context, method string, params, out any) error {
	s.touch()
	defer s.touch() // idle counts from the answer, not the question
	var err error
	for attempt := 0; attempt < 4; attempt++ {
		err = s.conn.call(ctx, method, params, out)
		var rerr *RPCError
		if !errors.As(err, &rerr) || (rerr.Code != codeContentModified && rerr.Code != codeServerNotReady) {
			break
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(50<<attempt) * time.Millisecond):
		}
	}
	if errors.Is(err, errClosed) {
		return &ExitedError{Name: s.Name, Stderr: s.proc.Stderr()}
	}
	return err
}

// Notify sends a notification.
func (s *Server) Notify(method string, params any) error {
	err := s.conn.notify(method, params)
	// Counted once written: a question asked from now on is read after it.
	s.mu.Lock()
	s.gen++
	s.sentAt = time.Now()
	s.mu.Unlock()
	if err != nil {
		return &ExitedError{Name: s.Name, Stderr: s.proc.Stderr()}
	}
	return nil
}

// Sync makes the server hold text as the document at abs: opened if it was
// not, changed if it held other text. It returns the document's version
// and whether anything was sent.
func (s *Server) Sync(abs, language, text string, draft bool) (int, bool, error) {
	uri := URI(abs)
	s.sending.Lock()
	defer s.sending.Unlock()
	s.mu.Lock()
	d := s.docs[uri]
	now := time.Now()
	if d != nil && d.text == text {
		d.used, d.draft = now, draft
		v := d.version
		s.mu.Unlock()
		return v, false, nil
	}
	var method string
	var params any
	if d == nil {
		s.versions++
		d = &doc{version: s.versions, text: text, language: language, draft: draft, used: now, sentAt: s.seq}
		s.docs[uri] = d
		method = "textDocument/didOpen"
		params = map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": language, "version": d.version, "text": text}}
	} else {
		s.versions++
		d.version = s.versions
		d.text, d.draft, d.used, d.sentAt = text, draft, now, s.seq
		method = "textDocument/didChange"
		params = map[string]any{"textDocument": map[string]any{"uri": uri, "version": d.version},
			"contentChanges": []any{map[string]any{"text": text}}}
	}
	v := d.version
	s.mu.Unlock()
	return v, true, s.Notify(method, params)
}

// Close tells the server the document at abs is no longer held: it reads
// the disk again.
func (s *Server) Close(abs string) error {
	uri := URI(abs)
	s.sending.Lock()
	defer s.sending.Unlock()
	s.mu.Lock()
	d := s.docs[uri]
	held := d != nil
	delete(s.docs, uri)
	s.mu.Unlock()
	if !held {
		return nil
	}
	return s.Notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": uri}})
}

// OpenDoc is a document the server holds.
type OpenDoc struct {
	Path  string
	Text  string
	Draft bool
	Used  time.Time
}

// Open lists the documents the server holds.
func (s *Server) Open() []OpenDoc {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]OpenDoc, 0, len(s.docs))
	for uri, d := range s.docs {
		if p, ok := Path(uri); ok {
			out = append(out, OpenDoc{Path: p, Text: d.text, Draft: d.draft, Used: d.used})
		}
	}
	return out
}

// Held is the text the server holds for abs, if it holds it open.
func (s *Server) Held(abs string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if d := s.docs[URI(abs)]; d != nil {
		return d.text, true
	}
	return "", false
}

// FilesChanged tells the server that files changed on disk (kind 1
// created, 2 changed, 3 deleted), for it to read them again.
func (s *Server) FilesChanged(changes map[string]int) error {
	if len(changes) == 0 {
		return nil
	}
	list := make([]any, 0, len(changes))
	for _, p := range sortedKeys(changes) {
		list = append(list, map[string]any{"uri": URI(p), "type": changes[p]})
	}
	return s.Notify("workspace/didChangeWatchedFiles", map[string]any{"changes": list})
}

// FileDiagnostics are the problems the server last published for abs;
// fresh is true when they were published after the text it holds now was
// sent, about that text (a version at least its own, or no version from a
// server that never names one); for a document it does not hold open:
// when it published any.
func (s *Server) FileDiagnostics(abs string) (list []Diagnostic, fresh bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.fileDiagnostics(URI(abs))
}

func (s *Server) fileDiagnostics(uri string) ([]Diagnostic, bool) {
	d := s.diags[uri]
	if d == nil {
		return nil, false
	}
	if doc := s.docs[uri]; doc != nil {
		about := !s.versioned
		if d.version != nil {
			about = *d.version >= doc.version
		}
		return d.list, d.seq > doc.sentAt && about
	}
	return d.list, true
}

// AllDiagnostics are the last publication of every document, by path.
func (s *Server) AllDiagnostics() map[string][]Diagnostic {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string][]Diagnostic{}
	for uri, d := range s.diags {
		if p, ok := Path(uri); ok && len(d.list) > 0 {
			out[p] = d.list
		}
	}
	return out
}

// PullDiagnostics asks the server for the problems of the open document
// abs when it can answer that directly; ok is false when it cannot (then
// WaitDiagnostics waits for its publications).
func (s *Server) PullDiagnostics(ctx context.Context, abs string) (list []Diagnostic, ok bool, err error) {
	if !tsserverWanted(s.cfg) {
		return nil, false, nil
	}
	list, err = s.tsDiagnostics(ctx, abs)
	return list, err == nil, err
}

// WaitDiagnostics waits until the diagnostics of abs are fresh (see
// FileDiagnostics) and settled, or ctx ends, and reports whether they
// are. Settled means two things. A server that does not say which version
// its diagnostics are of may publish a document's problems in parts
// (typescript-language-server: syntax, then semantics): its publications
// are waited for until quietFor passes without another one for the
// document. And a publication older than a change sent since for another
// document or file may be out of date though this document's text is
// not (a function renamed in lib.go that main.go still calls): it stands
// once the server says it has diagnosed everything sent (gopls), or else
// once it has had othersSettle since that change and quietFor without
// publishing anything, unless it publishes this document again.
func (s *Server) WaitDiagnostics(ctx context.Context, abs string) bool {
	uri := URI(abs)
	var timer *time.Timer
	defer func() {
		if timer != nil {
			timer.Stop()
		}
	}()
	for {
		s.mu.Lock()
		_, fresh := s.fileDiagnostics(uri)
		var readyAt time.Time
		ask := false
		if fresh {
			readyAt = s.settledAt(s.diags[uri])
			ask = s.diagnoseCommand && s.diags[uri].gen < s.gen && s.diagnosedGen < s.gen
		}
		ch := s.changed
		s.mu.Unlock()
		if ask {
			if err := s.diagnose(ctx, uri); err != nil {
				return false
			}
			continue
		}
		var settle <-chan time.Time
		if fresh {
			wait := time.Until(readyAt)
			if wait <= 0 {
				return true
			}
			if timer != nil {
				timer.Stop()
			}
			timer = time.NewTimer(wait)
			settle = timer.C
		}
		select {
		case <-ch:
		case <-settle:
		case <-ctx.Done():
			return false
		case <-s.conn.done:
			return false
		}
	}
}

// settledAt is when d, fresh for its document's text, may be taken as
// complete (see WaitDiagnostics); s.mu is held.
func (s *Server) settledAt(d *fileDiags) time.Time {
	var at time.Time
	if d.version == nil {
		at = d.at.Add(quietFor)
	}
	if d.gen < s.gen && s.diagnosedGen < s.gen {
		at = latest(at, s.sentAt.Add(othersSettle), s.publishedAt.Add(quietFor))
	}
	return at
}

func latest(ts ...time.Time) time.Time {
	var l time.Time
	for _, t := range ts {
		if t.After(l) {
			l = t
		}
	}
	return l
}

// quietFor is how long a document's diagnostics must go unchanged, from a
// server that names no version, to be taken as complete.
const quietFor = 300 * time.Millisecond

// othersSettle is how long after a change to other files a document's
// older publication is taken to stand, from a server that cannot be asked
// (gopls can: diagnose.go).
const othersSettle = 1500 * time.Millisecond

// Busy reports whether the server says it has work in progress (loading
// the workspace, indexing).
func (s *Server) Busy() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.progress) > 0
}

// WaitIdle waits until the server reports no work in progress, or ctx
// ends; it reports whether it went idle.
func (s *Server) WaitIdle(ctx context.Context) bool {
	for {
		if !s.Busy() {
			return true
		}
		s.mu.Lock()
		ch := s.changed
		s.mu.Unlock()
		t := time.NewTimer(20 * time.Millisecond)
		select {
		case <-ch:
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return false
		}
		t.Stop()
	}
}

// Cursor is the change journal's seq this server has been told of; ok is
// false before the first SetCursor.
func (s *Server) Cursor() (seq int64, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cursor, s.cursor >= 0
}

// SetCursor records the journal's seq the server has caught up with.
func (s *Server) SetCursor(c int64) {
	s.mu.Lock()
	s.cursor = c
	s.mu.Unlock()
}

// Pid is the server process's id.
func (s *Server) Pid() int { return s.proc.Pid() }

// Program is the server's executable.
func (s *Server) Program() string { return s.program }

func (s *Server) touch() {
	s.mu.Lock()
	s.lastUse = time.Now()
	s.mu.Unlock()
}

func (s *Server) idleFor() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return time.Since(s.lastUse)
}

// dead reports whether the server has exited.
func (s *Server) dead() bool {
	select {
	case <-s.proc.Done():
		return true
	case <-s.conn.done:
		return true
	default:
		return false
	}
}

// stop asks the server to shut down and exit, and kills it if it does not
// within a couple of seconds.
func (s *Server) stop() {
	s.mu.Lock()
	s.stopping = true
	s.mu.Unlock()
	if !s.dead() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		if s.conn.call(ctx, "shutdown", nil, nil) == nil {
			_ = s.conn.notify("exit", nil)
		}
		cancel()
		if s.proc.Wait(2 * time.Second) {
			return
		}
	}
	s.kill()
}

func (s *Server) kill() {
	s.proc.Kill()
	s.proc.Wait(5 * time.Second)
}

// URI is the file URI of an absolute path.
func URI(abs string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
}

// Path is the absolute path of a file URI; ok is false for another scheme.
func Path(uri string) (string, bool) {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" || u.Path == "" {
		return "", false
	}
	return filepath.Clean(filepath.FromSlash(u.Path)), true
}
