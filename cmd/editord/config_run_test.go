package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The [run] table is read like the others: its keys known, its values
// checked, a typo named.
func TestConfigRunTable(t *testing.T) {
	for _, c := range []struct {
		toml, err string
	}{
		{"[run]\nenabled = true\nprograms = [\"go\"]\nread = [\"~/go/pkg/mod\", \"/opt/tool\"]\nenv = { GOFLAGS = \"-mod=mod\" }\n", ""},
		{"[run]\nenable = true\n", "unknown key run.enable"},
		{"[run]\nread = [\"relative/dir\"]\n", "run.read entry \"relative/dir\" must be an absolute path"},
		{"[run]\ntimeout_ms = 0\n", "run.timeout_ms must be positive"},
		{"[run]\ntimeout_ms = 20\nmax_timeout_ms = 10\n", "is over run.max_timeout_ms"},
		{"[run]\nprograms = [\"bin/tool\"]\n", "a program with a slash is an absolute path or starts with ./"},
		{"[run]\nenv = { \"A-B\" = \"x\" }\n", "run.env key \"A-B\" is not a variable name"},
	} {
		p := filepath.Join(t.TempDir(), "config.toml")
		os.WriteFile(p, []byte(c.toml), 0o644)
		cfg, _, err := loadConfig(p)
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%q: %v", c.toml, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%q: got %v, want %q", c.toml, err, c.err)
		case c.err == "" && (!cfg.Run.Enabled || cfg.Run.Env["GOFLAGS"] != "-mod=mod" || len(cfg.Run.PassEnv) == 0):
			t.Errorf("%q: read as %+v", c.toml, cfg.Run)
		}
	}
}
