// Package shell is the jail: the one place in editord that touches the
// operating system's files and processes. Every path is resolved inside a
// configured set of root folders through os.Root, so ".." and symlinks
// cannot lead out, even when a folder is swapped for a symlink mid-call.
//
// Callers pass absolute, cleaned paths; shell answers with coded *Error
// values (outside_jail, denied, not_found, ...) that the layers above pass
// on unchanged.
//
// Its place in the stack (docs/design.md): cmd → protocol → editor →
// search, workspace, gitops → shell, diff.
// It is the bottom: everything above reaches files, processes, locks and
// inotify through it, and a test fails the build if any other package
// imports the operating system's file or process functions. It imports no
// package of editord.
package shell
