package editor

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
)

// RunConfig is the [run] table: whether editor::run may start commands,
// which, and the box they run in (shell/sandbox). Off by default.
type RunConfig struct {
	Enabled bool `toml:"enabled" desc:"Whether editor::run may start commands at all: on, every client lists the run toolset; off, editor::run answers not_allowed. editord serve --allow-run turns it on for one server."`
	// Programs a command may start, by name (looked up on the command's
	// PATH) or by path (absolute, or ./ for one relative to the root);
	// "*" allows any. The sandbox is what confines them: a build tool runs
	// whatever the build says.
	Programs []string `toml:"programs" desc:"Programs a command may start: a name looked up on the commands' PATH, an absolute path, or ./NAME relative to the root; \"*\" allows any. The sandbox, not this list, is what confines them (a build tool runs whatever the build says), so add your toolchain here."`
	// Shell lets a request pass a command line, run by /bin/sh -c.
	Shell bool `toml:"shell" desc:"true lets a request pass a command line ({\"command\": \"...\"}, run by /bin/sh -c) instead of argv."`
	// Network keeps the host's network; otherwise a command has only a
	// loopback of its own.
	Network bool `toml:"network" desc:"true keeps the host's network for commands (a module download, a test against a service); otherwise a command has only a loopback of its own."`
	// Path is the command's PATH; "" uses editord's own.
	Path string `toml:"path" desc:"The commands' PATH; \"\" uses editord's own."`
	// Read: folders (or files) a command may read and execute besides the
	// jail (the system and the toolchains). Write: folders it may write
	// besides the jail and its private temp folder. ~ is the home folder.
	Read  []string `toml:"read" desc:"Folders (or files) a command may read and execute besides the jail: the system and your toolchains; ~ is your home folder. The folder of the program it starts is added by itself. Add a toolchain installed elsewhere (~/.cargo, ~/go/pkg/mod)."`
	Write []string `toml:"write" desc:"Folders a command may write besides the jail and its own home and temp folders (in the state dir); ~ is your home folder. Empty keeps every write inside the workspace."`
	// Env is set for every command; PassEnv names variables passed on from
	// editord's own environment (nothing else of it is); AllowEnv names
	// variables a request may set although they are refused by default
	// (PATH, LD_*, GIT_*... see refusedEnv).
	Env      map[string]string `toml:"env" desc:"Variables set for every command, over what pass_env passes on."`
	PassEnv  []string          `toml:"pass_env" desc:"Names of editord's own environment variables a command gets; nothing else of editord's environment is passed on but PATH (see path)."`
	AllowEnv []string          `toml:"allow_env" desc:"Variables a request may set although they are refused by default because they change what a program loads or where it writes (PATH, HOME, TMPDIR, LD_*, GIT_*, GOFLAGS, NODE_OPTIONS, ...)."`
	// TimeoutMS is a command's time unless the request says otherwise,
	// up to MaxTimeoutMS.
	TimeoutMS    int `toml:"timeout_ms" desc:"Milliseconds a command may run when the request gives no timeout_seconds; at the end it and everything it started are killed (state timeout)."`
	MaxTimeoutMS int `toml:"max_timeout_ms" desc:"The longest timeout a request may ask for, in milliseconds; a longer timeout_seconds is cut to it. At least timeout_ms."`
	// MaxProcesses bounds processes and threads at once, MaxMemoryBytes the
	// writable memory of each process.
	MaxProcesses   int   `toml:"max_processes" desc:"Processes and threads a command may have at once (RLIMIT_NPROC; a pids cgroup when editord runs as root); a fork past it fails."`
	MaxMemoryBytes int64 `toml:"max_memory_bytes" desc:"Writable memory of each of a command's processes, in bytes (RLIMIT_DATA); an allocation past it fails."`
	// MaxOutputBytes is how much of each output stream is kept for paging
	// (the newest part past it); JobsKept how many ended jobs are kept.
	MaxOutputBytes int64 `toml:"max_output_bytes" desc:"Bytes of each output stream (stdout, stderr) kept in the state dir for editor::run::output; past it the newest part is kept. The reply itself holds only the last 8 KiB."`
	JobsKept       int   `toml:"jobs_kept" desc:"Ended jobs kept for editor::run::status and editor::run::output; older ones are removed with their output."`
}

func defaultRunConfig() RunConfig {
	return RunConfig{
		Programs: []string{"go", "gofmt", "make", "cargo", "rustc", "npm", "npx", "node", "python3", "pytest",
			"git", "ls", "cat", "head", "tail", "wc", "grep", "sort", "diff", "echo", "true", "false"},
		Read: []string{"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt",
			"/sys/devices/system/cpu", "/sys/fs/cgroup"},
		Write:          []string{},
		Env:            map[string]string{},
		PassEnv:        []string{"LANG", "LC_ALL", "LC_CTYPE", "TERM", "TZ", "USER", "LOGNAME"},
		AllowEnv:       []string{},
		TimeoutMS:      600_000,
		MaxTimeoutMS:   3_600_000,
		MaxProcesses:   4096,
		MaxMemoryBytes: 4 << 30,
		MaxOutputBytes: 16 << 20,
		JobsKept:       20,
	}
}

// refusedEnv are the variables a request may not set unless
// run.allow_env names them: the ones that make a program load or run
// other code, or move where it reads and writes.
var refusedEnv = []string{"PATH", "HOME", "TMPDIR", "LD_*", "DYLD_*", "BASH_ENV", "ENV", "BASH_FUNC_*",
	"SHELLOPTS", "BASHOPTS", "IFS", "PS4", "GCONV_PATH", "NODE_OPTIONS", "NODE_PATH", "PYTHONSTARTUP",
	"PYTHONPATH", "PYTHONHOME", "PERL5OPT", "PERL5LIB", "RUBYOPT", "RUBYLIB", "GIT_*", "GOFLAGS",
	"SSH_AUTH_SOCK", "EDITORD_*"}

var envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// envAllowed reports whether a request may set name.
func (c *RunConfig) envAllowed(name string) bool {
	for _, a := range c.AllowEnv {
		if a == name {
			return true
		}
	}
	for _, r := range refusedEnv {
		if r == name || (strings.HasSuffix(r, "*") && strings.HasPrefix(name, r[:len(r)-1])) {
			return false
		}
	}
	return true
}

// Validate checks the [run] table; cmd/editord calls it when loading.
func (c *RunConfig) Validate() error {
	for name, v := range map[string]int64{"run.timeout_ms": int64(c.TimeoutMS), "run.max_timeout_ms": int64(c.MaxTimeoutMS),
		"run.max_processes": int64(c.MaxProcesses), "run.max_memory_bytes": c.MaxMemoryBytes,
		"run.max_output_bytes": c.MaxOutputBytes, "run.jobs_kept": int64(c.JobsKept)} {
		if v <= 0 {
			return fmt.Errorf("%s must be positive, got %d", name, v)
		}
	}
	if c.TimeoutMS > c.MaxTimeoutMS {
		return fmt.Errorf("run.timeout_ms (%d) is over run.max_timeout_ms (%d)", c.TimeoutMS, c.MaxTimeoutMS)
	}
	for _, list := range []struct {
		name  string
		paths []string
	}{{"run.read", c.Read}, {"run.write", c.Write}} {
		for _, p := range list.paths {
			if !filepath.IsAbs(p) && !strings.HasPrefix(p, "~/") && p != "~" {
				return fmt.Errorf("%s entry %q must be an absolute path (or start with ~/)", list.name, p)
			}
		}
	}
	for k := range c.Env {
		if !envName.MatchString(k) {
			return fmt.Errorf("run.env key %q is not a variable name", k)
		}
	}
	for _, p := range c.Programs {
		if strings.Contains(p, "/") && !filepath.IsAbs(p) && !strings.HasPrefix(p, "./") {
			return fmt.Errorf("run.programs entry %q: a program with a slash is an absolute path or starts with ./ (relative to the root)", p)
		}
	}
	return nil
}
