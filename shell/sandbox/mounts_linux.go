//go:build linux

package sandbox

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// mountBox arranges the init's private mount namespace: nothing it mounts
// reaches the host; /proc shows the new PID namespace; .git folders are
// read-only; covered files show their cover; hidden paths are covered by
// a void. It runs before Landlock,
// which forbids mounting afterwards.
func mountBox(sp *initSpec) error {
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("making the mounts private: %v", err)
	}
	// A /proc of the new PID namespace, so the command sees only its own
	// processes. Where the kernel refuses (a /proc partly covered), the
	// host's stays: Landlock's ptrace scoping still keeps the command out
	// of processes outside the sandbox.
	_ = unix.Mount("proc", "/proc", "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, "")
	for _, m := range sp.Masks {
		if err := unix.Mount("tmpfs", m, "tmpfs", unix.MS_RDONLY|unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, "size=4k,mode=755"); err != nil {
			return fmt.Errorf("covering %s: %v", m, err)
		}
	}
	for _, p := range sp.ReadOnly {
		if err := bindReadOnly(p, p); err != nil {
			if errors.Is(err, unix.ENOENT) {
				continue // gone since the plan was made
			}
			return fmt.Errorf("making %s read-only: %v", p, err)
		}
	}
	for _, c := range sp.Covers {
		if err := bindReadOnly(c[0], c[1]); err != nil && !errors.Is(err, unix.ENOENT) {
			return fmt.Errorf("covering %s: %v", c[1], err)
		}
	}
	// The voids are reached through descriptors: the folder they are in
	// may be among the paths hidden (the state dir in the jail).
	voids := [2]string{}
	for i, v := range []string{sp.VoidFile, sp.VoidDir} {
		fd, err := unix.Open(v, unix.O_PATH|unix.O_CLOEXEC, 0)
		if err != nil {
			return fmt.Errorf("opening the void %s: %v", v, err)
		}
		defer unix.Close(fd)
		voids[i] = fmt.Sprintf("/proc/self/fd/%d", fd)
	}
	for _, p := range sp.Hide {
		fi, err := os.Stat(p)
		if err != nil {
			continue // gone since the plan was made, or a dangling link
		}
		void := voids[0]
		if fi.IsDir() {
			void = voids[1]
		}
		if err := bindReadOnly(void, p); err != nil {
			return fmt.Errorf("hiding %s: %v", p, err)
		}
	}
	return nil
}

// bindReadOnly mounts src over dst read-only. A remount must keep the
// flags the mount already has (nosuid, nodev...): in a user namespace
// they are locked, and dropping one is refused.
func bindReadOnly(src, dst string) error {
	if err := unix.Mount(src, dst, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
		return err
	}
	var st unix.Statfs_t
	if err := unix.Statfs(dst, &st); err != nil {
		return err
	}
	flags := uintptr(unix.MS_BIND | unix.MS_REMOUNT | unix.MS_RDONLY)
	for _, f := range []struct{ st, ms uintptr }{
		{unix.ST_NOSUID, unix.MS_NOSUID}, {unix.ST_NODEV, unix.MS_NODEV}, {unix.ST_NOEXEC, unix.MS_NOEXEC},
		{unix.ST_NOATIME, unix.MS_NOATIME}, {unix.ST_NODIRATIME, unix.MS_NODIRATIME}, {unix.ST_RELATIME, unix.MS_RELATIME},
	} {
		if uintptr(st.Flags)&f.st != 0 {
			flags |= f.ms
		}
	}
	return unix.Mount("", dst, "", flags, "")
}
