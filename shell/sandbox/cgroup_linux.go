//go:build linux

package sandbox

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// pidsCgroup is a cgroup made for one run, below editord's own, whose
// pids.max bounds the run's processes and threads. The kernel applies
// RLIMIT_NPROC to every user but root; this is the limit for root.
type pidsCgroup struct {
	dir string
	max int // pids.max
}

var cgroupSeq atomic.Uint64

// newPidsCgroup makes the cgroup, in the pids hierarchy of cgroup v1 or in
// cgroup v2 where the pids controller is delegated to editord's cgroup.
func newPidsCgroup(max int) (*pidsCgroup, error) {
	base, err := ownPidsCgroup()
	if err != nil {
		return nil, err
	}
	sweepOnce.Do(func() { sweepCgroups(base) })
	dir := filepath.Join(base, fmt.Sprintf("editord-run-%d-%d", os.Getpid(), cgroupSeq.Add(1)))
	if err := os.Mkdir(dir, 0o755); err != nil {
		return nil, err
	}
	cg := &pidsCgroup{dir: dir, max: max}
	if err := os.WriteFile(filepath.Join(dir, "pids.max"), []byte(strconv.Itoa(max)), 0); err != nil {
		cg.remove()
		return nil, err
	}
	return cg, nil
}

// remove deletes the cgroup once the run's processes are gone. The
// kernel may hold it a little after the init is reaped; then it is
// removed in the background, not on the way to the command's result.
func (cg *pidsCgroup) remove() {
	if cg == nil {
		return
	}
	if err := os.Remove(cg.dir); err == nil || os.IsNotExist(err) {
		return
	}
	cgRemovals.Add(1)
	go func() {
		defer cgRemovals.Done()
		deadline := time.Now().Add(2 * time.Second)
		for {
			time.Sleep(5 * time.Millisecond)
			err := os.Remove(cg.dir)
			if err == nil || os.IsNotExist(err) || time.Now().After(deadline) {
				return
			}
		}
	}()
}

// cgRemovals are the removals under way in the background.
var cgRemovals sync.WaitGroup

var sweepOnce sync.Once

// sweepCgroups removes the cgroups an editord process that is gone left
// in base (killed before it could remove them); an empty cgroup is all
// that can be removed.
func sweepCgroups(base string) {
	ents, err := os.ReadDir(base)
	if err != nil {
		return
	}
	for _, e := range ents {
		rest, ok := strings.CutPrefix(e.Name(), "editord-run-")
		if !ok || !e.IsDir() {
			continue
		}
		pidText, _, _ := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(pidText)
		if err != nil || pid <= 0 || pid == os.Getpid() || syscall.Kill(pid, 0) != syscall.ESRCH {
			continue
		}
		os.Remove(filepath.Join(base, e.Name()))
	}
}

// ownPidsCgroup is the folder of this process's cgroup that has a pids
// controller: a v1 pids hierarchy, else v2 when pids is enabled for its
// children.
func ownPidsCgroup() (string, error) {
	mounts, err := cgroupMounts()
	if err != nil {
		return "", err
	}
	f, err := os.Open("/proc/self/cgroup")
	if err != nil {
		return "", err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	v2 := ""
	for sc.Scan() {
		// hierarchy-ID:controllers:path
		parts := strings.SplitN(sc.Text(), ":", 3)
		if len(parts) != 3 {
			continue
		}
		if parts[1] == "" {
			v2 = parts[2]
			continue
		}
		for _, c := range strings.Split(parts[1], ",") {
			if c == "pids" && mounts.v1pids != "" {
				return filepath.Join(mounts.v1pids, parts[2]), nil
			}
		}
	}
	if v2 != "" && mounts.v2 != "" {
		dir := filepath.Join(mounts.v2, v2)
		ctl, err := os.ReadFile(filepath.Join(dir, "cgroup.subtree_control"))
		if err == nil && strings.Contains(" "+strings.TrimSpace(string(ctl))+" ", " pids ") {
			return dir, nil
		}
	}
	return "", fmt.Errorf("no pids cgroup to make a child in")
}

type cgMounts struct{ v1pids, v2 string }

func cgroupMounts() (cgMounts, error) {
	var m cgMounts
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return m, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// ... mount-point ... - fstype source super-options
		pre, post, ok := strings.Cut(sc.Text(), " - ")
		if !ok {
			continue
		}
		pf, qf := strings.Fields(pre), strings.Fields(post)
		if len(pf) < 5 || len(qf) < 3 {
			continue
		}
		switch qf[0] {
		case "cgroup2":
			if m.v2 == "" {
				m.v2 = pf[4]
			}
		case "cgroup":
			for _, o := range strings.Split(qf[2], ",") {
				if o == "pids" {
					m.v1pids = pf[4]
				}
			}
		}
	}
	return m, sc.Err()
}
