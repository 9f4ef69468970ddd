package gitops

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A repository with a submodule: status shows the submodule as git does,
// modified (".M") when its checked-out commit is not the recorded one, or
// its own worktree has changes or untracked files, and not otherwise.
func TestStatusSubmodule(t *testing.T) {
	f := newFixture(t)
	lib := filepath.Join(filepath.Dir(f.dir), "lib-"+filepath.Base(f.dir))
	f.gitIn(filepath.Dir(lib), "init", "-q", lib)
	os.WriteFile(filepath.Join(lib, "lib.go"), []byte("package lib\n"), 0o644)
	f.gitIn(lib, "add", "-A")
	f.gitIn(lib, "commit", "-q", "-m", "lib")
	f.write("main.go", "package main\n")
	f.git("-c", "protocol.file.allow=always", "submodule", "add", "-q", lib, "vendor/lib")
	f.commitAll("with a submodule")
	sub := f.path("vendor/lib")

	f.checkStatus("clean, with a submodule")
	if st := f.status(); !st.Clean() {
		t.Fatalf("clean: %+v", st.Entries)
	}

	os.WriteFile(filepath.Join(sub, "notes.txt"), []byte("untracked in the submodule\n"), 0o644)
	f.checkStatus("untracked file in the submodule")
	os.Remove(filepath.Join(sub, "notes.txt"))
	f.checkStatus("untracked file removed")

	os.WriteFile(filepath.Join(sub, "lib.go"), []byte("package lib // edited\n"), 0o644)
	f.checkStatus("tracked file modified in the submodule")

	f.gitIn(sub, "commit", "-q", "-am", "a new commit in the submodule")
	f.checkStatus("the submodule moved to a new commit")

	f.git("add", "vendor/lib")
	f.checkStatus("the new submodule commit staged")
	f.commitAll("bump the submodule")
	f.checkStatus("committed")

	// stage_all records the submodule's new commit, as git add -A does,
	// and leaves its own dirty files to it.
	f.gitIn(sub, "commit", "-q", "--allow-empty", "-m", "another submodule commit")
	os.WriteFile(filepath.Join(sub, "scratch.txt"), []byte("untracked, the submodule's business\n"), 0o644)
	res, err := f.open().Commit(context.Background(), CommitOptions{Message: "bump again", StageAll: true})
	if err != nil || !res.Committed {
		t.Fatalf("commit stage_all: %+v, %v", res, err)
	}
	if got, want := strings.TrimSpace(f.git("rev-parse", "HEAD:vendor/lib")), strings.TrimSpace(f.gitIn(sub, "rev-parse", "HEAD")); got != want {
		t.Fatalf("committed submodule at %s, checked out %s", got, want)
	}
	f.checkStatus("after stage_all with a submodule")
	f.checkRepo("after stage_all with a submodule")
	os.Remove(filepath.Join(sub, "scratch.txt"))

	// A commit of exactly the submodule's path, as git commit -- vendor/lib.
	f.gitIn(sub, "commit", "-q", "--allow-empty", "-m", "a third submodule commit")
	f.write("main.go", "package main // not in this commit\n")
	res, err = f.open().Commit(context.Background(), CommitOptions{Message: "bump by path", Paths: []string{"vendor/lib"}})
	if err != nil || !res.Committed {
		t.Fatalf("commit paths: %+v, %v", res, err)
	}
	if got, want := strings.TrimSpace(f.git("rev-parse", "HEAD:vendor/lib")), strings.TrimSpace(f.gitIn(sub, "rev-parse", "HEAD")); got != want {
		t.Fatalf("committed submodule at %s, checked out %s", got, want)
	}
	if files := strings.TrimSpace(f.git("show", "--name-only", "--format=", "HEAD")); files != "vendor/lib" {
		t.Fatalf("the commit by path holds %q", files)
	}
	f.checkStatus("after a commit of the submodule's path")
	f.git("checkout", "--", "main.go")

	// submodule.<name>.ignore narrows what counts, as for git.
	os.WriteFile(filepath.Join(sub, "lib.go"), []byte("package lib // dirty again\n"), 0o644)
	for _, ignore := range []string{"untracked", "dirty", "all", "none"} {
		f.git("config", "submodule.vendor/lib.ignore", ignore)
		f.checkStatus("dirty submodule, ignore=" + ignore)
	}
	f.git("config", "--unset", "submodule.vendor/lib.ignore")
	// The same from .gitmodules, and diff.ignoreSubmodules as the default;
	// the repository's config still wins over .gitmodules.
	f.git("config", "-f", ".gitmodules", "submodule.vendor/lib.ignore", "all")
	f.checkStatus("dirty submodule, .gitmodules ignore=all")
	f.git("config", "submodule.vendor/lib.ignore", "none")
	f.checkStatus("dirty submodule, config ignore=none over .gitmodules ignore=all")
	f.git("config", "--unset", "submodule.vendor/lib.ignore")
	f.git("config", "-f", ".gitmodules", "--unset", "submodule.vendor/lib.ignore")
	f.git("config", "diff.ignoreSubmodules", "dirty")
	f.checkStatus("dirty submodule, diff.ignoreSubmodules=dirty")
	f.git("config", "--unset", "diff.ignoreSubmodules")
	f.gitIn(sub, "checkout", "-q", "--", ".")

	// Not checked out (an empty folder): unchanged, as for git.
	f.git("submodule", "deinit", "-q", "-f", "vendor/lib")
	f.checkStatus("submodule deinitialized")
}
