package editor

// Issue 15 item 8: text that is not UTF-8 arriving on the wire is refused
// with invalid_argument naming the field, never decoded into U+FFFD and
// saved. On main `{"path":"a.txt","content":"ab\xffcd"}` was saved as
// "ab\uFFFDcd" with saved: true, and a path with an invalid byte named
// another file.

import (
	"os"
	"strings"
	"testing"

	"github.com/editord/editord/shell"
)

func TestInvalidUTF8OnTheWireIsRefused(t *testing.T) {
	e := tcNew(t)
	e.write("a.txt", "old\n")
	for _, tc := range []struct{ id, args, field string }{
		{"editor::save", "{\"path\":\"a.txt\",\"content\":\"ab\xffcd\",\"force\":true}", `field "content"`},
		{"editor::save", "{\"path\":\"a.txt\",\"content\":\"ab\\ud800cd\",\"force\":true}", `field "content"`},
		{"editor::save", "{\"path\":\"a.txt\",\"content\":\"ab\\udc00\\ud800\",\"force\":true}", `field "content"`},
		{"editor::save", "{\"path\":\"a.txt\",\"content\":\"\xed\xa0\x80\",\"force\":true}", `field "content"`}, // a surrogate in UTF-8 form
		{"editor::save", "{\"path\":\"\xff.txt\",\"content\":\"x\"}", `field "path"`},
		{"editor::create", "{\"path\":\"n\xc3.txt\",\"kind\":\"file\"}", `field "path"`},
		{"editor::create", "{\"path\":\"n.txt\",\"kind\":\"file\",\"content\":\"\xc0\xaf\"}", `field "content"`},
		{"editor::move", "{\"from\":\"a.txt\",\"to\":\"b\xfe.txt\"}", `field "to"`},
		{"editor::delete", "{\"path\":\"a\xff\"}", `field "path"`},
		{"editor::diff", "{\"before\":\"a\",\"after\":\"\x80\"}", `field "after"`},
		{"editor::git::commit", "{\"message\":\"m\",\"paths\":[\"ok\",\"\xff\"]}", `field "paths"`},
		{"editor::save", "{\"pa\xffth\":\"a.txt\",\"content\":\"x\"}", "a field name"},
	} {
		_, err := tcCall(t, e.s, tc.id, tc.args)
		tcWantCode(t, err, shell.CodeInvalidArgument)
		if !strings.Contains(err.Error(), tc.field) || !strings.Contains(err.Error(), "UTF-8") && !strings.Contains(err.Error(), "surrogate") {
			t.Errorf("%s %q: the refusal does not name %s: %v", tc.id, tc.args, tc.field, err)
		}
	}
	if got := e.read("a.txt"); got != "old\n" {
		t.Errorf("a.txt became %q", got)
	}
	ents, _ := os.ReadDir(e.root)
	if len(ents) != 1 {
		t.Errorf("a refused call made files: %v", ents)
	}
	// Valid text, escaped or not, astral characters included, goes through.
	if _, err := tcCall(t, e.s, "editor::save", "{\"path\":\"a.txt\",\"content\":\"\\ud83d\\ude00 \xf0\x9f\x98\x80 \\u00e9 \xc3\xa9 \\\\ud800\",\"force\":true}"); err != nil {
		t.Fatal(err)
	}
	if got := e.read("a.txt"); got != "😀 😀 é é \\ud800" {
		t.Errorf("a.txt is %q", got)
	}
}
