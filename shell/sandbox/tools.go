package sandbox

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// ProgramReads lists the folders a program needs readable to run, besides
// the system's: the folder it was found in, the folder of its real file
// (links resolved) or, for a file of a package npm installed, the whole
// node_modules holding it (its dependencies are beside it); and the same
// for the interpreter its #! line names (env's program looked up on
// pathList). Folders that do not exist are left out.
func ProgramReads(program, pathList string) []string {
	var out []string
	add := func(p string) {
		if p != "" && p != "/" && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	var visit func(prog string, interpreted bool)
	visit = func(prog string, interpreted bool) {
		add(filepath.Dir(prog))
		real, err := filepath.EvalSymlinks(prog)
		if err != nil {
			return
		}
		if nm := outermostNodeModules(real); nm != "" {
			add(nm)
		} else {
			add(filepath.Dir(real))
		}
		if interpreted {
			return // an interpreter run by an interpreter: not followed further
		}
		for _, interp := range interpreters(real, pathList) {
			visit(interp, true)
		}
	}
	visit(program, false)
	return out
}

// ExpandHome is p with a leading ~ as home (a configuration's read and
// write folders); p as it is without one, or without a home.
func ExpandHome(p, home string) string {
	if home != "" && (p == "~" || strings.HasPrefix(p, "~/")) {
		return filepath.Join(home, p[1:])
	}
	return p
}

// Realpath is p with every link resolved.
func Realpath(p string) (string, error) { return filepath.EvalSymlinks(p) }

// outermostNodeModules is the first node_modules folder on p's way down
// from the root, or "".
func outermostNodeModules(p string) string {
	const seg = string(filepath.Separator) + "node_modules"
	for i := 0; ; {
		j := strings.Index(p[i:], seg)
		if j < 0 {
			return ""
		}
		end := i + j + len(seg)
		if end == len(p) || p[end] == filepath.Separator {
			return p[:end]
		}
		i = end
	}
}

// interpreters are the programs a script's #! line runs (none for a
// binary): the path it names and, for /usr/bin/env, the program env would
// find on pathList.
func interpreters(script, pathList string) []string {
	f, err := os.Open(script)
	if err != nil {
		return nil
	}
	defer f.Close()
	head := make([]byte, 256)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	if !bytes.HasPrefix(head, []byte("#!")) {
		return nil
	}
	line, _, _ := bytes.Cut(head[2:], []byte("\n"))
	fields := strings.Fields(string(line))
	if len(fields) == 0 || !filepath.IsAbs(fields[0]) {
		return nil
	}
	out := []string{fields[0]}
	if filepath.Base(fields[0]) != "env" {
		return out
	}
	for _, a := range fields[1:] {
		if strings.HasPrefix(a, "-") || strings.Contains(a, "=") {
			continue // env's options (-S) and assignments
		}
		if p, err := LookPath(a, pathList); err == nil {
			out = append(out, p)
		}
		break
	}
	return out
}

// PythonReads lists what the python on pathList needs readable to run and
// import its packages (a language server asks it for its search paths):
// its program's folders, the installation's lib/python3.* folders (the
// standard library and site-packages) and, for a pyenv shim, pyenv's root.
func PythonReads(pathList string) []string {
	var out []string
	for _, name := range []string{"python3", "python"} {
		p, err := LookPath(name, pathList)
		if err != nil {
			continue
		}
		out = append(out, ProgramReads(p, pathList)...)
		if dir := filepath.Dir(p); filepath.Base(dir) == "shims" {
			out = append(out, filepath.Dir(dir)) // pyenv: the shim runs pyenv, which runs a version
		}
		if real, err := filepath.EvalSymlinks(p); err == nil && filepath.Base(filepath.Dir(real)) == "bin" {
			libs, _ := filepath.Glob(filepath.Join(filepath.Dir(filepath.Dir(real)), "lib", "python3*"))
			out = append(out, libs...)
		}
	}
	return out
}
