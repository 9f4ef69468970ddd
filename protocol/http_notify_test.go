package protocol

// Every event reaches an HTTP client, whatever its POSTs do meanwhile
// (CONTRACT §5). mcp-go's Streamable HTTP server lets every POST of a
// session read the session's notification queue beside the GET stream;
// editord used to hold notifications for 20 ms after each POST for the
// POST's reader to go away, which a loaded machine outlasted (CI lost one
// in TestClientsSDKHTTP). Here a client keeps requests and notifications
// in flight on its own POSTs while another process writes; every change
// event must arrive, on the GET stream or on a POST's stream.

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/editord/editord/editor"
)

// sseClient is a bare Streamable HTTP client that records every
// notifications/editor/changed it is sent, on any stream.
type sseClient struct {
	t     *testing.T
	url   string
	token string
	sid   string

	mu   sync.Mutex
	seen map[string]bool // versions of change events received
	wake chan struct{}
}

func (c *sseClient) do(method, body string, hdr map[string]string) *http.Response {
	req, _ := http.NewRequest(method, c.url, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+c.token)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if c.sid != "" {
		req.Header.Set("Mcp-Session-Id", c.sid)
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Errorf("%s: %v", method, err)
		return nil
	}
	return resp
}

// post sends one message and reads its whole answer, keeping the events
// an SSE answer carries.
func (c *sseClient) post(body string) *http.Response {
	resp := c.do("POST", body, nil)
	if resp == nil {
		return nil
	}
	defer resp.Body.Close()
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		c.read(resp.Body)
	} else {
		io.Copy(io.Discard, resp.Body)
	}
	return resp
}

// read records the change events of an SSE stream until it ends.
func (c *sseClient) read(r io.Reader) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		var m struct {
			Method string `json:"method"`
			Params struct {
				Version string `json:"version"`
			} `json:"params"`
		}
		if json.Unmarshal([]byte(data), &m) == nil && m.Method == changedMethod {
			c.mu.Lock()
			c.seen[m.Params.Version] = true
			c.mu.Unlock()
			select {
			case c.wake <- struct{}{}:
			default:
			}
		}
	}
}

func (c *sseClient) missing(want []string) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []string
	for _, v := range want {
		if !c.seen[v] {
			out = append(out, v)
		}
	}
	return out
}

// startNotifyHTTP serves a service over HTTP with the hub delivering, and
// returns a second service on the same state dir: another process.
func startNotifyHTTP(t *testing.T) (url string, other *editor.Service, root string) {
	t.Helper()
	base, _ := filepath.EvalSymlinks(t.TempDir())
	root, state := filepath.Join(base, "ws"), filepath.Join(base, "state")
	os.MkdirAll(root, 0o755)
	svc, err := editor.New(editor.DefaultConfig(), editor.Options{Root: root, StateDir: state})
	if err != nil {
		t.Fatal(err)
	}
	other, err = editor.New(editor.DefaultConfig(), editor.Options{Root: root, StateDir: state})
	if err != nil {
		t.Fatal(err)
	}
	srv := NewServer(svc, "test")
	ctx, cancel := context.WithCancel(context.Background())
	go srv.Deliver(ctx)
	hs := httptest.NewServer(HTTPHandler(srv, "tok"))
	t.Cleanup(func() {
		hs.CloseClientConnections()
		hs.Close()
		cancel()
		other.Close()
		svc.Close()
	})
	return hs.URL + "/mcp", other, root
}

func TestHTTPEveryEventReachesABusyClient(t *testing.T) {
	url, other, _ := startNotifyHTTP(t)
	c := &sseClient{t: t, url: url, token: "tok", seen: map[string]bool{}, wake: make(chan struct{}, 1)}
	resp := c.post(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"busy","version":"1"}}}`)
	if resp == nil || resp.Header.Get("Mcp-Session-Id") == "" {
		t.Fatal("initialize: no session")
	}
	c.sid = resp.Header.Get("Mcp-Session-Id")
	c.post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	get := c.do("GET", "", nil)
	if get == nil || get.StatusCode != 200 {
		t.Fatalf("GET stream: %v", get)
	}
	streamDone := make(chan struct{})
	go func() { defer close(streamDone); c.read(get.Body) }()

	// The client's own traffic: requests (whose POSTs read the session's
	// queue until they answer) and notifications (whose POSTs answer
	// nothing), without pause, until the writes are all seen.
	stop := make(chan struct{})
	var busy sync.WaitGroup
	var posts atomic.Int64
	for w := 0; w < 4; w++ {
		busy.Add(1)
		go func() {
			defer busy.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				switch (i + w) % 3 {
				case 0:
					c.post(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping"}`, 1000*w+i+10))
				case 1:
					c.post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
				case 2:
					c.post(fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":%d}}`, i))
				}
				posts.Add(1)
			}
		}()
	}

	// Another process writes in batches; each batch must arrive whole
	// before the next (a burst larger than a session's queue could be
	// dropped as a slow client's, which is not what this checks).
	const batches, per = 15, 8
	ctx := context.Background()
	var want []string
	for b := 0; b < batches; b++ {
		for i := 0; i < per; i++ {
			res, err := other.Save(ctx, &editor.SaveRequest{Path: "f.txt", Content: fmt.Sprintf("write %d.%d\n", b, i), Force: true})
			if err != nil {
				t.Fatal(err)
			}
			want = append(want, res.Version)
		}
		deadline := time.After(20 * time.Second)
		for len(c.missing(want)) > 0 {
			select {
			case <-c.wake:
			case <-deadline:
				close(stop)
				busy.Wait()
				t.Fatalf("after %d writes and %d POSTs of the client's own, %d change events never arrived: %v",
					len(want), posts.Load(), len(c.missing(want)), c.missing(want))
			}
		}
	}
	close(stop)
	busy.Wait()
	if posts.Load() == 0 {
		t.Fatal("the client sent nothing meanwhile")
	}
	get.Body.Close()
	<-streamDone
}
