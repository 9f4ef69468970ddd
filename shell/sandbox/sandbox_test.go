//go:build linux

package sandbox

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestMain(m *testing.M) {
	Init()
	if mode := os.Getenv(helperEnv); mode != "" {
		os.Exit(helper(mode, os.Args[2:]))
	}
	// As a serving editord does: every escape is tried on spare inits too.
	KeepSpare(true)
	code := m.Run()
	KeepSpare(false)
	os.Exit(code)
}

// box is a jail and the folders of one test's runs.
type box struct {
	t       *testing.T
	jail    string
	tmp     string
	scratch string
	outside string // a folder beside the jail that no rule grants
	self    string // this test binary, the helper program
}

// needSandbox skips when commands cannot be confined here (no Landlock or
// user namespaces), unless the environment says the sandbox tests must
// run (.ci/run sets EDITORD_SANDBOX_TESTS=1).
func needSandbox(t testing.TB) {
	t.Helper()
	if err := Available(); err != nil {
		if os.Getenv("EDITORD_SANDBOX_TESTS") == "1" {
			t.Fatalf("EDITORD_SANDBOX_TESTS=1 but %v", err)
		}
		t.Skipf("%v", err)
	}
}

func newBox(t *testing.T) *box {
	t.Helper()
	needSandbox(t)
	base := t.TempDir()
	b := &box{t: t, jail: filepath.Join(base, "jail"), tmp: filepath.Join(base, "tmp"),
		scratch: filepath.Join(base, "scratch"), outside: filepath.Join(base, "outside")}
	for _, d := range []string{b.jail, b.tmp, b.scratch, b.outside} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	b.self = self
	return b
}

// systemRead is what a shell and coreutils need to run.
var systemRead = []string{"/usr", "/bin", "/sbin", "/lib", "/lib64", "/etc"}

func (b *box) spec(args ...string) Spec {
	path := args[0]
	if !filepath.IsAbs(path) {
		p, err := LookPath(path, "/usr/bin:/bin")
		if err != nil {
			b.t.Fatal(err)
		}
		path = p
	}
	return Spec{Path: path, Args: args, Dir: b.jail, Env: []string{"PATH=/usr/bin:/bin", "TMPDIR=" + b.tmp},
		Read: append(append([]string{}, systemRead...), b.self), Write: []string{b.jail, b.tmp}, Scratch: b.scratch,
		Timeout: time.Minute}
}

// helperSpec runs this test binary as the command, in helper mode.
func (b *box) helperSpec(mode string, args ...string) Spec {
	sp := b.spec(append([]string{b.self, mode}, args...)...)
	sp.Env = append(sp.Env, helperEnv+"="+mode, "GORACE=atexit_sleep_ms=0")
	return sp
}

type ran struct {
	Result
	stdout, stderr string
}

func (b *box) run(sp Spec) ran {
	b.t.Helper()
	var out, errOut bytes.Buffer
	sp.Stdout, sp.Stderr = &out, &errOut
	p, err := Start(context.Background(), sp)
	if err != nil {
		b.t.Fatalf("Start: %v", err)
	}
	res := p.Wait()
	return ran{Result: res, stdout: out.String(), stderr: errOut.String()}
}

func (b *box) write(rel, content string) string {
	b.t.Helper()
	p := filepath.Join(b.jail, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		b.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		b.t.Fatal(err)
	}
	return p
}

func TestRunsACommand(t *testing.T) {
	b := newBox(t)
	b.write("a.txt", "hello\n")
	sp := b.spec("sh", "-c", "cat a.txt; echo err >&2; pwd; echo made > b.txt; cat; exit 3")
	sp.Stdin = strings.NewReader("from stdin\n")
	r := b.run(sp)
	if r.ExitCode != 3 || r.Signal != "" || r.TimedOut || r.Killed {
		t.Fatalf("result %+v, stderr %q", r.Result, r.stderr)
	}
	if want := "hello\n" + b.jail + "\nfrom stdin\n"; r.stdout != want {
		t.Fatalf("stdout %q, want %q", r.stdout, want)
	}
	if r.stderr != "err\n" {
		t.Fatalf("stderr %q", r.stderr)
	}
	if data, err := os.ReadFile(filepath.Join(b.jail, "b.txt")); err != nil || string(data) != "made\n" {
		t.Fatalf("b.txt: %q %v", data, err)
	}
}

// The command sees its own processes only: the init (1) and itself.
func TestOwnProcesses(t *testing.T) {
	b := newBox(t)
	r := b.run(b.spec("sh", "-c", "ls /proc | grep -c '^[0-9]'; id -u"))
	if r.ExitCode != 0 {
		t.Fatalf("%+v %q", r.Result, r.stderr)
	}
	// At most the init, sh, ls and grep; root of its namespace (with no
	// capability, see TestEscapeDeniedFile).
	if f := strings.Fields(r.stdout); len(f) != 2 || len(f[0]) != 1 || f[0] > "4" || f[1] != "0" {
		t.Fatalf("processes, uid: %q", r.stdout)
	}
}
