package search

// Benchmarks on a large tree, warm (caches filled by a first call), the way
// a long-running server sees it.
//
//	go test ./search/ -run '^$' -bench . -benchtime 20x
//
// The tree is generated (EDITORD_BENCH_FILES files, default 60,000, about
// 80 MB, in a git repository) unless EDITORD_BENCH_ROOT names an existing
// folder to use instead (a real checkout, for side-by-side runs against rg
// and fzf).

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/editord/editord/shell"
)

var (
	benchOnce sync.Once
	benchRoot string
	benchErr  error
)

func benchTree(b *testing.B) string {
	b.Helper()
	benchOnce.Do(func() {
		if r := os.Getenv("EDITORD_BENCH_ROOT"); r != "" {
			benchRoot, benchErr = shell.Canonical(r)
			return
		}
		n := 60_000
		if s := os.Getenv("EDITORD_BENCH_FILES"); s != "" {
			n, benchErr = strconv.Atoi(s)
			if benchErr != nil {
				return
			}
		}
		dir, err := os.MkdirTemp("", "editord-bench-")
		if err != nil {
			benchErr = err
			return
		}
		benchRoot, benchErr = shell.Canonical(dir)
		if benchErr == nil {
			benchErr = generateTree(benchRoot, n, 1400)
		}
		if benchErr == nil {
			if _, err := exec.LookPath("git"); err == nil {
				for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"-c", "user.name=b", "-c", "user.email=b@b", "commit", "-qm", "bench"}} {
					cmd := exec.Command("git", args...)
					cmd.Dir = benchRoot
					if out, err := cmd.CombinedOutput(); err != nil {
						benchErr = fmt.Errorf("git %v: %v: %s", args, err, out)
						return
					}
				}
			}
		}
	})
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	return benchRoot
}

// generateTree writes n source-like files of about avg bytes each, spread
// over nested folders, with a few .gitignore files and ignored outputs.
func generateTree(root string, n, avg int) error {
	rng := rand.New(rand.NewPCG(1, 2))
	words := strings.Fields("func return if else for range var const type struct interface package import " +
		"err nil string int bool byte map make append len cap context error handler server client request response " +
		"config option value index buffer reader writer parse format print debug trace warn fatal user account " +
		"session token cache store query result status update delete create fetch render widget model view")
	dirs := []string{""}
	for len(dirs) < n/8 {
		parent := dirs[rng.IntN(len(dirs))]
		name := words[rng.IntN(len(words))] + strconv.Itoa(rng.IntN(100))
		d := filepath.Join(parent, name)
		if strings.Count(d, string(filepath.Separator)) > 7 {
			continue
		}
		dirs = append(dirs, d)
	}
	exts := []string{".go", ".ts", ".rs", ".py", ".md", ".json", ".c", ".h"}
	var sb strings.Builder
	for i := range n {
		d := dirs[rng.IntN(len(dirs))]
		name := fmt.Sprintf("%s_%s%d%s", words[rng.IntN(len(words))], words[rng.IntN(len(words))], i, exts[rng.IntN(len(exts))])
		p := filepath.Join(root, d, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		sb.Reset()
		size := avg/2 + rng.IntN(avg)
		for sb.Len() < size {
			indent := rng.IntN(4)
			sb.WriteString(strings.Repeat("\t", indent))
			for w := 3 + rng.IntN(9); w > 0; w-- {
				sb.WriteString(words[rng.IntN(len(words))])
				if rng.IntN(6) == 0 {
					sb.WriteString("(")
				} else {
					sb.WriteByte(' ')
				}
			}
			if rng.IntN(50) == 0 {
				sb.WriteString("needle_" + strconv.Itoa(rng.IntN(1000)))
			}
			sb.WriteByte('\n')
		}
		if i == n/2 {
			sb.WriteString("xyzzy_rare_marker\n")
		}
		if err := os.WriteFile(p, []byte(sb.String()), 0o644); err != nil {
			return err
		}
	}
	return os.WriteFile(filepath.Join(root, ".gitignore"), []byte("*.log\n/out/\n"), 0o644)
}

func benchEngine(b *testing.B) (*Engine, string) {
	root := benchTree(b)
	j, err := shell.Open(shell.Config{
		Roots:        []string{root},
		Deny:         []string{".env", ".env.*", "!.env.example", "*.pem", "*.key", "**/secrets/**"},
		MaxReadBytes: 16 << 20,
		Noise:        []string{".git", "node_modules", "target", "dist", "build", ".venv", "__pycache__"},
	})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { j.Close() })
	return New(j), root
}

func BenchmarkFind(b *testing.B) {
	e, root := benchEngine(b)
	ctx := context.Background()
	for _, q := range []string{"cfg", "handler_render", "src/http/server.go"} {
		b.Run(q, func(b *testing.B) {
			opt := FindOptions{Query: q, Limit: 50, IncludeUntracked: true, MaxCandidates: 200_000}
			if _, err := e.Find(ctx, root, opt); err != nil { // warm
				b.Fatal(err)
			}
			b.ResetTimer()
			for b.Loop() {
				if _, err := e.Find(ctx, root, opt); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkSearchLiteral(b *testing.B) {
	e, root := benchEngine(b)
	ctx := context.Background()
	for _, tc := range []struct {
		p   string
		max int
	}{{"xyzzy_rare_marker", 2000}, {"GOPACKAGESDRIVER", 2000}, {"return", 2000}, {"err != nil", 1_000_000}} {
		b.Run(fmt.Sprintf("%s/max=%d", tc.p, tc.max), func(b *testing.B) {
			opt := SearchOptions{Pattern: tc.p, MaxMatches: tc.max, MaxFileBytes: 2_000_000}
			if _, err := e.Search(ctx, root, opt); err != nil { // warm
				b.Fatal(err)
			}
			b.ResetTimer()
			for b.Loop() {
				if _, err := e.Search(ctx, root, opt); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkSearchRegex(b *testing.B) {
	e, root := benchEngine(b)
	ctx := context.Background()
	for _, p := range []string{`needle_\d+`, `func\s+\w+Handler`, `[A-Z][a-z]+Error`, `func \([a-z]+ \*[A-Z][A-Za-z]*\) [A-Z][A-Za-z]*\(ctx context\.Context`} {
		b.Run(p, func(b *testing.B) {
			opt := SearchOptions{Pattern: p, MaxMatches: 2000, MaxFileBytes: 2_000_000}
			if _, err := e.Search(ctx, root, opt); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for b.Loop() {
				if _, err := e.Search(ctx, root, opt); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkRefresh is the freshness check alone: what a warm call pays
// before it ranks or reads anything.
func BenchmarkRefresh(b *testing.B) {
	e, root := benchEngine(b)
	s := e.state(root)
	r := findRepo(s.j, root)
	if _, err := s.refresh(r, true, true); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		s.mu.Lock()
		_, err := s.refresh(findRepo(s.j, root), true, true)
		s.mu.Unlock()
		if err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkColdFind is a first call in a fresh process (`editord call`):
// the walk and git's index are read from scratch.
func BenchmarkColdFind(b *testing.B) {
	e, root := benchEngine(b)
	for b.Loop() {
		fresh := New(e.jail)
		if _, err := fresh.Find(context.Background(), root, FindOptions{Query: "builder.go", Limit: 50, IncludeUntracked: true, MaxCandidates: 200_000}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkColdSearch is the same for a search.
func BenchmarkColdSearch(b *testing.B) {
	e, root := benchEngine(b)
	for b.Loop() {
		fresh := New(e.jail)
		if _, err := fresh.Search(context.Background(), root, SearchOptions{Pattern: "xyzzy_rare_marker", MaxMatches: 2000, MaxFileBytes: 2_000_000}); err != nil {
			b.Fatal(err)
		}
	}
}
