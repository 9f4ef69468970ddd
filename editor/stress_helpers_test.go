package editor

// Helpers shared by the stress suites (stress_*_test.go, issue 6). Every
// name starts with st so they never collide with the contract tests' tc
// helpers. The suites run a quick version in `go test ./...` and a long one
// when EDITORD_STRESS=long (`make stress`); docs/reliability.md has the
// table of what each attacks.

import (
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/editord/editord/shell"
)

// stLong reports whether the long versions of the stress suites run.
func stLong() bool { return os.Getenv("EDITORD_STRESS") == "long" }

// stN picks a count for the quick or the long run.
func stN(short, long int) int {
	if stLong() {
		return long
	}
	return short
}

const (
	// stCanaryMarker is in every file beside the jail: no response may ever
	// carry it (nothing outside the jail is read).
	stCanaryMarker = "CANARY-c4n4ry-7f3a9"
	// stDeniedMarker is in every denied file inside the jail.
	stDeniedMarker = "DENIED-d3n13d-5b2e1"
)

// stAllowedCodes are the refusals a path attack may get (docs/reliability.md
// explains the choice). The first four are the jail's own answers; the
// others describe the target the path landed on, inside the jail: a path
// may legitimately name an existing file (exists), a folder where a file is
// wanted (is_a_directory), and so on. internal, timeout, git_failed and an
// error without a code are never acceptable.
var stAllowedCodes = map[shell.Code]bool{
	shell.CodeOutsideJail:     true,
	shell.CodeDenied:          true,
	shell.CodeNotFound:        true,
	shell.CodeInvalidArgument: true,
	shell.CodeExists:          true,
	shell.CodeNotEmpty:        true,
	shell.CodeIsADirectory:    true,
	shell.CodeNotADirectory:   true,
	shell.CodeBinary:          true,
	shell.CodeTooLarge:        true,
	shell.CodeNotARepository:  true,
}

// stWarnings collects a Service's warnings (a fuzz body may not log
// through its *testing.F).
type stWarnings struct {
	mu   sync.Mutex
	msgs []string
}

func (w *stWarnings) add(m string) {
	w.mu.Lock()
	w.msgs = append(w.msgs, m)
	w.mu.Unlock()
}

func (w *stWarnings) list() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.msgs...)
}

// stCanary fills dir (outside the jail) with files carrying the canary
// marker, under names the workspace also uses, so an escape would
// overwrite, list or delete them rather than only add files.
func stCanary(t testing.TB, dir string) {
	t.Helper()
	for rel, content := range map[string]string{
		"secret.txt":  stCanaryMarker + " secret\n",
		"a.txt":       stCanaryMarker + " a\n",
		"x":           stCanaryMarker + " x\n",
		"sub/b.txt":   stCanaryMarker + " sub b\n",
		"deep/f.txt":  stCanaryMarker + " deep\r\n",
		".env":        stCanaryMarker + " TOKEN\n",
		"empty/.keep": "",
	} {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		tcWriteFile(t, p, content, 0o644)
	}
}

// stJSONPaths walks a response (as generic JSON) and returns every string
// stored under a key that holds a path.
func stJSONPaths(v any) []string {
	var out []string
	var walk func(key string, v any)
	walk = func(key string, v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, c := range x {
				walk(k, c)
			}
		case []any:
			for _, c := range x {
				walk(key, c)
			}
		case string:
			switch key {
			case "path", "from", "to", "root", "expanded", "buffers_closed", "renamed_from":
				out = append(out, x)
			}
		}
	}
	walk("", v)
	return out
}

// stInside reports whether a path from a response names a place inside the
// jail: absolute under jail, or relative, cleaned and not climbing out.
func stInside(p, jail string) bool {
	if filepath.IsAbs(p) {
		return p == jail || strings.HasPrefix(p, jail+"/")
	}
	if p == "" {
		return true
	}
	return path.Clean(p) == p && p != ".." && !strings.HasPrefix(p, "../")
}

// stToJSON turns a response into generic JSON.
func stToJSON(t testing.TB, v any) (any, string) {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("response does not marshal: %v", err)
	}
	var g any
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatal(err)
	}
	return g, string(b)
}

// stAlloc is the running total of bytes allocated.
func stAlloc() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.TotalAlloc
}
