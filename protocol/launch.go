package protocol

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/url"
	"sync"
	"time"
)

// Launcher hands the bearer token to the page that `serve --http --open`
// opens, without the token ever being in a command line: the opener gets
// the path of a launch page in the state dir (mode 0600, see
// workspace.WriteLaunch), which sends the browser to the editor with a
// one-time code in the fragment; the page posts the code to /launch and
// gets the token. A code works once, and only until it expires.
type Launcher struct {
	token  string
	remote bool // --allow-remote: the page's origin may be any host (see pageOrigin)

	mu    sync.Mutex
	codes map[string]*launchCode
}

type launchCode struct {
	timer *time.Timer
	done  func()
}

// NewLauncher makes a launcher for token.
func NewLauncher(token string) *Launcher {
	return &Launcher{token: token, codes: map[string]*launchCode{}}
}

// Issue makes a one-time code valid for ttl; done is called once, when it
// is used or expires (the caller removes its launch page then).
func (l *Launcher) Issue(ttl time.Duration, done func()) string {
	var b [16]byte
	rand.Read(b[:])
	code := hex.EncodeToString(b[:])
	c := &launchCode{done: done}
	l.mu.Lock()
	l.codes[code] = c
	c.timer = time.AfterFunc(ttl, func() { l.spend(code) })
	l.mu.Unlock()
	return code
}

// spend ends code; it reports whether the code was still valid.
func (l *Launcher) spend(code string) bool {
	l.mu.Lock()
	c, ok := l.codes[code]
	delete(l.codes, code)
	l.mu.Unlock()
	if ok {
		c.timer.Stop()
		c.done()
	}
	return ok
}

// Close ends every code (the server is stopping).
func (l *Launcher) Close() {
	l.mu.Lock()
	codes := make([]string, 0, len(l.codes))
	for c := range l.codes {
		codes = append(codes, c)
	}
	l.mu.Unlock()
	for _, c := range codes {
		l.spend(c)
	}
}

// ServeHTTP answers POST /launch {"code": …} with {"token": …} once per
// code. Only the server's own page may ask (the Origin check of guard).
func (l *Launcher) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", "POST")
		http.Error(w, "Method Not Allowed", http.StatusMethodNotAllowed)
		return
	}
	if o := r.Header.Get("Origin"); o != "" && !pageOrigin(o, r, l.remote) {
		w.Header().Set("Connection", "close")
		http.Error(w, fmt.Sprintf("Forbidden: Origin %q is not this server's own page", o), http.StatusForbidden)
		return
	}
	var req struct {
		Code string `json:"code"`
	}
	if err := json.NewDecoder(io.LimitReader(r.Body, 1024)).Decode(&req); err != nil || req.Code == "" {
		http.Error(w, `Bad Request: send {"code": "…"} from the launch link`, http.StatusBadRequest)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	if !l.spend(req.Code) {
		http.Error(w, "Forbidden: this launch code was used already or has expired; open the editor link editord printed when it started", http.StatusForbidden)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]string{"token": l.token})
}

// LaunchPage is the launch page for a server at addr and a one-time code:
// it sends the browser on to the editor at once.
func LaunchPage(addr, code string) []byte {
	to := "http://" + browsable(addr) + "/#code=" + url.QueryEscape(code)
	esc := html.EscapeString(to)
	return []byte(`<!doctype html>
<meta charset="utf-8">
<meta http-equiv="refresh" content="0; url=` + esc + `">
<title>editord</title>
<p>Opening the editor… If nothing happens, <a href="` + esc + `">follow this link</a> (it works once, for two minutes).</p>
`)
}
