package lsp

import (
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// ServerConfig is one [lsp.NAME] table of the configuration.
type ServerConfig struct {
	// Command is the program and its arguments; the program is looked for
	// on PATH (folders inside the jail left out) unless it has a slash.
	Command []string `toml:"command" desc:"The server's program and its arguments; the program is looked for on PATH (relative folders and folders inside the jail left out) unless it has a slash."`
	// Languages are the editor languages (editor::open's language) it
	// serves.
	Languages []string `toml:"languages" desc:"The languages it answers for, as editor::open names a file's language (go, typescript, javascript, python, ...). A table named like a default one ([lsp.go]) that leaves it out keeps the default's."`
	// Env is added to the server's environment last, over editord's
	// guards (GOTOOLCHAIN=local, GOPROXY=off, ...): the one way to let a
	// server fetch modules or run what a repository names.
	Env map[string]string `toml:"env" desc:"Variables added to the server's environment last, over editord's guards (GOTOOLCHAIN=local, GOPROXY=off, GOFLAGS=-mod=readonly, ...): the one way to let a server download modules or run what a repository names."`
	// InitializationOptions are sent in initialize.
	InitializationOptions map[string]any `toml:"initialization_options" desc:"Sent to the server as initialize's initializationOptions (a table, free-form)."`
	// Settings answer the server's workspace/configuration requests,
	// looked up by section ("gopls", "python.analysis").
	Settings map[string]any `toml:"settings" desc:"Answers the server's workspace/configuration requests, looked up by section (gopls, python.analysis); a table, free-form. A default server's table that leaves it out keeps the default's."`
	// IdleSeconds is how long an unused server is kept warm (default 600).
	IdleSeconds int `toml:"idle_seconds" desc:"Seconds an unused server is kept warm before it is stopped (the next call that needs it starts it again); 0 means 600."`
	// Install is the command a person runs to install the server, named
	// by the error a missing server gives.
	Install string `toml:"install" desc:"The command that installs the server, named in the error a call gets when the program is missing."`

	// Sandbox runs the server in shell/sandbox (box.go): it reads the jail,
	// the system and its toolchain's folders, writes only a folder of its
	// own in the state dir, and has no network. Unset is true; false runs
	// it unconfined (as where the sandbox is unavailable, with a warning).
	Sandbox *bool `toml:"sandbox" desc:"Run the server in the sandbox (reads: the jail, the system, its toolchain; writes: its own folder in the state dir; no network). false runs it unconfined; where there is no sandbox it runs unconfined with a warning."`
	// Read are more folders (or files) the sandboxed server may read: a
	// toolchain editord does not find by itself (a virtualenv outside the
	// jail, a GOROOT off PATH). ~ is the home folder.
	Read []string `toml:"read" desc:"More folders the sandboxed server may read (a toolchain editord does not find on PATH, a virtualenv outside the jail); ~ is the home folder."`
	// Network keeps the host's network in the sandbox (with an env that
	// lets the server fetch modules); otherwise it has none.
	Network bool `toml:"network" desc:"Keep the host's network in the sandbox (for a server whose env lets it fetch modules)."`
}

// DefaultServers are the servers configured when the file names none:
// gopls, typescript-language-server and pyright, each found on PATH.
func DefaultServers() map[string]ServerConfig {
	return map[string]ServerConfig{
		"go": {
			Command:   []string{"gopls"},
			Languages: []string{"go"},
			Install:   "go install golang.org/x/tools/gopls@v0.23.0",
			Sandbox:   boolPtr(true),
			Read:      []string{},
			// Symbols of the workspace only, should gopls be asked for them
			// (editord answers Go's workspace queries from its own index,
			// editor/symbols_index.go): its dependencies are outside the
			// jail, where no answer is shown anyway.
			Settings: map[string]any{"gopls": map[string]any{"symbolScope": "workspace"}},
		},
		"typescript": {
			Command:   []string{"typescript-language-server", "--stdio"},
			Languages: []string{"typescript", "javascript"},
			Install:   "npm install --global typescript-language-server@5.3.0 typescript@5.9.3",
			Sandbox:   boolPtr(true),
			Read:      []string{},
		},
		"python": {
			Command:   []string{"pyright-langserver", "--stdio"},
			Languages: []string{"python"},
			Install:   "npm install --global pyright@1.1.414",
			Sandbox:   boolPtr(true),
			Read:      []string{},
		},
	}
}

func boolPtr(b bool) *bool { return &b }

// sandboxed reports whether c asks for the sandbox (unset: yes).
func (c ServerConfig) sandboxed() bool { return c.Sandbox == nil || *c.Sandbox }

// Idle is how long a server (and what editord keeps for its language) is
// kept unused.
func (c ServerConfig) Idle() time.Duration {
	if c.IdleSeconds > 0 {
		return time.Duration(c.IdleSeconds) * time.Second
	}
	return 10 * time.Minute
}

// serves reports whether c serves language.
func (c ServerConfig) serves(language string) bool { return slices.Contains(c.Languages, language) }

// guardEnv is what a server's environment is set to whatever editord's own
// says, so that nothing in a repository chooses a command for it to run:
//
//   - go: GOTOOLCHAIN=local (a go.mod's toolchain line must not download
//     and run another toolchain), GOPROXY=off (no module download, and so
//     no VCS command run for one), GOFLAGS=-mod=readonly -buildvcs=false
//     (nothing rewrites go.mod; git, whose repository config can name
//     commands, is not run to stamp a build), CGO_ENABLED=0 (no C compiler
//     or pkg-config run with flags from #cgo lines), GOPACKAGESDRIVER=off
//     (go/packages would otherwise run a gopackagesdriver found on PATH).
//   - every server: nothing that makes node or python load code first.
//
// The server's Env, from the configuration, is applied after these.
var guardEnv = map[string]string{
	"GOTOOLCHAIN":      "local",
	"GOPROXY":          "off",
	"GOFLAGS":          "-mod=readonly -buildvcs=false",
	"CGO_ENABLED":      "0",
	"GOPACKAGESDRIVER": "off",
	"GOTELEMETRY":      "off",
}

// droppedEnv are variables of editord's environment a server never gets.
var droppedEnv = []string{"NODE_OPTIONS", "NODE_PATH", "PYTHONSTARTUP", "PYTHONPATH", "PYTHONHOME",
	"LD_PRELOAD", "LD_LIBRARY_PATH", "BASH_ENV", "ENV"}

// serverEnv is the environment a server starts with: editord's own, less
// droppedEnv, with PATH's relative folders and folders inside the jail left
// out (a repository's bin/ must not supply the `go` that gopls runs), then
// guardEnv, then the configuration's env.
func serverEnv(base []string, inJail func(string) bool, extra map[string]string) []string {
	out := make([]string, 0, len(base)+len(guardEnv)+len(extra))
	for _, kv := range base {
		k, v, _ := strings.Cut(kv, "=")
		_, guarded := guardEnv[k]
		_, over := extra[k]
		if slices.Contains(droppedEnv, k) || guarded || over {
			continue
		}
		if k == "PATH" {
			v = safePath(v, inJail)
		}
		out = append(out, k+"="+v)
	}
	for _, k := range sortedKeys(guardEnv) {
		if _, over := extra[k]; !over {
			out = append(out, k+"="+guardEnv[k])
		}
	}
	for _, k := range sortedKeys(extra) {
		out = append(out, k+"="+extra[k])
	}
	return out
}

// safePath is a PATH without relative folders and folders inside the jail.
func safePath(p string, inJail func(string) bool) string {
	var keep []string
	for _, dir := range filepath.SplitList(p) {
		if dir == "" || !filepath.IsAbs(dir) || inJail(filepath.Clean(dir)) {
			continue
		}
		keep = append(keep, dir)
	}
	return strings.Join(keep, string(filepath.ListSeparator))
}

// envValue is the value of key in env, or "".
func envValue(env []string, key string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if k, v, ok := strings.Cut(env[i], "="); ok && k == key {
			return v
		}
	}
	return ""
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// WithDefaults completes servers read from a configuration file: a table
// named like a default server ([lsp.go]) that leaves languages or install
// out keeps the default's.
func WithDefaults(servers map[string]ServerConfig) map[string]ServerConfig {
	defaults := DefaultServers()
	out := make(map[string]ServerConfig, len(servers))
	for name, c := range servers {
		if d, ok := defaults[name]; ok {
			if len(c.Languages) == 0 {
				c.Languages = d.Languages
			}
			if c.Settings == nil {
				c.Settings = d.Settings
			}
			if c.Install == "" {
				c.Install = d.Install
			}
			if c.Sandbox == nil {
				c.Sandbox = d.Sandbox
			}
			if c.Read == nil {
				c.Read = d.Read
			}
		}
		out[name] = c
	}
	return out
}
