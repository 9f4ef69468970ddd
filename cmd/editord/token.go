package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/editord/editord/editor"
	"github.com/editord/editord/protocol"
	"github.com/editord/editord/shell"
	"github.com/editord/editord/workspace"
)

// tokenEnv carries a bearer token to `serve --http` without putting it in
// a command line, which every user of the machine can read (ps,
// /proc/PID/cmdline); a process's environment only its own user can.
const tokenEnv = "EDITORD_TOKEN"

// httpToken is the bearer token of `serve --http`, and where it came from:
// --token (with a warning), --token-file, EDITORD_TOKEN, or the state
// dir's http.token (generated when there is none). A token shorter than
// workspace.MinTokenLen is refused wherever it came from.
func httpToken(svc *editor.Service, flag, file string, stderr io.Writer) (tok, where string, err error) {
	env := os.Getenv(tokenEnv)
	// Programs started from here (a browser, git's helpers) need not
	// inherit it.
	os.Unsetenv(tokenEnv)
	switch {
	case flag != "":
		fmt.Fprintf(stderr, "editord: warning: --token puts the token in this process's command line, which every user of this machine can read (ps, /proc/PID/cmdline); pass it in %s or with --token-file FILE\n", tokenEnv)
		tok, where = flag, "the --token given"
	case file != "":
		abs, err := filepath.Abs(file)
		if err != nil {
			return "", "", err
		}
		b, err := shell.ReadSecret(abs)
		if err != nil {
			return "", "", err
		}
		tok, where = strings.TrimSpace(string(b)), "--token-file "+abs
	case env != "":
		tok, where = strings.TrimSpace(env), tokenEnv
	default:
		return svc.Store().Token()
	}
	if len(tok) < workspace.MinTokenLen {
		return "", "", fmt.Errorf("the token from %s has %d characters; at least %d are needed (make one with: head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \\n'), or omit it to use the state dir's generated token", where, len(tok), workspace.MinTokenLen)
	}
	return tok, where, nil
}

// openLaunch opens the editor page in the person's browser without the
// token in any command line: a launch page in the state dir (0600) sends
// the browser on with a one-time code that the page trades for the token
// at /launch (protocol.Launcher). The page is removed once the code is
// used or expires.
func openLaunch(svc *editor.Service, launch *protocol.Launcher, addr string, stderr io.Writer) {
	var mu sync.Mutex
	var remove func()
	spent := false
	code := launch.Issue(workspace.LaunchTTL, func() {
		mu.Lock()
		defer mu.Unlock()
		spent = true
		if remove != nil {
			remove()
		}
	})
	path, rm, err := svc.Store().WriteLaunch(protocol.LaunchPage(addr, code))
	if err != nil {
		fmt.Fprintf(stderr, "editord: could not write the launch page (%v); open the editor link above yourself\n", err)
		return
	}
	mu.Lock()
	if remove = rm; spent {
		rm()
	}
	mu.Unlock()
	if err := shell.OpenBrowser(path); err != nil {
		fmt.Fprintf(stderr, "editord: could not open a browser (%v); open the editor link above yourself\n", err)
	}
}
