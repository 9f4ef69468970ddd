package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

	"github.com/editord/editord/shell/sandbox"
)

const usage = `editord — one shared code workspace for AI agents and people, over MCP.

Usage:
  editord serve [--root DIR] [--state-dir DIR] [--config FILE]
        Serve MCP on stdin/stdout (the default when no command is given).
  editord serve --http 127.0.0.1:PORT [--open] [--token-file FILE] [--allow-remote] [...]
        Serve MCP Streamable HTTP at http://ADDR/mcp for many clients at once,
        and the person's editor page at http://ADDR/ (it prints the link, with
        the token after #; --open opens it in the system browser, the token
        handed over by a one-time code, never in a command line).
        Every MCP request needs "Authorization: Bearer TOKEN"; the token is
        generated into STATE_DIR/http.token (mode 0600) unless EDITORD_TOKEN,
        --token-file FILE or --token T (visible to other users) gives one of
        at least 32 characters.
  editord call FUNCTION [JSON] [--text] [--expected-root DIR] [--root DIR] [--state-dir DIR] [--config FILE]
        Run one function and print its JSON response (--text: the text an
        MCP client's model reads). JSON is the request object; "-" reads it
        from stdin; omitted means {}. With --expected-root, a write with a
        relative path is refused (root_changed) unless DIR is the shared
        workspace's active root.
        Example: editord call editor::open '{"path":"README.md"}'
  editord functions [--json]
        List every function id, its MCP tool name and description
        (--json adds the input and output schemas).
  editord version
        Print the version.

Flags:
  --root DIR        The workspace folder (default: the working directory). It is
                    also the jail unless the config sets jail.roots.
  --state-dir DIR   Where the shared record lives (default: $EDITORD_STATE_DIR, else
                    $XDG_STATE_HOME/editord/<name>-<hash of the git repository holding
                    the jail root, or of the jail root>). Every process pointed at
                    one state dir shares one workspace.
  --config FILE     TOML configuration (default: $XDG_CONFIG_HOME/editord/config.toml
                    if present). Unknown keys are an error.
  --allow-run       Turn editor::run on, as the config's [run] enabled = true: commands
                    from run.programs, sandboxed in the jail (Linux: Landlock and
                    namespaces).

Register with an MCP client, e.g. Claude Code:
  claude mcp add editord -- editord serve --root /path/to/project
`

// defaultMemoryLimit is the Go runtime's soft memory limit unless
// GOMEMLIMIT says otherwise: the garbage collector works harder as the
// heap nears it, which keeps a server of a 240,000-file repository (a live
// heap of at most 141 MiB after find, searches and status) near 170 MiB
// where the default (a heap of twice what is live) let it reach 350 MB. It
// is soft: a larger live heap is allowed, at the cost of more collection
// (set GOMEMLIMIT higher for repositories that need more).
const defaultMemoryLimit = 168 << 20

func main() {
	// The same binary is the init of editor::run's sandbox (shell/sandbox).
	sandbox.Init()
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(defaultMemoryLimit)
	}
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	cmd := "serve"
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		cmd, args = args[0], args[1:]
	}
	switch cmd {
	case "serve":
		return serve(args, stdin, stdout, stderr)
	case "call":
		return callCmd(args, stdin, stdout, stderr)
	case "functions":
		return functionsCmd(args, stdout, stderr)
	case "version":
		fmt.Fprintln(stdout, "editord", version())
		return 0
	case "help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "editord: unknown command %q\n\n%s", cmd, usage)
	return 2
}

// common are the flags every command that opens a workspace takes.
type common struct {
	root, stateDir, config string
	allowRun               bool
}

func newFlags(name string, stderr io.Writer) (*flag.FlagSet, *common) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, usage) }
	c := &common{}
	fs.StringVar(&c.root, "root", "", "workspace folder")
	fs.StringVar(&c.stateDir, "state-dir", "", "state dir")
	fs.StringVar(&c.config, "config", "", "TOML config file")
	fs.BoolVar(&c.allowRun, "allow-run", false, "turn editor::run on (as [run] enabled = true)")
	return fs, c
}

// parseInterleaved parses flags that may come before or after positional
// arguments (editord call editor::open '{}' --root x).
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			return bi.Main.Version
		}
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 {
				return "dev-" + s.Value[:12]
			}
		}
	}
	return "dev"
}

func signalContext() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
}

func printJSON(w io.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	enc.Encode(v)
}

func fail(stderr io.Writer, err error) int {
	if errors.Is(err, flag.ErrHelp) {
		// The usage is already printed: asking for it is no error, and a
		// trailing "flag: help requested" read like one.
		return 0
	}
	fmt.Fprintln(stderr, "editord:", err)
	return 1
}
