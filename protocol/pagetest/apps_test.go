package pagetest

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/mark3labs/mcp-go/mcp"
)

// hostPage is a minimal MCP Apps host: it renders the View in an iframe,
// answers ui/initialize, sends the tool call's input and result, and
// passes the View's tools/call to the test's server, which makes them
// with an MCP client of editord.
const hostPage = `<!doctype html><html><body>
<iframe id="view" sandbox="allow-scripts allow-same-origin" style="width:1000px;height:700px"></iframe>
<script>
const frame = document.getElementById("view");
window.hostLog = [];
window.addEventListener("message", async (e) => {
  if (e.source !== frame.contentWindow) return;
  const m = e.data;
  window.hostLog.push(m.method || "response");
  const reply = (result) => frame.contentWindow.postMessage({ jsonrpc: "2.0", id: m.id, result }, "*");
  if (m.method === "ui/initialize") {
    reply({ protocolVersion: "2026-01-26", hostInfo: { name: "test-host", version: "1" }, hostCapabilities: { serverTools: {} }, hostContext: {} });
  } else if (m.method === "ui/notifications/initialized") {
    const s = await (await fetch("/scenario")).json();
    frame.contentWindow.postMessage({ jsonrpc: "2.0", method: "ui/notifications/tool-input", params: { arguments: s.arguments } }, "*");
    frame.contentWindow.postMessage({ jsonrpc: "2.0", method: "ui/notifications/tool-result", params: s.result }, "*");
  } else if (m.method === "tools/call") {
    const r = await fetch("/call", { method: "POST", body: JSON.stringify(m.params) });
    reply(await r.json());
  }
});
fetch("/app").then((r) => r.text()).then((html) => { frame.srcdoc = html; });
</script></body></html>`

// TestMergeViewAsMCPApp: editor_save names the merge view as its MCP App;
// resources/read serves it; hosted as a host would, for a save refused as
// a conflict it shows the disk's text beside the agent's, and its "Save
// merged" writes the merge through editor_save guarded by the disk's
// version.
func TestMergeViewAsMCPApp(t *testing.T) {
	needBrowser(t)
	base, _ := filepath.EvalSymlinks(t.TempDir())
	root, state := filepath.Join(base, "ws"), filepath.Join(base, "state")
	os.MkdirAll(root, 0o755)
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("one\ntwo\nthree\n"), 0o644)
	e := &env{t: t, root: root, state: state, logs: &syncBuf{}, srvLog: &syncBuf{}}
	agent := e.agent("merge-agent")
	ctx := context.Background()

	tools, err := agent.c.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	uri := ""
	for _, tool := range tools.Tools {
		if tool.Name == "editor_save" && tool.Meta != nil {
			if ui, ok := tool.Meta.AdditionalFields["ui"].(map[string]any); ok {
				uri, _ = ui["resourceUri"].(string)
			}
		}
	}
	if uri != "ui://editord/merge.html" {
		t.Fatalf("editor_save's _meta.ui.resourceUri is %q", uri)
	}
	res, err := agent.c.ReadResource(ctx, mcp.ReadResourceRequest{Params: mcp.ReadResourceParams{URI: uri}})
	if err != nil || len(res.Contents) != 1 {
		t.Fatalf("resources/read %s: %v %v", uri, err, res)
	}
	html := res.Contents[0].(mcp.TextResourceContents)
	if html.MIMEType != "text/html;profile=mcp-app" || !strings.Contains(html.Text, "<script>") {
		t.Fatalf("the view: %s, %d bytes", html.MIMEType, len(html.Text))
	}

	// The agent read the file, someone changed the line the agent changes
	// too: the agent's save is a conflict (a change elsewhere would merge).
	opened := agent.call("editor_open", map[string]any{"path": "a.txt", "tab": false})
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("one\n2\nthree\n"), 0o644)
	saveArgs := map[string]any{"path": "a.txt", "content": "one\nTWO\nthree\nfour\n", "expected_version": opened["version"]}
	cres, err := agent.c.CallTool(ctx, mcp.CallToolRequest{Params: mcp.CallToolParams{Name: "editor_save", Arguments: saveArgs}})
	if err != nil {
		t.Fatal(err)
	}
	if sc, _ := cres.StructuredContent.(map[string]any); sc["conflict"] != true {
		t.Fatalf("the save was not a conflict: %v", cres.StructuredContent)
	}

	mux := http.NewServeMux()
	mux.HandleFunc("/host.html", func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte(hostPage)) })
	mux.HandleFunc("/app", func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte(html.Text)) })
	mux.HandleFunc("/scenario", func(w http.ResponseWriter, _ *http.Request) {
		json.NewEncoder(w).Encode(map[string]any{"arguments": saveArgs, "result": cres})
	})
	mux.HandleFunc("/call", func(w http.ResponseWriter, r *http.Request) {
		var p mcp.CallToolParams
		json.NewDecoder(r.Body).Decode(&p)
		out, err := agent.c.CallTool(context.Background(), mcp.CallToolRequest{Params: p})
		if err != nil {
			http.Error(w, err.Error(), 500)
			return
		}
		json.NewEncoder(w).Encode(out)
	})
	host := httptest.NewServer(mux)
	defer host.Close()
	e.openBrowser()
	inView := func(js string) string {
		return `(() => { const d = document.getElementById("view").contentDocument; return ` + js + `; })()`
	}
	if err := chromedp.Run(e.ctx, chromedp.Navigate(host.URL+"/host.html")); err != nil {
		t.Fatal(err)
	}
	e.waitJS(inView(`!!d && [...d.querySelectorAll(".cm-content")].length === 2`), "the merge view to show both sides")
	var sides []string
	if err := chromedp.Run(e.ctx, chromedp.Evaluate(inView(`[...d.querySelectorAll(".cm-content")].map((c) => c.getAttribute("aria-label") + ": " + c.innerText)`), &sides)); err != nil {
		t.Fatal(err)
	}
	if len(sides) != 2 || !strings.Contains(sides[0], "On disk") || !strings.Contains(sides[0], "2") || !strings.Contains(sides[1], "four") {
		t.Fatalf("the merge view's sides: %q", sides)
	}
	if err := chromedp.Run(e.ctx, chromedp.Evaluate(inView(`[...d.querySelectorAll("button")].find((b) => b.textContent === "Save merged").click()`), nil)); err != nil {
		t.Fatal(err)
	}
	e.waitJS(inView(`!!d.querySelector("[role=status]") && d.querySelector("[role=status]").textContent.startsWith("Saved a.txt")`), "the view to say the merge was saved")
	deadline := time.Now().Add(10 * time.Second)
	for {
		b, _ := os.ReadFile(filepath.Join(root, "a.txt"))
		if string(b) == "one\nTWO\nthree\nfour\n" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a.txt after Save merged: %q", b)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
