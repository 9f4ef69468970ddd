package shell

// Issue 15 item 7: a save keeps the file's extended attributes and POSIX
// ACL, or is refused naming the one it cannot keep. On main the new
// version had neither (mode and owner were kept).

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// aclBytes is a POSIX access ACL in the kernel's xattr form (what
// `setfacl -m u:1234:r` leaves on a 0644 file): user::rw-, user:1234:r--,
// group::r--, mask::r--, other::r--.
var aclBytes = []byte{
	2, 0, 0, 0, // version
	0x01, 0, 6, 0, 0xff, 0xff, 0xff, 0xff, // ACL_USER_OBJ rw
	0x02, 0, 4, 0, 0xd2, 0x04, 0, 0, // ACL_USER 1234 r
	0x04, 0, 4, 0, 0xff, 0xff, 0xff, 0xff, // ACL_GROUP_OBJ r
	0x10, 0, 4, 0, 0xff, 0xff, 0xff, 0xff, // ACL_MASK r
	0x20, 0, 4, 0, 0xff, 0xff, 0xff, 0xff, // ACL_OTHER r
}

func TestWriteKeepsXattrsAndACL(t *testing.T) {
	f := newFixture(t)
	f.file("a.txt", "old\n")
	p := f.abs("a.txt")
	attrs := map[string][]byte{"user.origin": []byte("https://example.com/a"), "user.empty": {}, "system.posix_acl_access": aclBytes}
	for name, val := range attrs {
		if err := unix.Setxattr(p, name, val, 0); err != nil {
			if errors.Is(err, unix.ENOTSUP) {
				t.Skipf("this file system keeps no %s: %v", name, err)
			}
			t.Fatalf("setxattr %s: %v", name, err)
		}
	}
	for i := range 2 { // twice: the second save copies from a file the first one wrote
		if _, err := f.j.WriteFile(p, []byte("new\n"+strings.Repeat("!", i)), WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		for name, want := range attrs {
			got := make([]byte, 256)
			n, err := unix.Getxattr(p, name, got)
			if err != nil || !bytes.Equal(got[:n], want) {
				t.Errorf("save %d: %s is %q (%v), want %q", i+1, name, got[:max(n, 0)], err, want)
			}
		}
	}
}

func TestWriteRefusesWhatItCannotKeep(t *testing.T) {
	f := newFixture(t)
	f.file("a.txt", "old\n")
	p := f.abs("a.txt")
	if err := unix.Setxattr(p, "system.posix_acl_access", aclBytes, 0); err != nil {
		t.Skipf("no POSIX ACLs here: %v", err)
	}
	orig := fsetxattr
	defer func() { fsetxattr = orig }()
	fsetxattr = func(fd int, name string, val []byte, flags int) error {
		if name == "system.posix_acl_access" {
			return unix.EPERM
		}
		return orig(fd, name, val, flags)
	}
	_, err := f.j.WriteFile(p, []byte("new\n"), WriteOptions{})
	wantCode(t, err, CodeDenied)
	if !strings.Contains(err.Error(), "POSIX ACL") || !strings.Contains(err.Error(), "nothing was written") {
		t.Errorf("the refusal does not say what it could not keep: %v", err)
	}
	if got := f.read("a.txt"); got != "old\n" {
		t.Errorf("the file changed: %q", got)
	}
	if tmp := tempFiles(t, f.root); len(tmp) > 0 {
		t.Errorf("temp files left: %v", tmp)
	}
}
