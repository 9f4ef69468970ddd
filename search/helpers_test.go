package search

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/editord/editord/shell"
)

var testDeny = []string{".env", ".env.*", "!.env.example", "*.pem", "*.key", "**/secrets/**"}
var testNoise = []string{".git", "node_modules", "target", "dist", "build", ".venv", "__pycache__"}

// tempRoot is a canonical temp folder (t.TempDir may sit behind a symlink).
func tempRoot(t testing.TB) string {
	t.Helper()
	d, err := shell.Canonical(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func openJail(t testing.TB, root string, deny, noise []string) *shell.Jail {
	t.Helper()
	j, err := shell.Open(shell.Config{Roots: []string{root}, Deny: deny, Noise: noise, MaxReadBytes: 16 << 20, MaxWriteBytes: 16 << 20})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { j.Close() })
	return j
}

// writeTree writes files (path -> content); a path ending in "/" is a folder.
func writeTree(t testing.TB, root string, files map[string]string) {
	t.Helper()
	for rel, content := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if strings.HasSuffix(rel, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// gitEnv isolates git from the machine's configuration.
func gitEnv(t testing.TB) []string {
	home := t.TempDir()
	return append(os.Environ(),
		"HOME="+home, "XDG_CONFIG_HOME="+home, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
}

func needGit(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
}

// git runs git in dir and returns its output.
func git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = gitEnv(t)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// gitLines runs git with -z output and splits it.
func gitLines(t testing.TB, dir string, args ...string) []string {
	t.Helper()
	out := git(t, dir, args...)
	var lines []string
	for _, l := range strings.Split(out, "\x00") {
		if l != "" {
			lines = append(lines, l)
		}
	}
	return lines
}

func gitCmd(t testing.TB, dir string, args ...string) *exec.Cmd {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = gitEnv(t)
	return cmd
}
