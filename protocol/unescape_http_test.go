package protocol

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/editord/editord/editor"
)

func TestUnescapeHTMLOverHTTP(t *testing.T) {
	svc, err := editor.New(editor.DefaultConfig(), editor.Options{Root: t.TempDir(), StateDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	hs := httptest.NewServer(HTTPHandler(NewServer(svc, "test"), "tok"))
	defer hs.Close()
	post := func(sid string, body string) (*http.Response, string) {
		req, _ := http.NewRequest("POST", hs.URL+"/mcp", strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer tok")
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if sid != "" {
			req.Header.Set("Mcp-Session-Id", sid)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return resp, string(b)
	}
	resp, _ := post("", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	sid := resp.Header.Get("Mcp-Session-Id")
	post(sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	_, body := post(sid, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"editor_diff","arguments":{"before":"x<y\n","after":"x&&y>z\n"}}}`)
	if strings.Contains(body, `\u003c`) || strings.Contains(body, `\u0026`) || !strings.Contains(body, "+x&&y>z") {
		t.Fatalf("the HTTP body escapes HTML: %s", body)
	}
}
