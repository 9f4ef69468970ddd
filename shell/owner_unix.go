//go:build unix

package shell

import (
	"io/fs"
	"os"
	"syscall"
)

// ownerOf is the uid that owns the file fi describes (-1 when unknown).
func ownerOf(fi fs.FileInfo) int {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return int(st.Uid)
	}
	return -1
}

// Euid is the effective uid of this process.
func Euid() int { return os.Geteuid() }
