package shell

import (
	"io/fs"
	"syscall"
)

func fileIDOf(fi fs.FileInfo) FileID {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return FileID{}
	}
	return FileID{Dev: uint64(st.Dev), Ino: st.Ino, Size: st.Size,
		MTime: st.Mtim.Sec*1e9 + st.Mtim.Nsec, CTime: st.Ctim.Sec*1e9 + st.Ctim.Nsec}
}
