package shell

import (
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// folderFlags reports the inode flags (chattr) of the open folder d that
// change what a save may do in it: append-only (+a) lets entries be added
// but never removed or renamed, immutable (+i) forbids both. A file
// system that keeps no flags reports neither.
func folderFlags(d *os.Root) (appendOnly, immutable bool) {
	f, err := d.OpenFile(".", os.O_RDONLY|syscall.O_DIRECTORY, 0)
	if err != nil {
		return false, false
	}
	defer f.Close()
	flags, err := unix.IoctlGetUint32(int(f.Fd()), unix.FS_IOC_GETFLAGS)
	if err != nil {
		return false, false
	}
	return flags&fsAppendFl != 0, flags&fsImmutableFl != 0
}

// The flags of linux/fs.h that golang.org/x/sys does not name.
const (
	fsImmutableFl = 0x00000010 // FS_IMMUTABLE_FL
	fsAppendFl    = 0x00000020 // FS_APPEND_FL
)
