package diff

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Helpers that check patches against the real consumers, git apply and GNU
// patch. Both run in fresh directories outside any repository, with user and
// system git config ignored so local settings cannot change the outcome.

func needTool(t *testing.T, name string) {
	t.Helper()
	if _, err := exec.LookPath(name); err != nil {
		t.Skipf("%s not on PATH", name)
	}
}

func toolEnv(dir string) []string {
	return append(os.Environ(),
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL="+os.DevNull,
		"GIT_CEILING_DIRECTORIES="+filepath.Dir(dir),
		"LC_ALL=C",
	)
}

func run(dir, name string, args ...string) (string, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = toolEnv(dir)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// stage writes before (nil: no file) as dir/<name> and the patch next to it.
func stage(t *testing.T, name string, before *string, patch string) (dir, patchFile string) {
	t.Helper()
	root := t.TempDir()
	dir = filepath.Join(root, "tree")
	patchFile = filepath.Join(root, "change.patch")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if before != nil {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(*before), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(patchFile, []byte(patch), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, patchFile
}

// readResult returns the patched file, or nil if the tool removed it.
func readResult(t *testing.T, path string) *string {
	t.Helper()
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	return &s
}

// applyGit checks then applies patch with git apply; it returns the result.
// Like git itself, git apply wants --unidiff-zero for context-free patches.
func applyGit(t *testing.T, name string, before *string, patch string, zeroContext bool) (*string, error) {
	t.Helper()
	dir, pf := stage(t, name, before, patch)
	args := []string{"apply", "--whitespace=nowarn"}
	if zeroContext {
		args = append(args, "--unidiff-zero")
	}
	if out, err := run(dir, "git", append(args, "--check", pf)...); err != nil {
		return nil, errors.New("git apply --check: " + err.Error() + "\n" + out)
	}
	if out, err := run(dir, "git", append(args, pf)...); err != nil {
		return nil, errors.New("git apply: " + err.Error() + "\n" + out)
	}
	return readResult(t, filepath.Join(dir, name)), nil
}

// applyPatch does the same with GNU patch -p1. --force keeps it from asking
// questions, so a mismatch fails instead of hanging.
func applyPatch(t *testing.T, name string, before *string, patch string, _ bool) (*string, error) {
	t.Helper()
	dir, pf := stage(t, name, before, patch)
	args := []string{"-p1", "--force", "--silent", "--no-backup-if-mismatch", "-r", "-", "-i", pf}
	if out, err := run(dir, "patch", append([]string{"--dry-run"}, args...)...); err != nil {
		return nil, errors.New("patch --dry-run: " + err.Error() + "\n" + out)
	}
	if out, err := run(dir, "patch", args...); err != nil {
		return nil, errors.New("patch: " + err.Error() + "\n" + out)
	}
	return readResult(t, filepath.Join(dir, name)), nil
}

// sameContent compares byte for byte; nil (file removed) matches only nil.
func sameContent(got, want *string) bool {
	if got == nil || want == nil {
		return got == want
	}
	return *got == *want
}

func haveTool(name string) bool {
	_, err := exec.LookPath(name)
	return err == nil
}
