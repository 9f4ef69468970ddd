package gitops

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// benchFiles is the size of the generated tree (EDITORD_BENCH_FILES
// overrides it, e.g. 60000 to match the large repository).
func benchFiles() int {
	if n, err := strconv.Atoi(os.Getenv("EDITORD_BENCH_FILES")); err == nil && n > 0 {
		return n
	}
	return 20000
}

// benchTree builds a repository of n files spread over folders, committed
// by git, and returns its fixture.
func benchTree(b *testing.B, n int) *fixture {
	b.Helper()
	f := newFixture(b)
	for i := range n {
		dir := fmt.Sprintf("d%02d/s%02d", i%37, i%11)
		p := filepath.Join(f.dir, dir, fmt.Sprintf("file%05d.txt", i))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(fmt.Sprintf("content of file %d\nline two\n", i)), 0o644)
	}
	f.git("add", "-A")
	f.git("commit", "-q", "-m", "bench")
	// Let the racy window pass and let git refresh the index, as a tree
	// that has been sitting there would be.
	time.Sleep(1100 * time.Millisecond)
	f.git("status", "--porcelain=v2")
	return f
}

func benchStatus(b *testing.B, f *fixture) {
	r := f.open()
	b.ResetTimer()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := r.Status(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStatusClean is status on a clean tree.
func BenchmarkStatusClean(b *testing.B) {
	benchStatus(b, benchTree(b, benchFiles()))
}

// BenchmarkStatusTouched is status after touching 100 files (new mtimes,
// same content: each is hashed, none is reported).
func BenchmarkStatusTouched(b *testing.B) {
	f := benchTree(b, benchFiles())
	now := time.Now()
	n := benchFiles()
	for i := 0; i < n; i += n / 100 {
		p := filepath.Join(f.dir, fmt.Sprintf("d%02d/s%02d/file%05d.txt", i%37, i%11, i))
		os.Chtimes(p, now, now)
	}
	benchStatus(b, f)
}

// BenchmarkStatusModified is status after modifying 100 files.
func BenchmarkStatusModified(b *testing.B) {
	f := benchTree(b, benchFiles())
	n := benchFiles()
	for i := 0; i < n; i += n / 100 {
		p := filepath.Join(f.dir, fmt.Sprintf("d%02d/s%02d/file%05d.txt", i%37, i%11, i))
		os.WriteFile(p, []byte("changed\n"), 0o644)
	}
	benchStatus(b, f)
}

// TestStatusSmallTiming keeps an eye on the per-call cost of a tiny repo.
func BenchmarkStatusTiny(b *testing.B) {
	f := newFixture(b)
	f.write("a.txt", "a\n")
	f.write("d/b.txt", "b\n")
	f.commitAll("c")
	benchStatus(b, f)
}

// BenchmarkGitStatusClean runs git itself on the same tree, for a
// side-by-side reading with BenchmarkStatusClean.
func BenchmarkGitStatusClean(b *testing.B) {
	f := benchTree(b, benchFiles())
	b.ResetTimer()
	for b.Loop() {
		if _, err := gitCmd(f.dir, "status", "--porcelain=v2", "--branch"); err != nil {
			b.Fatal(err)
		}
	}
}
