package main

// Issue 15 item 4: confirmed saves lost across overlapping roots. Real
// `editord serve` processes on --root /p and --root /p/sub race guarded
// open -> edit -> save loops on one file, p/sub/shared.txt. On main the
// two roots derived different default state dirs, so their save locks
// never met: 6 of 600 confirmed saves were lost with the defaults, 20 of
// 600 with explicit different --state-dir. Now the save lock is an flock
// on the file's folder (shared by every process whatever its state dir)
// and the default state dir of a root inside a repository is the
// repository's.

import (
	"os"
	"path/filepath"
	"testing"
)

func TestStressOverlappingRootsLoseNoSave(t *testing.T) {
	procs, rounds := stN(4, 8), stN(40, 100)
	for _, tc := range []struct {
		name     string
		explicit bool // each process its own --state-dir
	}{{"default state dirs", false}, {"explicit different state dirs", true}} {
		t.Run(tc.name, func(t *testing.T) {
			p := workspaceDir(t)
			sub := filepath.Join(p, "sub")
			if err := os.MkdirAll(filepath.Join(p, ".git"), 0o755); err != nil { // a repository (a .git folder is what marks one)
				t.Fatal(err)
			}
			os.MkdirAll(sub, 0o755)
			stateHome := t.TempDir()
			servers := make([]*rawServer, procs)
			paths := make([]string, procs)
			for i := range servers {
				root, path := p, "sub/shared.txt"
				if i%2 == 1 {
					root, path = sub, "shared.txt"
				}
				args := []string{"serve", "--root", root}
				if tc.explicit {
					args = append(args, "--state-dir", t.TempDir())
				}
				env := []string{"HOME=" + stateHome, "XDG_STATE_HOME=" + stateHome, "XDG_CONFIG_HOME=" + stateHome, "EDITORD_STATE_DIR="}
				servers[i] = startRawEnv(t, env, true, args...)
				paths[i] = path
			}
			if !tc.explicit {
				// Both roots of the repository share one record.
				dirs, _ := os.ReadDir(filepath.Join(stateHome, "editord"))
				if len(dirs) != 1 {
					t.Errorf("the two roots of one repository use %d default state dirs, want 1", len(dirs))
				}
			}
			raceGuardedSaves(t, servers, paths, filepath.Join(sub, "shared.txt"), rounds)
		})
	}
}
