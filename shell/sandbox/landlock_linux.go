//go:build linux

package sandbox

import (
	"os"

	"github.com/landlock-lsm/go-landlock/landlock"
	llsyscall "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// minABI is the oldest Landlock ABI the sandbox accepts: 3 is the first
// that governs truncation, without which a readable file outside the jail
// could be emptied.
const minABI = 3

// devices every command may read and write.
var devices = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom"}

// landlockBox restricts the init, on every thread, and so everything it
// starts: reads beneath sp.Read, reads and writes beneath sp.Write. The
// network is left to the namespace (a test server on the sandbox's own
// loopback must work), so TCP is not handled here.
func landlockBox(sp *initSpec) error {
	cfg := landlock.V9
	cfg.HandledAccessNet = 0
	var roDirs, roFiles, rwDirs, rwFiles []string
	sort := func(paths []string, dirs, files *[]string) {
		for _, p := range paths {
			fi, err := os.Stat(p)
			switch {
			case err != nil:
				// Missing: nothing to grant.
			case fi.IsDir():
				*dirs = append(*dirs, p)
			default:
				*files = append(*files, p)
			}
		}
	}
	sort(append([]string{"/proc"}, sp.Read...), &roDirs, &roFiles)
	sort(sp.Write, &rwDirs, &rwFiles)
	rwFiles = append(rwFiles, devices...)
	rules := []landlock.Rule{
		landlock.RODirs(roDirs...),
		landlock.ROFiles(roFiles...),
		landlock.RWDirs(rwDirs...).WithRefer(),
		landlock.RWFiles(rwFiles...).IgnoreIfMissing(),
	}
	if sp.TTY != "" {
		// A program may open its terminal again (a prompt, a pager, a
		// shell's job control) and then sizes it and sets its modes:
		// ioctls, which Landlock denies on a device opened in the jail
		// (ABI 5) unless granted. Only this terminal gets them.
		rules = append(rules, landlock.RWFiles("/dev/tty", sp.TTY).WithIoctlDev().IgnoreIfMissing())
	}
	// Best effort keeps what a kernel of an ABI between minABI and the
	// newest one go-landlock knows can enforce; Available refuses older.
	return cfg.BestEffort().Restrict(rules...)
}

// landlockABI is the kernel's Landlock ABI version (0 without Landlock).
func landlockABI() int {
	v, err := llsyscall.LandlockGetABIVersion()
	if err != nil {
		return 0
	}
	return v
}
