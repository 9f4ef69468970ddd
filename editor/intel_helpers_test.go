package editor

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/editord/editord/editor/lsp"
)

// The language servers the tests run are the project's own pinned ones
// (testdata/lsp: gopls built by `make lsp`, the npm servers from its
// package-lock.json), which .ci/run installs. Without them a test skips
// locally and fails in CI.

// lspRepo is the repository's root, above the editor package.
func lspRepo(t testing.TB) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Dir(wd)
}

// lspServer is the configured server name with its command pointed at the
// project's pinned install, or skips (fails under CI) when not installed.
func lspServer(t testing.TB, name string) func(*Config) {
	t.Helper()
	base := filepath.Join(lspRepo(t), "testdata", "lsp")
	var cmd []string
	switch name {
	case "go":
		cmd = []string{filepath.Join(base, "bin", "gopls")}
	case "typescript":
		cmd = []string{filepath.Join(base, "node_modules", ".bin", "typescript-language-server"), "--stdio"}
	case "python":
		cmd = []string{filepath.Join(base, "node_modules", ".bin", "pyright-langserver"), "--stdio"}
	}
	if _, err := os.Stat(cmd[0]); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s is not installed; .ci/run installs it (make lsp)", cmd[0])
		}
		t.Skipf("%s is not installed; run make lsp", cmd[0])
	}
	return func(c *Config) {
		srv := c.LSP[name]
		srv.Command = cmd
		c.LSP = lsp.WithDefaults(c.LSP)
		c.LSP[name] = srv
	}
}

// lspWrite writes files (root-relative path to content) under e's root.
func lspWrite(e *tcEnv, files map[string]string) {
	e.t.Helper()
	for p, c := range files {
		if err := os.MkdirAll(filepath.Dir(e.abs(p)), 0o755); err != nil {
			e.t.Fatal(err)
		}
		tcWriteFile(e.t, e.abs(p), c, 0o644)
	}
}
