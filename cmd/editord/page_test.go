package main

import (
	"bufio"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// serve --http prints the editor link (token in the fragment) and the MCP
// endpoint with its header; --open hands a launch page to the system's
// opener; the link's page is served.
func TestServeHTTPPrintsPageAndOpens(t *testing.T) {
	bin := t.TempDir()
	opened := filepath.Join(bin, "opened")
	script := "#!/bin/sh\nprintf '%s' \"$1\" > " + opened + "\n"
	if err := os.WriteFile(filepath.Join(bin, "xdg-open"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	root, state := workspaceDir(t), t.TempDir()
	cmd := exec.Command(binary, "serve", "--http", "127.0.0.1:0", "--open", "--root", root, "--state-dir", state)
	cmd.Env = append(os.Environ(), "PATH="+bin+":"+os.Getenv("PATH"), "HOME="+t.TempDir())
	pipe, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		cmd.Process.Signal(syscall.SIGTERM)
		cmd.Wait()
	}()
	lines := make(chan string, 10)
	go func() {
		sc := bufio.NewScanner(pipe)
		for sc.Scan() {
			lines <- sc.Text()
		}
		io.Copy(io.Discard, pipe)
	}()
	var got []string
	for len(got) < 2 {
		select {
		case l := <-lines:
			got = append(got, l)
		case <-time.After(20 * time.Second):
			t.Fatalf("serve --http printed %q", got)
		}
	}
	tokenBytes, err := os.ReadFile(filepath.Join(state, "http.token"))
	if err != nil {
		t.Fatal(err)
	}
	token := strings.TrimSpace(string(tokenBytes))
	page := regexp.MustCompile(`^editor: (http://127\.0\.0\.1:\d+)/#token=` + token + `$`).FindStringSubmatch(got[0])
	if page == nil {
		t.Fatalf("first line %q is not the editor link with the token", got[0])
	}
	if want := "serving MCP at " + page[1] + `/mcp with header "Authorization: Bearer ` + token + `"`; !strings.Contains(got[1], want) {
		t.Fatalf("second line %q lacks %q", got[1], want)
	}
	// --open hands the opener a launch page of the state dir, never the
	// tokened link (TestOpenKeepsTheTokenOutOfArgv follows it).
	waitFor(t, "--open to run the opener", func() bool {
		b, _ := os.ReadFile(opened)
		return strings.HasPrefix(string(b), filepath.Join(state, "launch", "launch-")) && !strings.Contains(string(b), token)
	})
	resp, err := http.Get(page[1] + "/")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), `src="app.js"`) || resp.Header.Get("Content-Security-Policy") == "" {
		t.Fatalf("GET /: %d %s", resp.StatusCode, body)
	}
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
