package editor

// Issue 15 item 12: editor::delete {"path": "blocked", "recursive": true}
// removed blocked/nested/.env with the folder: an agent destroyed a denied
// file it can neither see nor touch by name. A recursive delete, or a
// move, whose subtree holds a denied entry is now refused (denied, naming
// one) and changes nothing.

import (
	"reflect"
	"strings"
	"testing"

	"github.com/editord/editord/shell"
)

func TestDeniedSubtreesAreNeverTakenAlong(t *testing.T) {
	e := tcNew(t, func(c *Config) {
		c.Jail.Deny = append(c.Jail.Deny, "/conf/prod.yml", "/vault/key.txt")
	})
	e.write("blocked/a.txt", "a\n")
	e.write("blocked/nested/.env", "TOKEN=x\n")
	e.write("app/secrets/db.txt", "pw\n")
	e.write("app/main.go", "package main\n")
	e.write("conf/prod.yml", "prod\n")
	e.write("tmp/key.txt", "k\n")
	e.write("free/x.txt", "x\n")
	e.symlink("blocked", "alias")
	before := tcSnapshot(t, e.root)
	for _, tc := range []struct{ id, args, names string }{
		{"editor::delete", `{"path": "blocked", "recursive": true}`, "blocked/nested/.env"},
		{"editor::delete", `{"path": "alias/nested", "recursive": true}`, "alias/nested/.env"},
		{"editor::delete", `{"path": "app", "recursive": true}`, "app/secrets"},
		{"editor::move", `{"from": "blocked", "to": "moved"}`, "blocked/nested/.env"},
		{"editor::move", `{"from": "app", "to": "lib/app"}`, "app/secrets"},
		// Out of an anchored rule's sight, and into one.
		{"editor::move", `{"from": "conf", "to": "conf2"}`, "conf/prod.yml"},
		{"editor::move", `{"from": "tmp", "to": "vault"}`, "tmp/key.txt"},
	} {
		_, err := tcCall(t, e.s, tc.id, tc.args)
		tcWantCode(t, err, shell.CodeDenied)
		if !strings.Contains(err.Error(), e.abs(tc.names)) || !strings.Contains(err.Error(), "Nothing was changed") {
			t.Errorf("%s %s: the refusal does not name %s: %v", tc.id, tc.args, tc.names, err)
		}
	}
	if after := tcSnapshot(t, e.root); !reflect.DeepEqual(before, after) {
		t.Error("a refused call changed the workspace")
	}
	// What holds nothing denied goes as before; a symlink to a folder is
	// removed as a link, its target untouched.
	for _, args := range []string{`{"path": "free", "recursive": true}`, `{"path": "alias", "recursive": true}`} {
		if _, err := tcCall(t, e.s, "editor::delete", args); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := tcCall(t, e.s, "editor::move", `{"from": "blocked/nested", "to": "blocked/n2"}`); tcCode(err) != shell.CodeDenied {
		t.Errorf("moving the folder of .env: %v", err)
	}
	if e.exists("free") || e.exists("alias") || !e.exists("blocked/nested/.env") {
		t.Error("the allowed deletes did the wrong thing")
	}
}
