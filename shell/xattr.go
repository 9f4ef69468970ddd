package shell

import (
	"fmt"
	"strings"
)

// xattrError is an attribute a save could not keep.
type xattrError struct {
	name string
	err  error
	read bool
}

func (e *xattrError) Error() string {
	what := "the extended attribute " + e.name
	if strings.HasPrefix(e.name, "system.posix_acl") {
		what = "its POSIX ACL (" + e.name + ")"
	}
	verb := "cannot be given to the new version"
	if e.read {
		verb = "cannot be read"
	}
	return fmt.Sprintf("%s %s (%v)", what, verb, e.err)
}

func (e *xattrError) Unwrap() error { return e.err }
