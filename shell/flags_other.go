//go:build !linux

package shell

import "os"

// folderFlags reads chattr flags on Linux only (flags_linux.go).
func folderFlags(d *os.Root) (appendOnly, immutable bool) { return false, false }
