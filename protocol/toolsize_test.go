package protocol

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/editord/editord/editor"
)

// descriptionBudget caps what the tool definitions cost a model's context
// in prose: every tool description plus every description in every input
// schema (issue 11: at most 10 KB for the whole tools/list; the three
// turn functions of issue 21 add 1.2 KB, which the default toolset of
// issue 26 is to leave out of the list).
const descriptionBudget = 11_200

// TestToolDescriptionBudget measures the description text of tools/list
// and checks that the rules that prevent data loss survived the trimming.
func TestToolDescriptionBudget(t *testing.T) {
	total, wire := 0, 0
	per := map[string]int{}
	for _, f := range editor.Catalog() {
		tool := Tool(f)
		n := len(tool.Description) + descriptionBytes(tool.RawInputSchema)
		per[tool.Name] = n
		total += n
		b, _ := json.Marshal(tool)
		wire += len(b)
	}
	t.Logf("tools/list: %d tools, %d bytes of description text (tool and input field descriptions), %d bytes of JSON", len(per), total, wire)
	if total > descriptionBudget || testing.Verbose() {
		for name, n := range per {
			t.Logf("  %-28s %5d", name, n)
		}
	}
	if total > descriptionBudget {
		t.Fatalf("the tool descriptions hold %d bytes, over the budget of %d", total, descriptionBudget)
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

// descriptionBytes sums every "description" string of a JSON schema.
func descriptionBytes(raw json.RawMessage) int {
	var v any
	json.Unmarshal(raw, &v)
	n := 0
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, y := range x {
				if s, ok := y.(string); ok && k == "description" {
					n += len(s)
				} else {
					walk(y)
				}
			}
		case []any:
			for _, y := range x {
				walk(y)
			}
		}
	}
	walk(v)
	return n
}
