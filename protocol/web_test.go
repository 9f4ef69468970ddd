package protocol

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/editord/editord/editor"
)

const testToken = "page-secret-token-5d1c"

func webServer(t *testing.T) *httptest.Server {
	t.Helper()
	base, _ := filepath.EvalSymlinks(t.TempDir())
	root := filepath.Join(base, "ws")
	os.MkdirAll(root, 0o755)
	os.WriteFile(filepath.Join(root, "secret-name.txt"), []byte("data\n"), 0o644)
	svc, err := editor.New(editor.DefaultConfig(), editor.Options{Root: root, StateDir: filepath.Join(base, "state")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.Close() })
	hs := httptest.NewServer(HTTPHandler(NewServer(svc, "test"), testToken))
	t.Cleanup(hs.Close)
	return hs
}

func do(t *testing.T, method, url string, header map[string]string, body string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	return resp, string(b)
}

// The page's assets are served with the security headers and hold no
// workspace data; every response, /mcp included, carries the headers.
func TestPageServedWithSecurityHeaders(t *testing.T) {
	hs := webServer(t)
	for _, path := range []string{"/", "/app.js", "/app.css", "/mcp", "/nope"} {
		resp, body := do(t, "GET", hs.URL+path, nil, "")
		h := resp.Header
		csp := h.Get("Content-Security-Policy")
		for _, want := range []string{"default-src 'none'", "script-src 'self'", "frame-ancestors 'none'", "connect-src 'self'"} {
			if !strings.Contains(csp, want) {
				t.Errorf("%s: CSP %q lacks %q", path, csp, want)
			}
		}
		if strings.Contains(csp, "unsafe-inline") || strings.Contains(csp, "unsafe-eval") || strings.Contains(csp, "http") {
			t.Errorf("%s: CSP allows inline code or another host: %q", path, csp)
		}
		if h.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s: no nosniff", path)
		}
		if strings.Contains(body, "secret-name") || strings.Contains(body, testToken) {
			t.Errorf("%s: a static response names workspace data", path)
		}
	}
	resp, body := do(t, "GET", hs.URL+"/", nil, "")
	if resp.StatusCode != 200 || !strings.Contains(body, `<script type="module" src="app.js">`) || strings.Contains(body, "<script>") {
		t.Fatalf("index: %d %s", resp.StatusCode, body)
	}
	if resp, _ := do(t, "GET", hs.URL+"/chunks/", nil, ""); resp.StatusCode != 404 {
		t.Errorf("a folder of assets is listed: %d", resp.StatusCode)
	}
	if resp, _ := do(t, "POST", hs.URL+"/", nil, ""); resp.StatusCode != 405 {
		t.Errorf("POST / answered %d", resp.StatusCode)
	}
}

// A browser request to /mcp is accepted only from the server's own page:
// another origin, another local port included, is refused, preflights too.
func TestMCPRefusesOtherOrigins(t *testing.T) {
	hs := webServer(t)
	own := hs.URL // http://127.0.0.1:PORT
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	hdr := func(origin string) map[string]string {
		m := map[string]string{"Authorization": "Bearer " + testToken, "Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
		if origin != "" {
			m["Origin"] = origin
		}
		return m
	}
	for _, origin := range []string{"http://evil.example", "http://localhost:1", "http://127.0.0.1:1", "null", own + "/x"} {
		if resp, _ := do(t, "POST", hs.URL+"/mcp", hdr(origin), init); resp.StatusCode != http.StatusForbidden {
			t.Errorf("POST from %s: %d, want 403", origin, resp.StatusCode)
		}
		pre := map[string]string{"Origin": origin, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization,content-type"}
		if resp, _ := do(t, "OPTIONS", hs.URL+"/mcp", pre, ""); resp.StatusCode != http.StatusForbidden || resp.Header.Get("Access-Control-Allow-Origin") != "" {
			t.Errorf("preflight from %s: %d %v, want 403 without CORS headers", origin, resp.StatusCode, resp.Header)
		}
	}
	for _, origin := range []string{own, ""} {
		if resp, body := do(t, "POST", hs.URL+"/mcp", hdr(origin), init); resp.StatusCode != 200 {
			t.Errorf("POST from %q: %d %s", origin, resp.StatusCode, body)
		}
	}
	h := hdr(own)
	delete(h, "Authorization")
	if resp, _ := do(t, "POST", hs.URL+"/mcp", h, init); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("the page's own origin without the token: %d, want 401", resp.StatusCode)
	}
}

func TestPageURL(t *testing.T) {
	for addr, want := range map[string]string{
		"127.0.0.1:8765": "http://127.0.0.1:8765/#token=a%2Bb",
		"0.0.0.0:9":      "http://127.0.0.1:9/#token=a%2Bb",
		"[::]:9":         "http://[::1]:9/#token=a%2Bb",
	} {
		if got := PageURL(addr, "a+b"); got != want {
			t.Errorf("PageURL(%s) = %s, want %s", addr, got, want)
		}
	}
}

// With --allow-remote the page is reached by the machine's own name or
// address: its origin is accepted whatever its host, as long as it is the
// host the request was sent to; every other origin is still refused.
// Without --allow-remote a non-loopback origin is refused even when it
// matches the Host (DNS rebinding).
func TestRemotePageOrigin(t *testing.T) {
	base, _ := filepath.EvalSymlinks(t.TempDir())
	root := filepath.Join(base, "ws")
	os.MkdirAll(root, 0o755)
	svc, err := editor.New(editor.DefaultConfig(), editor.Options{Root: root, StateDir: filepath.Join(base, "state")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.Close() })
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	post := func(url, host, origin string) int {
		t.Helper()
		req, _ := http.NewRequest("POST", url+"/mcp", strings.NewReader(init))
		req.Host = host
		req.Header.Set("Authorization", "Bearer "+testToken)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	for _, remote := range []bool{true, false} {
		h, _ := httpHandler(NewServer(svc, "test"), testToken, remote, nil)
		hs := httptest.NewServer(h)
		for _, c := range []struct {
			host, origin string
			remoteOK     bool // the answer with --allow-remote; without it only loopback passes
			localOK      bool
		}{
			{"192.0.2.7:8765", "http://192.0.2.7:8765", true, false},
			{"editord.lan:8765", "https://editord.lan:8765", true, false},
			{"editord.lan:8765", "http://editord.lan:8765/", true, false},
			{"192.0.2.7:8765", "http://evil.example", false, false},
			{"192.0.2.7:8765", "http://192.0.2.7:1", false, false},
			{"192.0.2.7:8765", "http://127.0.0.1:8765", false, false},
			{"192.0.2.7:8765", "null", false, false},
			{"127.0.0.1:8765", "http://127.0.0.1:8765", true, true},
			{"192.0.2.7:8765", "", true, false}, // not a browser: the token decides (and, local only, the Host)
		} {
			want := http.StatusForbidden
			if remote && c.remoteOK || !remote && c.localOK {
				want = http.StatusOK
			}
			if got := post(hs.URL, c.host, c.origin); got != want {
				t.Errorf("allow-remote=%v Host %s Origin %q: %d, want %d", remote, c.host, c.origin, got, want)
			}
		}
		hs.Close()
	}
}
