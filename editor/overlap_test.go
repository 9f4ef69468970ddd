package editor

// Issue 15 item 4, in process: roots nested in one repository share a
// default state dir, and a process whose jail cannot hold the shared
// active root serves its own.

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

func TestDefaultStateDirIsTheRepository(t *testing.T) {
	base, _ := filepath.EvalSymlinks(t.TempDir())
	t.Setenv("EDITORD_STATE_DIR", "")
	t.Setenv("XDG_STATE_HOME", filepath.Join(base, "state"))
	repo, plain := filepath.Join(base, "p"), filepath.Join(base, "q")
	for _, d := range []string{filepath.Join(repo, ".git"), filepath.Join(repo, "sub", "deeper"), filepath.Join(plain, "sub")} {
		os.MkdirAll(d, 0o755)
	}
	top := DefaultStateDir(repo)
	if got := DefaultStateDir(filepath.Join(repo, "sub", "deeper")); got != top {
		t.Errorf("a folder inside the repository: %s, want the repository's %s", got, top)
	}
	// A worktree or submodule has a .git file: it is a repository of its own.
	os.WriteFile(filepath.Join(repo, "sub", ".git"), []byte("gitdir: ../.git/worktrees/sub\n"), 0o644)
	if got := DefaultStateDir(filepath.Join(repo, "sub", "deeper")); got == top {
		t.Errorf("a nested worktree shares its parent's state dir")
	}
	if DefaultStateDir(plain) == DefaultStateDir(filepath.Join(plain, "sub")) {
		t.Errorf("outside a repository every jail root keeps its own state dir")
	}
}

func TestNestedRootSharingARecordServesItsOwnRoot(t *testing.T) {
	e := tcNew(t)
	e.write("sub/a.txt", "a\n")
	inner, err := New(e.cfg, Options{Root: e.abs("sub"), StateDir: e.state})
	if err != nil {
		t.Fatal(err)
	}
	defer inner.Close()
	ctx := context.Background()
	v, err := inner.WorkspaceGet(ctx, nil)
	if err != nil || v.Root != e.abs("sub") {
		t.Fatalf("the inner process serves %+v (%v), want its own root", v, err)
	}
	if _, err := inner.Open(ctx, &OpenRequest{Path: "a.txt"}); err != nil {
		t.Fatal(err)
	}
	// The shared root moves inside the inner jail: the inner process
	// follows it.
	e.mkdir("sub/x")
	if _, err := e.s.WorkspaceOpen(ctx, &WorkspaceOpenRequest{Root: "sub/x"}); err != nil {
		t.Fatal(err)
	}
	if v, _ := inner.WorkspaceGet(ctx, nil); v.Root != e.abs("sub/x") {
		t.Errorf("the inner process serves %s, want the shared %s", v.Root, e.abs("sub/x"))
	}
}
