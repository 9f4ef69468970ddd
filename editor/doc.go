// Package editor is the service: one method per function of the catalog,
// the save guard, versions, and the request/response types whose json and
// desc tags are the contract every surface is generated from. It performs
// no I/O itself: files go through shell, shared state through workspace.
//
// Its place in the stack (docs/design.md): cmd → protocol → editor →
// search, workspace, gitops → shell, diff.
// protocol and cmd/editord call it; it calls search, workspace, gitops,
// shell and diff, and knows nothing of MCP.
//
// Where things go:
//   - a new tool is one define(...) in a file of its own, with its
//     request and response types (catalog.go); protocol renders its text
//     for models (protocol/render*.go), and docs/functions.md, the
//     README's table and the golden schemas are generated from the
//     catalog;
//   - every write goes through the guarded write path (save.go's lock
//     order, writes_lock.go), so its event is journaled with its caller's
//     by;
//   - the filesystem watcher, which reports other programs' writes, is
//     editor/watch, a room of its own; it sees the service through
//     WatchHost (watch_host.go) only;
//   - hand-written JSON is editor/wire.
package editor
