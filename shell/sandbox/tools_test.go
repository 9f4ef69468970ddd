package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func mkfile(t *testing.T, p, content string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
}

// realDir is the folder of p's real file (/bin/sh is /usr/bin/dash on
// some systems).
func realDir(t *testing.T, p string) string {
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		t.Skipf("no %s: %v", p, err)
	}
	return filepath.Dir(real)
}

func wantReads(t *testing.T, got []string, want ...string) {
	t.Helper()
	slices.Sort(got)
	want = slices.Compact(slices.Sorted(slices.Values(want)))
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("reads:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

// A server npm installed: the link's folder, the whole node_modules (its
// dependencies are beside it), and the node its #! line finds on PATH,
// wherever it really is.
func TestProgramReadsOfAnNpmServer(t *testing.T) {
	base, _ := filepath.EvalSymlinks(t.TempDir())
	nm := filepath.Join(base, "tools", "node_modules")
	cli := filepath.Join(nm, "server", "lib", "cli.mjs")
	mkfile(t, cli, "#!/usr/bin/env -S node --max-old-space-size=4096\n", 0o755)
	link := filepath.Join(nm, ".bin", "server")
	os.MkdirAll(filepath.Dir(link), 0o755)
	if err := os.Symlink("../server/lib/cli.mjs", link); err != nil {
		t.Fatal(err)
	}
	node := filepath.Join(base, "node-v22", "bin", "node")
	mkfile(t, node, "\x7fELF", 0o755)
	pathDir := filepath.Join(base, "path")
	os.MkdirAll(pathDir, 0o755)
	os.Symlink(node, filepath.Join(pathDir, "node"))
	got := ProgramReads(link, pathDir)
	wantReads(t, got, filepath.Join(nm, ".bin"), nm, "/usr/bin", realDir(t, "/usr/bin/env"), pathDir, filepath.Dir(node))
}

// A binary (gopls): its folder only.
func TestProgramReadsOfABinary(t *testing.T) {
	base, _ := filepath.EvalSymlinks(t.TempDir())
	bin := filepath.Join(base, "go", "bin", "gopls")
	mkfile(t, bin, "\x7fELF\x02", 0o755)
	wantReads(t, ProgramReads(bin, ""), filepath.Dir(bin))
}

// The python a server asks for its search paths: a pyenv shim brings
// pyenv's root; an installation its lib/python3.* (not its whole prefix).
func TestPythonReads(t *testing.T) {
	base, _ := filepath.EvalSymlinks(t.TempDir())
	shims := filepath.Join(base, ".pyenv", "shims")
	mkfile(t, filepath.Join(shims, "python3"), "#!/bin/sh\nexec pyenv exec python3 \"$@\"\n", 0o755)
	wantReads(t, PythonReads(shims), shims, "/bin", realDir(t, "/bin/sh"), filepath.Join(base, ".pyenv"))

	prefix := filepath.Join(base, "opt", "py312")
	mkfile(t, filepath.Join(prefix, "bin", "python3"), "\x7fELF", 0o755)
	mkfile(t, filepath.Join(prefix, "lib", "python3.12", "os.py"), "", 0o644)
	mkfile(t, filepath.Join(prefix, "share", "secret"), "", 0o644)
	wantReads(t, PythonReads(filepath.Join(prefix, "bin")), filepath.Join(prefix, "bin"), filepath.Join(prefix, "lib", "python3.12"))
}
