package editor

import (
	"strings"
	"testing"

	"github.com/editord/editord/shell"
)

// TestCreateKindNamed: editor::create's kind is required, and both its
// description and every refusal of a missing or wrong kind name the values
// (issue 26: an agent had to guess them).
func TestCreateKindNamed(t *testing.T) {
	f, _ := Lookup("editor::create")
	if !strings.Contains(f.Description, `"file"`) || !strings.Contains(f.Description, `"folder"`) {
		t.Errorf("the description does not name kind's values: %q", f.Description)
	}
	e := tcNew(t)
	for _, args := range []string{`{"path": "n"}`, `{"path": "n", "kind": null}`, `{"path": "n", "kind": "dir"}`, `{"path": "n", "kind": ""}`} {
		_, err := tcCall(t, e.s, "editor::create", args)
		tcWantCode(t, err, shell.CodeInvalidArgument)
		if m := err.Error(); !strings.Contains(m, "kind") || !strings.Contains(m, `"file"`) || !strings.Contains(m, `"folder"`) {
			t.Errorf("%s: %q does not name kind's values", args, m)
		}
	}
}
