// Package search is editord's file finder and content search: fuzzy path
// ranking for editor::find (sahilm/fuzzy plus a basename-first order) and
// parallel, ordered, literal-or-RE2 content search for editor::search.
//
// All I/O goes through shell: the file list is a shell.FileTree (a walk
// honouring .gitignore, noise folders and deny globs, cached and refreshed
// cheaply), git's index is read as bytes through the jail and decoded with
// go-git's index decoder, and files are read with a shell.TreeReader.
//
// Caching and freshness. An Engine keeps, per root (the last four), the
// FileTree, the decoded index and find's prepared candidate list. Every call
// first brings them up to date, which is cheap when nothing changed, and
// never serves a stale list:
//   - the tree learns about changes from inotify events, drained at the
//     start of the call, so any change completed before the call is seen
//     (where inotify is unavailable it re-stats every folder instead); it
//     re-lists only the folders that changed, and a subtree whose .gitignore
//     changed (see shell.FileTree);
//   - git's index is re-read only when its stamp (mtime, size, inode)
//     moved, and decoded again only when its trailing checksum (the hash of
//     its content) differs;
//   - the ignore files above the root (info/exclude, a parent repository's
//     .gitignore files) are stamped and re-read the same way, and a change
//     of their content rebuilds the tree;
//   - find's candidates are merged and prepared again only when the tree's
//     generation or the index changed.
//
// A stamp younger than two seconds when it was read is not trusted (a
// rewrite within one tick of the file system's clock keeps the mtime), so
// that file is checked again on the next call, as git does for racily clean
// entries. A warm call on a 60,000-file repository costs a few system calls
// before it ranks or reads anything.
//
// Its place in the stack (docs/design.md): cmd → protocol → editor →
// search, workspace, gitops → shell, diff.
// editor calls it (editor::find, editor::search, editor::replace); it reads
// the disk only through shell.
package search
