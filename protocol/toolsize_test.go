package protocol

import (
	"encoding/json"
	"sort"
	"strings"
	"testing"

	"github.com/editord/editord/editor"
)

// toolListBudget caps what the default tool list costs a model's context:
// the server's instructions plus, for every tool listed by default, its
// name, description and input schema as served (issue 26: at most 12 KB,
// against 21.5 KB for 30 tools before toolsets; the filesystem MCP server's
// list is about 7 KB).
const toolListBudget = 12_000

// modelBytes is what a model reads of a tool: name, description and input
// schema.
func modelBytes(f *editor.Function) int {
	t := Tool(f)
	return len(t.Name) + len(t.Description) + len(t.RawInputSchema)
}

// TestToolListBudget prints the model-facing bytes of the default tool
// list and of every toolset, holds the default within the budget, and
// checks that the rules that prevent data loss survived the trimming.
func TestToolListBudget(t *testing.T) {
	per := map[string]int{}
	var wire, wireAll, all int
	def := len(instructions)
	for _, f := range editor.Catalog() {
		n := modelBytes(f)
		ts := editor.ToolsetOf(f.ID)
		per[ts] += n
		all += n
		b, _ := json.Marshal(Tool(f))
		wireAll += len(b)
		if ts == "core" {
			def += n
			wire += len(b)
			t.Logf("  %-26s %5d", ToolName(f.ID), n)
		}
	}
	var names []string
	for ts := range per {
		names = append(names, ts)
	}
	sort.Strings(names)
	for _, ts := range names {
		t.Logf("toolset %-10s %6d bytes a model reads", ts, per[ts])
	}
	t.Logf("tools/list by default (core): %d bytes a model reads (instructions %d + name, description and input schema of each tool), %d bytes of tools on the wire", def, len(instructions), wire)
	t.Logf("tools/list with every toolset: %d bytes a model reads, %d bytes on the wire", all+len(instructions), wireAll)
	if def > toolListBudget {
		t.Errorf("the default tool list costs a model %d bytes, over the budget of %d", def, toolListBudget)
	}
	desc := func(id string) string {
		f, ok := editor.Lookup(id)
		if !ok {
			t.Fatalf("no %s", id)
		}
		return Tool(f).Description
	}
	for _, rule := range []struct{ where, text string }{
		{instructions, "expected_version"},
		{instructions, "editor_move, not a shell mv"},
		{instructions, "editor_edit"},
		{desc("editor::save"), "expected_version"},
		{desc("editor::save"), "never force it"},
		{desc("editor::edit"), "never rewrite the file from memory"},
		{desc("editor::edit"), "exactly once"},
		{desc("editor::move"), "not a shell mv"},
	} {
		if !strings.Contains(rule.where, rule.text) {
			t.Errorf("a data-loss rule is gone: %q not in %q", rule.text, rule.where)
		}
	}
}
