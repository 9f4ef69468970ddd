package editor

import (
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/editord/editord/shell"
	"github.com/editord/editord/shell/sandbox"
)

// What a command may be and the box it runs in, from the [run] table:
// which program, which environment, which folders it reads and writes,
// and what inside the jail it must not touch.

// runArgv is the command to run: the request's argv, or sh -c for a
// command line when the configuration allows one.
func runArgv(cfg *RunConfig, req *RunRequest) ([]string, error) {
	switch {
	case req.Command != "" && len(req.Argv) > 0:
		return nil, invalid("pass argv or command, not both")
	case req.Command != "":
		if !cfg.Shell {
			return nil, shell.Errorf(shell.CodeNotAllowed, "", "a command line needs a shell, which the configuration does not allow (run.shell); pass argv instead, e.g. {\"argv\": [\"go\", \"test\", \"./...\"]}")
		}
		return []string{"/bin/sh", "-c", req.Command}, nil
	case len(req.Argv) == 0 || req.Argv[0] == "":
		return nil, invalid("argv is empty; pass the program and its arguments, e.g. {\"argv\": [\"go\", \"test\", \"./...\"]}")
	}
	for i, a := range req.Argv {
		if strings.IndexByte(a, 0) >= 0 {
			return nil, invalid("argv[%d] contains a NUL byte", i)
		}
	}
	return req.Argv, nil
}

// runCwd resolves the folder a command runs in: a folder inside the jail,
// not denied, not in .git.
func (s *Service) runCwd(root, cwd string) (stored, abs string, err error) {
	if cwd == "" {
		return "", root, nil
	}
	l, err := locate(root, cwd, "cwd")
	if err != nil {
		return "", "", err
	}
	in, err := s.jail.Stat(l.abs)
	if err != nil {
		return "", "", err
	}
	if in.Kind != shell.KindDir {
		return "", "", shell.Errorf(shell.CodeNotADirectory, l.stored, "cwd %s is a file; a command runs in a folder", display(l.stored))
	}
	if shell.HasDotGitSegment(l.stored) {
		return "", "", shell.Errorf(shell.CodeDenied, l.stored, "cwd %s is inside .git, which commands may not touch; run in the working folder", display(l.stored))
	}
	real, err := s.jail.Realpath(l.abs)
	if err != nil {
		return "", "", err
	}
	return l.stored, real, nil
}

// runPATH is the commands' PATH.
func runPATH(cfg *RunConfig) string {
	if cfg.Path != "" {
		return cfg.Path
	}
	return os.Getenv("PATH")
}

// runBox is the sandbox a command of argv runs in (argv, folder,
// environment and timeout aside): its program, what it reads and writes,
// and the paths of the jail it must not touch.
func (s *Service) runBox(cfg *RunConfig, argv []string, root string) (sandbox.Spec, error) {
	var sp sandbox.Spec
	name := argv[0]
	if !(cfg.Shell && name == "/bin/sh" && len(argv) == 3 && argv[1] == "-c") && !programAllowed(cfg, name) {
		return sp, shell.Errorf(shell.CodeNotAllowed, "", "program %s is not on the configuration's list of programs a command may run (run.programs: %s); add it there to allow it",
			name, strings.Join(cfg.Programs, ", "))
	}
	prog := name
	if strings.HasPrefix(name, "./") {
		prog = filepath.Join(root, name)
	}
	path, err := sandbox.LookPath(prog, runPATH(cfg))
	if err != nil {
		return sp, err
	}
	sp.Path = path
	for _, p := range cfg.Read {
		sp.Read = append(sp.Read, expandHome(p))
	}
	if !s.jail.Contains(path) {
		// The program itself, wherever the PATH found it (its folder's
		// other files too: a toolchain's own).
		sp.Read = append(sp.Read, filepath.Dir(path))
	}
	sp.Write = append([]string{}, s.jail.Roots()...)
	for _, p := range cfg.Write {
		sp.Write = append(sp.Write, expandHome(p))
	}
	if sp.Scratch, err = s.store.BoxDir(); err != nil {
		return sp, err
	}
	// The state dir is never the command's; when it lies in the jail, all
	// of it but the commands' own home and temp folders is hidden.
	var keep []string
	if s.jail.Contains(s.store.Dir()) {
		keep = s.store.EntriesBut("run")
	}
	plan, err := sandbox.PlanJail(s.jail, keep...)
	if err != nil {
		return sp, err
	}
	sp.Hide, sp.ReadOnly, sp.Cover = plan.Hide, plan.ReadOnly, plan.Cover
	sp.Network = cfg.Network
	sp.Limits = sandbox.Limits{Processes: cfg.MaxProcesses, MemoryBytes: cfg.MaxMemoryBytes}
	return sp, nil
}

// programAllowed reports whether run.programs lists name (or "*").
func programAllowed(cfg *RunConfig, name string) bool {
	for _, p := range cfg.Programs {
		if p == "*" || p == name {
			return true
		}
	}
	return false
}

// expandHome is p with a leading ~ as editord's home.
func expandHome(p string) string {
	home, _ := os.UserHomeDir()
	return sandbox.ExpandHome(p, home)
}

// runEnv is a command's whole environment: nothing of editord's own but
// PATH and the names run.pass_env lists; a home and temp folder of its
// own; run.env; then the request's additions, refused when they name a
// variable that changes what programs load (run.allow_env lets one by).
func runEnv(cfg *RunConfig, add map[string]string, home, tmp string) ([]string, error) {
	env := map[string]string{"PATH": runPATH(cfg), "HOME": home, "TMPDIR": tmp, "XDG_CACHE_HOME": filepath.Join(home, ".cache")}
	for _, n := range cfg.PassEnv {
		if v, ok := os.LookupEnv(n); ok {
			env[n] = v
		}
	}
	for k, v := range cfg.Env {
		env[k] = v
	}
	names := make([]string, 0, len(add))
	for k := range add {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		v := add[k]
		switch {
		case !envName.MatchString(k):
			return nil, invalid("env name %q is not a variable name (letters, digits and _, not starting with a digit)", k)
		case strings.IndexByte(v, 0) >= 0:
			return nil, invalid("env %s holds a NUL byte", k)
		case !cfg.envAllowed(k):
			return nil, shell.Errorf(shell.CodeNotAllowed, "", "env %s is refused: it changes what programs load or where they write; the configuration's run.allow_env can allow it", k)
		}
		env[k] = v
	}
	out := make([]string, 0, len(env))
	for k, v := range env {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out, nil
}
