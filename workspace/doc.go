// Package workspace is the shared record: which folder is the workspace,
// the buffers (tabs) open against it and the folders expanded in its tree.
// It lives in a state dir that every editord process on a project shares;
// each read-modify-write holds an exclusive flock and replaces the file
// atomically, so no update is lost to a concurrent one.
//
// Paths here are already in stored form (root-relative, "/"-separated,
// cleaned; absolute when outside the root), so comparisons are plain
// segment-wise string checks.
//
// Its place in the stack (docs/design.md): cmd → protocol → editor →
// search, workspace, gitops → shell, diff.
// editor calls it; it reaches the state dir through shell (a second jail
// rooted there), and knows nothing of MCP or git.
package workspace
