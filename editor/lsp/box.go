package lsp

// A language server runs in shell/sandbox, as editor::run's commands do,
// whether or not [run] lets commands run (the sandbox is the mechanism;
// [run] is editor::run's switch). Its box:
//
//   - reads the jail's roots, the system's folders (serverSystem), the
//     folders of its program and of the interpreter that runs it (a node
//     package's whole node_modules), its toolchain's (GOROOT and the module
//     cache for gopls; the TypeScript it is given; python's installation
//     for pyright, which asks it for its search paths) and the table's
//     read;
//   - writes only a home and a temp folder of its own in the state dir
//     (gopls's and Go's caches live in the home, kept between starts);
//   - never sees what the deny globs match (nor the rest of the state dir
//     when it lies in the jail): those are covered by an unreadable void;
//   - has no network (a loopback of its own), and /tmp and /var/tmp are
//     covered, so no host socket there is reachable.
//
// Where the sandbox is unavailable the server runs unconfined, with a
// warning, unless its table says sandbox = false.

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/editord/editord/shell"
	"github.com/editord/editord/shell/sandbox"
)

// Options are what the manager needs of the service around it.
type Options struct {
	// Dirs makes the server name's private folders: a home kept between
	// starts, and a temp folder for one server, which release removes.
	Dirs func(name string) (home, tmp string, release func(), err error)
	// Hidden lists paths a sandboxed server name must not see beyond what
	// the deny globs match: the state dir's other entries, when it lies in
	// the jail.
	Hidden func(name string) []string
	// Warn tells the person something they should know (a server run
	// without the sandbox).
	Warn func(string)
}

// serverSystem are the system folders and files a server reads: programs
// and libraries, the dynamic linker's cache, the time zone, the user
// database, the TLS configuration node loads at start; not the rest of
// /etc.
var serverSystem = []string{"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32",
	"/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/localtime", "/etc/passwd", "/etc/group",
	"/etc/nsswitch.conf", "/etc/alternatives", "/etc/os-release", "/etc/ssl",
	"/sys/devices/system/cpu", "/sys/fs/cgroup"}

// serverMasks are the folders covered by an empty tmpfs (unless the jail
// or a folder given lies beneath one): other programs' sockets live there.
var serverMasks = []string{"/tmp", "/var/tmp"}

// process is a running server: unconfined (shell.Proc) or in a box.
type process interface {
	Done() <-chan struct{}
	Kill()
	Wait(d time.Duration) bool
	Pid() int
	Stderr() string
}

// boxed is a server in a sandbox.
type boxed struct {
	p    *sandbox.Piped
	tail *shell.Tail
}

func (b *boxed) Done() <-chan struct{} { return b.p.Done() }
func (b *boxed) Kill()                 { b.p.Kill() }
func (b *boxed) Pid() int              { return b.p.Pid() }
func (b *boxed) Stderr() string        { return b.tail.String() }

func (b *boxed) Wait(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-b.p.Done():
		return true
	case <-t.C:
		return false
	}
}

// launched is a server process and its pipes.
type launched struct {
	proc      process
	stdin     io.Writer
	stdout    io.Reader
	sandboxed bool
	covered   map[string]bool // the paths its box hides or covers
}

// launch starts program for server name in root: in a sandbox unless the
// table says otherwise or there is none here.
func (m *Manager) launch(ctx context.Context, name string, cfg ServerConfig, root, program string, args, env []string, extraReads []string) (*launched, error) {
	if cfg.sandboxed() && m.opts.Dirs != nil {
		err := sandbox.Available()
		if err == nil {
			return m.launchBoxed(ctx, name, cfg, root, program, args, env, extraReads)
		}
		m.warnUnconfined(name, err)
	}
	proc, err := m.jail.Start(ctx, program, args, shell.StartOptions{Dir: root, Env: env})
	if err != nil {
		return nil, err
	}
	return &launched{proc: proc, stdin: proc.Stdin, stdout: proc.Stdout}, nil
}

// warnUnconfined says once per server that it runs without the sandbox.
func (m *Manager) warnUnconfined(name string, cause error) {
	if _, done := m.warned.LoadOrStore(name, true); done || m.opts.Warn == nil {
		return
	}
	m.opts.Warn(fmt.Sprintf("the language server [lsp.%s] runs without the sandbox, able to read and write what editord can: %s; set sandbox = false in [lsp.%s] to run it so knowingly",
		name, shell.AsError(cause, "").Message, name))
}

func (m *Manager) launchBoxed(ctx context.Context, name string, cfg ServerConfig, root, program string, args, env []string, extraReads []string) (*launched, error) {
	home, tmp, release, err := m.opts.Dirs(name)
	if err != nil {
		return nil, fmt.Errorf("[lsp.%s]: its folders in the state dir: %w", name, err)
	}
	sp, err := m.boxSpec(name, cfg, root, program, args, env, home, tmp, extraReads)
	if err != nil {
		release()
		return nil, err
	}
	tail := shell.NewTail(16 << 10)
	sp.Stderr = tail
	p, err := sandbox.StartPiped(ctx, sp)
	if err != nil {
		release()
		return nil, err
	}
	go func() {
		<-p.Done()
		release()
	}()
	return &launched{proc: &boxed{p: p, tail: tail}, stdin: p.Stdin, stdout: p.Stdout, sandboxed: true, covered: coveredBy(sp.Hide, sp.Cover)}, nil
}

func coveredBy(hide []string, cover []sandbox.Cover) map[string]bool {
	out := make(map[string]bool, len(hide)+len(cover))
	for _, p := range hide {
		out[p] = true
	}
	for _, c := range cover {
		out[c.Path] = true
	}
	return out
}

// A box's voids are mounted when it starts; a file the deny globs match
// that appears later (a new .env) would be in plain sight of a server
// that lives for minutes. So the jail is planned again every sweep
// (60 ms for kubernetes' 30,000 entries), and a server whose box misses
// something the plan now hides is stopped: the next call starts it in a
// box that covers it.

// Recheck stops the sandboxed servers whose box no longer covers all
// that the deny globs match. The sweep calls it; so may a test.
func (m *Manager) Recheck() {
	for _, s := range m.Running() {
		if !s.Sandboxed {
			continue
		}
		var hide []string
		if m.opts.Hidden != nil {
			hide = m.opts.Hidden(s.Name)
		}
		plan, err := sandbox.PlanJail(m.jail, hide...)
		if err != nil {
			continue
		}
		for p := range coveredBy(plan.Hide, plan.Cover) {
			if !s.covered[p] {
				m.stopServer(s)
				break
			}
		}
	}
}

// boxSpec is the sandbox of server name for root (see the top of the file).
func (m *Manager) boxSpec(name string, cfg ServerConfig, root, program string, args, env []string, home, tmp string, extraReads []string) (sandbox.Spec, error) {
	path := envValue(env, "PATH")
	var read []string
	read = append(read, serverSystem...)
	read = append(read, m.jail.Roots()...)
	read = append(read, sandbox.ProgramReads(program, path)...)
	for _, p := range extraReads {
		read = append(read, sandbox.ProgramReads(p, path)...)
	}
	for _, p := range cfg.Read {
		read = append(read, sandbox.ExpandHome(p, envValue(env, "HOME"))) // editord's home
	}
	set := map[string]string{"HOME": home, "TMPDIR": tmp, "XDG_CACHE_HOME": filepath.Join(home, ".cache"),
		"XDG_CONFIG_HOME": filepath.Join(home, ".config"), "XDG_DATA_HOME": filepath.Join(home, ".local", "share"),
		"XDG_STATE_HOME": filepath.Join(home, ".local", "state")}
	if cfg.serves("python") {
		read = append(read, sandbox.PythonReads(path)...)
	}
	if cfg.serves("go") {
		goroot, modcache := goFolders(env)
		read = append(read, goroot, modcache)
		// Found with editord's HOME, which the server's is not.
		set["GOMODCACHE"] = modcache
	}
	for k, v := range set {
		if _, mine := cfg.Env[k]; !mine && v != "" {
			env = setEnv(env, k, v)
		}
	}
	var hide []string
	if m.opts.Hidden != nil {
		hide = m.opts.Hidden(name)
	}
	plan, err := sandbox.PlanJail(m.jail, hide...)
	if err != nil {
		return sandbox.Spec{}, err
	}
	return sandbox.Spec{
		Path: program, Args: append([]string{cfg.Command[0]}, args...), Dir: root, Env: env,
		Read: clean(read), Write: []string{home, tmp}, Hide: plan.Hide, Cover: plan.Cover,
		Network: cfg.Network, Mask: serverMasks,
		// gopls holds a large workspace's packages (1.3 GB for kubernetes):
		// the bound is for a runaway, not for a big repository.
		Limits: sandbox.Limits{MemoryBytes: 16 << 30},
	}, nil
}

// goFolders are the GOROOT of the go on PATH and the module cache gopls
// reads, as the go command would find them in env ("" when not found).
func goFolders(env []string) (goroot, modcache string) {
	goroot = envValue(env, "GOROOT")
	if goroot == "" {
		if p, err := shell.LookPath("go", envValue(env, "PATH")); err == nil {
			if real, err := sandbox.Realpath(p); err == nil {
				goroot = filepath.Dir(filepath.Dir(real))
			}
		}
	}
	modcache = envValue(env, "GOMODCACHE")
	if modcache == "" {
		gopath, _, _ := strings.Cut(envValue(env, "GOPATH"), string(filepath.ListSeparator))
		if gopath == "" {
			if home := envValue(env, "HOME"); home != "" {
				gopath = filepath.Join(home, "go")
			}
		}
		if gopath != "" {
			modcache = filepath.Join(gopath, "pkg", "mod")
		}
	}
	if !filepath.IsAbs(goroot) {
		goroot = ""
	}
	if !filepath.IsAbs(modcache) {
		modcache = ""
	}
	return goroot, modcache
}

// setEnv is env with key set to v.
func setEnv(env []string, key, v string) []string {
	out := env[:0:0]
	for _, kv := range env {
		if k, _, _ := strings.Cut(kv, "="); k != key {
			out = append(out, kv)
		}
	}
	return append(out, key+"="+v)
}

// clean drops empty and repeated paths.
func clean(paths []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, p := range paths {
		if p != "" && filepath.IsAbs(p) && !seen[p] {
			seen[p] = true
			out = append(out, filepath.Clean(p))
		}
	}
	return out
}
