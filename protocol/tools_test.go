package protocol

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/editord/editord/editor"
)

var update = flag.Bool("update", false, "rewrite the golden schema files in testdata/schemas")

var toolNameRE = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9_-]{0,47}$`)

func TestToolName(t *testing.T) {
	for id, want := range map[string]string{
		"editor::save":             "editor_save",
		"editor::workspace::open":  "editor_workspace_open",
		"editor::git::undo-commit": "editor_git_undo_commit",
	} {
		if got := ToolName(id); got != want {
			t.Errorf("ToolName(%q) = %q, want %q", id, got, want)
		}
	}
}

// The contract's annotation classes (docs/contract.md §1), by function id.
var (
	readOnlyIDs    = []string{"editor::workspace::get", "editor::tree", "editor::open", "editor::buffers::list", "editor::find", "editor::search", "editor::diff", "editor::changes", "editor::git::status", "editor::git::hunks", "editor::git::show", "editor::git::log", "editor::git::blame", "editor::tools", "editor::run::status", "editor::run::output", "editor::symbols", "editor::definition", "editor::references", "editor::hover", "editor::diagnostics", "editor::history"}
	nonDestructive = []string{"editor::workspace::open", "editor::buffers::close", "editor::create", "editor::buffers::draft", "editor::workspace::focus", "editor::turn"}
	destructiveIDs = []string{"editor::save", "editor::edit", "editor::replace", "editor::move", "editor::delete", "editor::git::commit", "editor::git::sync", "editor::git::stash", "editor::git::undo-commit", "editor::git::merge", "editor::git::branch", "editor::git::restore", "editor::run", "editor::run::kill", "editor::run::input", "editor::rename", "editor::git::stage", "editor::revert"}
)

func TestToolsValid(t *testing.T) {
	seen := map[string]bool{}
	class := map[string]string{}
	for _, id := range readOnlyIDs {
		class[id] = "readonly"
	}
	for _, id := range nonDestructive {
		class[id] = "additive"
	}
	for _, id := range destructiveIDs {
		class[id] = "destructive"
	}
	for _, f := range editor.Catalog() {
		tool := Tool(f)
		if !toolNameRE.MatchString(tool.Name) {
			t.Errorf("%s: tool name %q does not match %s", f.ID, tool.Name, toolNameRE)
		}
		if seen[tool.Name] {
			t.Errorf("duplicate tool name %q", tool.Name)
		}
		seen[tool.Name] = true
		if tool.Title != f.ID || tool.Meta.AdditionalFields["function_id"] != f.ID {
			t.Errorf("%s: title/_meta.function_id must carry the function id", f.ID)
		}
		if len(tool.Description) < 40 {
			t.Errorf("%s: description too short for a model to act on: %q", f.ID, tool.Description)
		}
		a := tool.Annotations
		switch class[f.ID] {
		case "readonly":
			if !*a.ReadOnlyHint || *a.DestructiveHint {
				t.Errorf("%s: want readOnlyHint true, destructiveHint false", f.ID)
			}
		case "additive":
			if *a.ReadOnlyHint || *a.DestructiveHint {
				t.Errorf("%s: want readOnlyHint false, destructiveHint false", f.ID)
			}
		case "destructive":
			if *a.ReadOnlyHint || !*a.DestructiveHint {
				t.Errorf("%s: want readOnlyHint false, destructiveHint true", f.ID)
			}
		default:
			t.Errorf("%s: not classified in docs/contract.md §1 (update this test and docs/contract.md §1)", f.ID)
		}
		if *a.OpenWorldHint != (f.ID == "editor::git::sync") {
			t.Errorf("%s: openWorldHint must be true only for editor::git::sync", f.ID)
		}
		var in, out map[string]any
		json.Unmarshal(tool.RawInputSchema, &in)
		json.Unmarshal(tool.RawOutputSchema, &out)
		if in["type"] != "object" || out["type"] != "object" {
			t.Errorf("%s: input and output schemas must be objects", f.ID)
		}
		checkDescribed(t, f.ID+" input", in)
		// The served output schema is lean (no descriptions); the
		// contract's is described.
		checkDescribed(t, f.ID+" output", f.OutputSchema())
	}
}

// checkDescribed fails for any property, at any depth, without a description.
func checkDescribed(t *testing.T, where string, s map[string]any) {
	t.Helper()
	if props, ok := s["properties"].(map[string]any); ok {
		for name, p := range props {
			pm := p.(map[string]any)
			if d, _ := pm["description"].(string); strings.TrimSpace(d) == "" {
				t.Errorf("%s: field %q has no description", where, name)
			}
			checkDescribed(t, where+"."+name, pm)
		}
	}
	if items, ok := s["items"].(map[string]any); ok {
		checkDescribed(t, where+"[]", items)
	}
	if defs, ok := s["$defs"].(map[string]any); ok {
		for name, d := range defs {
			checkDescribed(t, where+" $defs."+name, d.(map[string]any))
		}
	}
}

// TestGoldenSchemas snapshots every tool as served, one file per tool; run
// `go test ./protocol -update` after changing a request or response type.
func TestGoldenSchemas(t *testing.T) {
	dir := filepath.Join("..", "testdata", "schemas")
	want := map[string]bool{}
	for _, f := range editor.Catalog() {
		tool := Tool(f)
		got, err := json.MarshalIndent(tool, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		got = append(normalize(t, got), '\n')
		name := tool.Name + ".json"
		want[name] = true
		path := filepath.Join(dir, name)
		if *update {
			if err := os.WriteFile(path, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		old, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%s: no golden schema (run go test ./protocol -update): %v", f.ID, err)
			continue
		}
		if !bytes.Equal(old, got) {
			t.Errorf("%s: served schema differs from %s; if the change is intended run go test ./protocol -update", f.ID, path)
		}
	}
	ents, _ := os.ReadDir(dir)
	var stale []string
	for _, e := range ents {
		if !want[e.Name()] {
			stale = append(stale, e.Name())
		}
	}
	sort.Strings(stale)
	for _, s := range stale {
		if *update {
			os.Remove(filepath.Join(dir, s))
			continue
		}
		t.Errorf("golden schema %s has no tool any more (run go test ./protocol -update)", s)
	}
}

// normalize re-encodes JSON with sorted keys so the snapshot is stable.
func normalize(t *testing.T, b []byte) []byte {
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	out, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(fmt.Errorf("normalize: %w", err))
	}
	return out
}
