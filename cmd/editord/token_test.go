package main

// Issue 19 items 2 and 3: a planted state dir or token is refused, and
// the token stays out of every command line.

import (
	"context"
	"fmt"
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

// serveOnce runs `editord serve --http 127.0.0.1:0 ARGS` until it either
// serves (then it is stopped: started is true) or exits; it returns what
// it printed.
func serveOnce(t *testing.T, env []string, args ...string) (started bool, stderr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, append([]string{"serve", "--http", "127.0.0.1:0"}, args...)...)
	cmd.Env = append(append(os.Environ(), "HOME="+t.TempDir()), env...)
	var log lockedBuffer
	pipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	url := serveAddressOrExit(pipe, &log)
	if url != "" {
		cmd.Process.Signal(syscall.SIGTERM)
		io.Copy(io.Discard, pipe)
	}
	cmd.Wait()
	return url != "", log.String()
}

// serveAddressOrExit is serveAddress for a server that may refuse to start:
// "" when its stderr ends without the serving line.
func serveAddressOrExit(stderr io.Reader, log *lockedBuffer) string {
	re := regexp.MustCompile(`serving MCP at (http://\S+/mcp)`)
	buf := make([]byte, 4096)
	for {
		n, err := stderr.Read(buf)
		log.Write(buf[:n])
		if m := re.FindStringSubmatch(log.String()); m != nil {
			return m[1]
		}
		if err != nil {
			return ""
		}
	}
}

const goodToken = "0123456789abcdef0123456789abcdef-good"

func TestPlantedStateRefused(t *testing.T) {
	root := t.TempDir()
	mkState := func(mode os.FileMode) string {
		d := filepath.Join(t.TempDir(), "state")
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(d, mode); err != nil {
			t.Fatal(err)
		}
		return d
	}
	plant := func(dir, content string, mode os.FileMode, uid int) string {
		p := filepath.Join(dir, "http.token")
		if err := os.WriteFile(p, []byte(content), mode); err != nil {
			t.Fatal(err)
		}
		os.Chmod(p, mode)
		if uid >= 0 {
			if err := os.Chown(p, uid, uid); err != nil {
				t.Fatal(err)
			}
		}
		return p
	}
	type tc struct {
		name  string
		state string
		env   []string
		args  []string
		want  []string // in the refusal
	}
	open := mkState(0o777)
	cases := []tc{
		{"state dir mode 0777", open, nil, nil, []string{open, "0777", "chmod go-w"}},
	}
	d := mkState(0o700)
	p := plant(d, strings.Repeat("a", 64), 0o644, -1)
	cases = append(cases, tc{"token file mode 0644", d, nil, nil, []string{p, "0644", "delete"}})
	d = mkState(0o700)
	p = plant(d, "0000\n", 0o600, -1)
	cases = append(cases, tc{"token 0000", d, nil, nil, []string{p, "4 characters", "32"}})
	if os.Geteuid() == 0 {
		d = mkState(0o700)
		p = plant(d, strings.Repeat("b", 64), 0o600, 65534)
		cases = append(cases, tc{"token file of another uid", d, nil, nil, []string{p, "uid 65534", "delete"}})
		other := mkState(0o700)
		if err := os.Chown(other, 65534, 65534); err != nil {
			t.Fatal(err)
		}
		cases = append(cases, tc{"state dir of another uid", other, nil, nil, []string{other, "uid 65534"}})
	} else {
		t.Log("not root: the cases of another uid's files are skipped")
	}
	cases = append(cases,
		tc{"--token short", mkState(0o700), nil, []string{"--token", "short-token"}, []string{"--token", "11 characters", "32"}},
		tc{"EDITORD_TOKEN short", mkState(0o700), []string{"EDITORD_TOKEN=0000"}, nil, []string{"EDITORD_TOKEN", "4 characters"}},
	)
	for _, c := range cases {
		started, log := serveOnce(t, c.env, append(c.args, "--root", root, "--state-dir", c.state)...)
		if started {
			t.Errorf("%s: the server started:\n%s", c.name, log)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(log, w) {
				t.Errorf("%s: the refusal should name %q:\n%s", c.name, w, log)
			}
		}
	}
	// --token still works, with a warning; EDITORD_TOKEN and --token-file
	// without one.
	started, log := serveOnce(t, nil, "--token", goodToken, "--root", root, "--state-dir", mkState(0o700))
	if !started || !strings.Contains(log, "warning: --token puts the token in this process's command line") {
		t.Errorf("--token: started %v:\n%s", started, log)
	}
	started, log = serveOnce(t, []string{"EDITORD_TOKEN=" + goodToken}, "--root", root, "--state-dir", mkState(0o700))
	if !started || strings.Contains(log, "warning") || !strings.Contains(log, "(token: EDITORD_TOKEN)") {
		t.Errorf("EDITORD_TOKEN: started %v:\n%s", started, log)
	}
	tf := filepath.Join(t.TempDir(), "tok")
	os.WriteFile(tf, []byte(goodToken+"\n"), 0o644)
	if started, log = serveOnce(t, nil, "--token-file", tf, "--root", root, "--state-dir", mkState(0o700)); started || !strings.Contains(log, "chmod 600") {
		t.Errorf("--token-file readable by others: started %v:\n%s", started, log)
	}
	os.Chmod(tf, 0o600)
	if started, log = serveOnce(t, nil, "--token-file", tf, "--root", root, "--state-dir", mkState(0o700)); !started {
		t.Errorf("--token-file: did not start:\n%s", log)
	}
}

// --open used to run the opener with the tokened URL in its argv (and the
// browser keeps it for its life): now the opener gets the path of a
// launch page (0600 in the state dir) whose one-time code the page trades
// for the token once.
func TestOpenKeepsTheTokenOutOfArgv(t *testing.T) {
	root, state := t.TempDir(), t.TempDir()
	argvFile := filepath.Join(t.TempDir(), "argv")
	opener := filepath.Join(t.TempDir(), "opener.sh")
	if err := os.WriteFile(opener, []byte("#!/bin/sh\nprintf '%s\\n' \"$0\" \"$@\" > "+argvFile+".tmp && mv "+argvFile+".tmp "+argvFile+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(binary, "serve", "--http", "127.0.0.1:0", "--open", "--root", root, "--state-dir", state)
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir(), "BROWSER="+opener, "EDITORD_TOKEN="+goodToken)
	pipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var log lockedBuffer
	done := make(chan error, 1)
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		<-done
	})
	mcpURL := serveAddress(t, pipe, &log, func() { done <- cmd.Wait() })
	base := strings.TrimSuffix(mcpURL, "/mcp")
	deadline := time.Now().Add(30 * time.Second)
	var argv []byte
	for {
		if argv, err = os.ReadFile(argvFile); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the opener was never run:\n%s", log.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	for _, p := range []string{fmt.Sprintf("/proc/%d/cmdline", cmd.Process.Pid), argvFile} {
		b, _ := os.ReadFile(p)
		if strings.Contains(string(b), goodToken) {
			t.Fatalf("%s holds the token: %q", p, b)
		}
	}
	launchPath := strings.TrimSpace(strings.Split(string(argv), "\n")[1])
	fi, err := os.Stat(launchPath)
	if err != nil || fi.Mode().Perm() != 0o600 || !strings.HasPrefix(launchPath, state) {
		t.Fatalf("the opener got %q (%v, %v); want a 0600 launch page in the state dir", launchPath, fi, err)
	}
	page, _ := os.ReadFile(launchPath)
	m := regexp.MustCompile(`#code=([0-9a-f]+)`).FindSubmatch(page)
	if m == nil || strings.Contains(string(page), goodToken) {
		t.Fatalf("launch page: %s", page)
	}
	exchange := func(origin string) (int, string) {
		req, _ := http.NewRequest("POST", base+"/launch", strings.NewReader(`{"code":"`+string(m[1])+`"}`))
		req.Header.Set("Content-Type", "application/json")
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var b strings.Builder
		buf := make([]byte, 512)
		for {
			n, err := resp.Body.Read(buf)
			b.Write(buf[:n])
			if err != nil {
				break
			}
		}
		return resp.StatusCode, b.String()
	}
	if code, body := exchange("https://evil.example"); code != 403 {
		t.Fatalf("a foreign origin traded the code: %d %s", code, body)
	}
	if code, body := exchange(base); code != 200 || !strings.Contains(body, goodToken) {
		t.Fatalf("the page's trade: %d %s", code, body)
	}
	if code, _ := exchange(base); code != 403 {
		t.Fatalf("a code worked twice: %d", code)
	}
	for {
		if _, err := os.Stat(launchPath); os.IsNotExist(err) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the launch page outlived its code")
		}
		time.Sleep(10 * time.Millisecond)
	}
}
