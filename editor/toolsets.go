package editor

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Toolsets: which functions an MCP client lists by default. Every tool in
// a list costs a model its name, description and input schema in context
// on every turn, whether it is used or not, so a client sees the core set
// (reading, changing and finding files, the change journal, and the git
// status, review and commit of everyday work) unless it asks for more: the
// [tools] toolsets config key, an X-MCP-Toolsets header over HTTP, an
// io.editord/toolsets key in a tools/list request's _meta, or editor::tools
// for the rest of a session. Every function stays callable by name
// whatever is listed, so advice that names one never leads nowhere (and
// `editord call` has them all). The grouping follows github-mcp-server's
// toolsets.
//
// The assignment is this one table, keyed by function id. It may name ids
// the catalog does not define yet (functions being added on other
// branches); a defined function missing from it fails TestEveryFunctionHasToolset.

// Toolset is a group of functions listed together.
type Toolset struct {
	Name        string
	Description string
}

// Toolsets are the groups, in the order editor::tools lists them.
var Toolsets = []Toolset{
	{"core", "Read, find, search and change files (replace across files too); what changed (editor::changes); git status, review (editor::git::hunks without path) and commit."},
	{"git", "The rest of git: log, blame, a file at a revision, branches, merge, stage, restore, stash, fetch/pull/push, undo a commit."},
	{"workspace", "The shared tabs and root: repoint the root, list or close tabs, an editor's drafts and focus (the person's page uses these)."},
	{"text", "Diff two texts you pass."},
	{"turns", "Turns: mark one, its history, revert it (a file or hunks of it)."},
	{"intel", "Code intelligence from language servers: symbols, definition, references, hover, diagnostics, rename."},
	{"run", "Run commands in a sandbox, and follow or stop them (when the server's config has [run] enabled = true)."},
}

// DefaultToolsets is what a client lists when nothing asks for more.
var DefaultToolsets = []string{"core"}

// toolsetOf assigns every function to one toolset.
var toolsetOf = map[string]string{
	"editor::workspace::get": "core",
	"editor::tree":           "core",
	"editor::open":           "core",
	"editor::edit":           "core",
	"editor::save":           "core",
	"editor::create":         "core",
	"editor::move":           "core",
	"editor::delete":         "core",
	"editor::find":           "core",
	"editor::search":         "core",
	"editor::changes":        "core",
	"editor::replace":        "core",
	"editor::git::status":    "core",
	"editor::git::hunks":     "core",
	"editor::git::commit":    "core",
	"editor::tools":          "core",

	"editor::git::blame":       "git",
	"editor::git::branch":      "git",
	"editor::git::log":         "git",
	"editor::git::merge":       "git",
	"editor::git::restore":     "git",
	"editor::git::show":        "git",
	"editor::git::stage":       "git",
	"editor::git::stash":       "git",
	"editor::git::sync":        "git",
	"editor::git::undo-commit": "git",

	"editor::workspace::open":  "workspace",
	"editor::workspace::focus": "workspace",
	"editor::buffers::list":    "workspace",
	"editor::buffers::close":   "workspace",
	"editor::buffers::draft":   "workspace",

	"editor::diff": "text",

	// docs/contract.md §10's functions (editor/turns, editor/lsp, shell/sandbox).
	"editor::turn":    "turns",
	"editor::history": "turns",
	"editor::revert":  "turns",

	"editor::symbols":     "intel",
	"editor::definition":  "intel",
	"editor::references":  "intel",
	"editor::hover":       "intel",
	"editor::diagnostics": "intel",
	"editor::rename":      "intel",

	"editor::run":         "run",
	"editor::run::status": "run",
	"editor::run::output": "run",
	"editor::run::kill":   "run",
	"editor::run::input":  "run",
}

// ToolsetOf is the toolset of function id ("" when the table has none).
func ToolsetOf(id string) string { return toolsetOf[id] }

// allToolsets names every toolset in one word.
const allToolsets = "all"

// ParseToolsets checks toolset names ("all" stands for every one) and
// returns them in table order, each once.
func ParseToolsets(names []string) ([]string, error) {
	want := map[string]bool{}
	for _, n := range names {
		n = strings.TrimSpace(n)
		switch {
		case n == "":
			continue
		case n == allToolsets:
			for _, t := range Toolsets {
				want[t.Name] = true
			}
		case !knownToolset(n):
			return nil, invalid("no toolset %q; the toolsets are %s, or all", n, toolsetNames())
		default:
			want[n] = true
		}
	}
	var out []string
	for _, t := range Toolsets {
		if want[t.Name] {
			out = append(out, t.Name)
		}
	}
	return out, nil
}

func knownToolset(name string) bool {
	return slices.ContainsFunc(Toolsets, func(t Toolset) bool { return t.Name == name })
}

func toolsetNames() string {
	names := make([]string, len(Toolsets))
	for i, t := range Toolsets {
		names[i] = t.Name
	}
	return strings.Join(names, ", ")
}

// functionsOf lists the defined functions of toolset name, by id.
func functionsOf(name string) []string {
	var ids []string
	for _, f := range Catalog() {
		if toolsetOf[f.ID] == name {
			ids = append(ids, f.ID)
		}
	}
	sort.Strings(ids)
	return ids
}

// checkToolsetTable reports table entries that name no toolset.
func checkToolsetTable() error {
	for id, ts := range toolsetOf {
		if !knownToolset(ts) {
			return fmt.Errorf("%s is in toolset %q, which Toolsets does not define", id, ts)
		}
	}
	return nil
}

// ListedToolsets is what every client of this configuration lists: the
// configured toolsets, and run when commands are on (a person who turned
// editor::run on means agents to see it).
func (c Config) ListedToolsets() []string {
	out := slices.Clone(c.Tools.Toolsets)
	if c.Run.Enabled && !slices.Contains(out, "run") {
		out = append(out, "run")
	}
	return out
}
