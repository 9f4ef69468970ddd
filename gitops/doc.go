// Package gitops is editord's git: status, hunks, show, commit, sync, stash
// and undo-commit on go-git, with the repository opened through shell's
// jailed filesystem. It runs no git subprocess for anything go-git can do;
// the one exception is asking git's credential helper for an https
// password (through shell's exec).
//
// Paths in and out are repository-relative and "/"-separated; the editor
// maps them to and from its root-relative form (the root may be a subfolder
// of the repository).
//
// What git writes, gitops reads, and the other way round: the index is
// read and written in git's own format (with stat data, so git does not see
// every file as modified afterwards), refs are updated with git's .lock
// protocol, and reflogs are appended, so that `git status`, `git log`,
// `git fsck` and `git stash list` agree with what editord did.
//
// Its place in the stack (docs/design.md): cmd → protocol → editor →
// search, workspace, gitops → shell, diff.
// editor calls it; it reads and writes through shell's jail and takes its
// line diffs (merges, blame, --numstat) from diff.
package gitops
