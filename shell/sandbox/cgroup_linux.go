//go:build linux

package sandbox

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// pidsCgroup is a cgroup made for one run, below editord's own, whose
// pids.max bounds the run's processes and threads. The kernel applies
// RLIMIT_NPROC to every user but root; this is the limit for root.
type pidsCgroup struct{ dir string }

var cgroupSeq atomic.Uint64

// newPidsCgroup makes the cgroup, in the pids hierarchy of cgroup v1 or in
// cgroup v2 where the pids controller is delegated to editord's cgroup.
func newPidsCgroup(max int) (*pidsCgroup, error) {
	base, err := ownPidsCgroup()
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(base, fmt.Sprintf("editord-run-%d-%d", os.Getpid(), cgroupSeq.Add(1)))
	if err := os.Mkdir(dir, 0o755); err != nil {
		return nil, err
	}
	cg := &pidsCgroup{dir: dir}
	if err := os.WriteFile(filepath.Join(dir, "pids.max"), []byte(strconv.Itoa(max)), 0); err != nil {
		cg.remove()
		return nil, err
	}
	return cg, nil
}

// remove deletes the cgroup once the run's processes are gone (the kernel
// reaps a killed namespace's processes shortly after its init).
func (cg *pidsCgroup) remove() {
	if cg == nil {
		return
	}
	deadline := time.Now().Add(2 * time.Second)
	for {
		err := os.Remove(cg.dir)
		if err == nil || os.IsNotExist(err) || time.Now().After(deadline) {
			return
		}
		time.Sleep(5 * time.Millisecond)
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
