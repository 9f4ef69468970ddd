package shell

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"golang.org/x/sys/unix"
)

// The system calls copyXattrs makes; tests replace fsetxattr to make one
// attribute impossible to keep.
var (
	flistxattr = unix.Flistxattr
	fgetxattr  = unix.Fgetxattr
	fsetxattr  = unix.Fsetxattr
)

// copyXattrs gives dst every extended attribute of src that this process
// can read: user.*, security.* (an SELinux label, file capabilities),
// trusted.* (as root) and the POSIX ACL (system.posix_acl_access), so that
// a save, which replaces the file by a new one, keeps them as it keeps the
// mode and owner. It runs after dst's chown and chmod (chown clears file
// capabilities; chmod rewrites an ACL's mask). An attribute that cannot be
// set makes it fail, naming the attribute: the caller then writes nothing
// rather than silently drop an access rule.
func copyXattrs(src, dst *os.File) error {
	names, err := listXattrs(src)
	if err != nil {
		if errors.Is(err, unix.ENOTSUP) {
			return nil // the file system keeps none
		}
		return fmt.Errorf("listing the extended attributes: %w", err)
	}
	for _, name := range names {
		val, err := getXattr(src, name)
		if errors.Is(err, unix.ENODATA) {
			continue // removed meanwhile
		}
		if err != nil {
			return &xattrError{name: name, err: err, read: true}
		}
		if err := fsetxattr(int(dst.Fd()), name, val, 0); err != nil {
			return &xattrError{name: name, err: err}
		}
	}
	return nil
}

func listXattrs(f *os.File) ([]string, error) {
	for {
		n, err := flistxattr(int(f.Fd()), nil)
		if err != nil || n == 0 {
			return nil, err
		}
		buf := make([]byte, n)
		n, err = flistxattr(int(f.Fd()), buf)
		if errors.Is(err, unix.ERANGE) {
			continue // grew meanwhile
		}
		if err != nil {
			return nil, err
		}
		var names []string
		for _, s := range strings.Split(string(buf[:n]), "\x00") {
			if s != "" {
				names = append(names, s)
			}
		}
		return names, nil
	}
}

func getXattr(f *os.File, name string) ([]byte, error) {
	for {
		n, err := fgetxattr(int(f.Fd()), name, nil)
		if err != nil {
			return nil, err
		}
		buf := make([]byte, n)
		n, err = fgetxattr(int(f.Fd()), name, buf)
		if errors.Is(err, unix.ERANGE) {
			continue
		}
		if err != nil {
			return nil, err
		}
		return buf[:n], nil
	}
}
