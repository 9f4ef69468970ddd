package shell

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
)

// defaultDeny is the default deny list (docs/reference.md, [jail]).
var defaultDeny = []string{".env", ".env.*", "!.env.example", "*.pem", "*.key", "**/secrets/**"}

var defaultNoise = []string{".git", "node_modules", "target", "dist", "build", ".venv", "__pycache__"}

// fixture is a jail root with a canary folder beside it. The canary holds
// files that no call on the jail may ever change; checkCanary compares it
// byte for byte with the snapshot taken when the fixture was built.
type fixture struct {
	t      testing.TB
	base   string // canonical temp dir holding both
	root   string // the jail root (canonical)
	canary string // a sibling of root, outside the jail
	j      *Jail
	snap   map[string]string
}

type fixtureOpt func(*Config)

func withMaxWrite(n int64) fixtureOpt { return func(c *Config) { c.MaxWriteBytes = n } }
func withMaxRead(n int64) fixtureOpt  { return func(c *Config) { c.MaxReadBytes = n } }
func withDeny(d ...string) fixtureOpt { return func(c *Config) { c.Deny = d } }

// newFixture builds an empty jail and a canary. Files are added with
// f.file, f.dir and f.link before snapshotting with f.seal (newFixture
// seals once; call seal again after adding canary content).
func newFixture(t testing.TB, opts ...fixtureOpt) *fixture {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{t: t, base: base, root: filepath.Join(base, "jail"), canary: filepath.Join(base, "canary")}
	for _, d := range []string{f.root, f.canary, filepath.Join(f.canary, "deep")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	mustWrite(t, filepath.Join(f.canary, "secret.txt"), "canary: do not touch\n", 0o644)
	mustWrite(t, filepath.Join(f.canary, "deep", "f.txt"), "deep canary\r\n", 0o600)
	mustWrite(t, filepath.Join(f.canary, ".env"), "TOKEN=canary\n", 0o600)
	cfg := Config{
		Roots:         []string{f.root},
		Deny:          defaultDeny,
		MaxReadBytes:  16 << 20,
		MaxWriteBytes: 16 << 20,
		Noise:         defaultNoise,
	}
	for _, o := range opts {
		o(&cfg)
	}
	j, err := Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { j.Close() })
	f.j = j
	f.seal()
	t.Cleanup(func() {
		if !t.Failed() {
			f.checkCanary()
		}
	})
	return f
}

func mustWrite(t testing.TB, p, data string, perm fs.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), perm); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, perm); err != nil {
		t.Fatal(err)
	}
}

// abs is the absolute path of rel inside the jail ("" for the root).
func (f *fixture) abs(rel string) string {
	if rel == "" {
		return f.root
	}
	return f.root + "/" + rel
}

func (f *fixture) file(rel, data string) { f.t.Helper(); mustWrite(f.t, f.abs(rel), data, 0o644) }

func (f *fixture) dir(rel string) {
	f.t.Helper()
	if err := os.MkdirAll(f.abs(rel), 0o755); err != nil {
		f.t.Fatal(err)
	}
}

// link makes rel a symlink to target (written verbatim).
func (f *fixture) link(target, rel string) {
	f.t.Helper()
	if err := os.MkdirAll(filepath.Dir(f.abs(rel)), 0o755); err != nil {
		f.t.Fatal(err)
	}
	if err := os.Symlink(target, f.abs(rel)); err != nil {
		f.t.Fatal(err)
	}
}

// read returns the bytes of rel read with the os package (not the jail).
func (f *fixture) read(rel string) string {
	f.t.Helper()
	b, err := os.ReadFile(f.abs(rel))
	if err != nil {
		f.t.Fatalf("reading %s: %v", rel, err)
	}
	return string(b)
}

func (f *fixture) exists(rel string) bool {
	_, err := os.Lstat(f.abs(rel))
	return err == nil
}

// seal snapshots the canary.
func (f *fixture) seal() { f.snap = snapshot(f.t, f.canary) }

// checkCanary fails the test if anything in the canary changed.
func (f *fixture) checkCanary() {
	f.t.Helper()
	now := snapshot(f.t, f.canary)
	if diff := diffSnap(f.snap, now); diff != "" {
		f.t.Fatalf("the canary beside the jail changed:\n%s", diff)
	}
}

// snapshot records every entry under dir: kind, mode and exact content (or
// link target).
func snapshot(t testing.TB, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			m[rel] = "link:" + target
		case fi.IsDir():
			m[rel] = fmt.Sprintf("dir:%v", fi.Mode())
		default:
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			m[rel] = fmt.Sprintf("file:%v:%q", fi.Mode(), b)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("snapshot of %s: %v", dir, err)
	}
	return m
}

func diffSnap(a, b map[string]string) string {
	var keys []string
	for k := range a {
		keys = append(keys, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var out strings.Builder
	for _, k := range keys {
		if a[k] != b[k] {
			fmt.Fprintf(&out, "  %s: before %q, now %q\n", k, a[k], b[k])
		}
	}
	return out.String()
}

// wantCode checks err's code; "" means success.
func wantCode(t testing.TB, err error, want Code) {
	t.Helper()
	if want == "" {
		if err != nil {
			t.Fatalf("want success, got %v (code %s)", err, CodeOf(err))
		}
		return
	}
	if err == nil {
		t.Fatalf("want %s, got success", want)
	}
	if got := CodeOf(err); got != want {
		t.Fatalf("want %s, got %s: %v", want, got, err)
	}
	var e *Error
	if errors.As(err, &e) && e.Message == "" {
		t.Fatalf("error %s carries no message", want)
	}
}

// tempFiles lists editord temp files anywhere under dir.
func tempFiles(t testing.TB, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && IsTempName(d.Name()) {
			out = append(out, p)
		}
		return nil
	})
	return out
}

func equalBytes(t testing.TB, what string, got, want []byte) {
	t.Helper()
	if !bytes.Equal(got, want) {
		t.Fatalf("%s: got %q, want %q", what, got, want)
	}
}

func umask(m int) int { return syscall.Umask(m) }
