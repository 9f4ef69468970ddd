// Command editord serves a shared code workspace to AI agents and people
// over MCP, and runs its functions from the command line.
//
// Its place in the stack (docs/design.md): cmd → protocol → editor →
// search, workspace, gitops → shell, diff. It is the top: flags, config
// loading and wiring for `editord serve` (stdio or HTTP), `editord call`
// and `editord functions`, with no logic a test would want; the end-to-end
// tests here drive the real binary.
package main
