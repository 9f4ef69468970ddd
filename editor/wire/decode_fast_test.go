package wire

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// decodeCareful is DecodeArgs without its fast path.
func decodeCareful(args []byte, req any) error { return decodeArgs(args, req, false) }

// TestDecodeFastAgrees: for valid and invalid arguments alike, decodeArgs
// (fast path first) gives what the careful path alone gives.
func TestDecodeFastAgrees(t *testing.T) {
	big := strings.Repeat("line with \"quotes\", tabs\t and é ü 🙂 \\ back\n", 2000)
	bigJSON, _ := json.Marshal(big)
	cases := []string{
		`{"path": "a.txt", "content": "x\n"}`,
		`{"path":"a.txt","content":` + string(bigJSON) + `,"expected_version":"3-abc"}`,
		`{"path": "a.txt", "content": "\u00e9\ud83d\ude42 \u0041"}`,
		`{"path": "a.txt", "content": "lone \ud83d surrogate"}`,
		`{"path": "a.txt", "content": "bad \x escape"}`,
		"{\"path\": \"a.txt\", \"content\": \"raw \x01 control\"}",
		"{\"path\": \"a.txt\", \"content\": \"bad utf8 \xff\"}",
		`{"path": "a.txt"}`,
		`{"path": "a.txt", "content": null}`,
		`{"path": "a.txt", "content": "x", "bogus": 1}`,
		`{"path": "a.txt", "content": "x", "Path": "b"}`,
		`{"path": "a.txt", "content": "x", "path": "b.txt"}`,
		`{"path": 5, "content": "x"}`,
		`{"path": "a.txt", "content": "x", "force": "yes"}`,
		`{"path": "a.txt", "content": "x", "force": true, "expected_mtime": 12}`,
		`{"path": "a.txt", "content": "x", "expected_mtime": 1.5}`,
		`{"path": "a.txt", "content": "x", "expected_version": null}`,
		`{"path": "a.txt" "content": "x"}`,
		`{"path": "a.txt", "content": "x",}`,
		`{"path": "a.txt", "content": "x"} trailing`,
		`[1, 2]`, `"str"`, `{}`, ``, `null`, `{"path": "a.txt", "content": tru}`,
		`{ "path" : "a.txt" , "content" : "x" }`,
	}
	for _, c := range cases[:3] {
		if !decodeFast([]byte(c), &saveArgs{}) {
			t.Errorf("the fast path gave up on %.60s", c)
		}
	}
	for _, c := range cases {
		var fast, careful saveArgs
		errFast := DecodeArgs([]byte(c), &fast)
		errCareful := decodeCareful([]byte(c), &careful)
		if (errFast == nil) != (errCareful == nil) || (errFast != nil && errFast.Error() != errCareful.Error()) || !reflect.DeepEqual(fast, careful) {
			t.Errorf("%.80s:\n fast    %+v %v\n careful %+v %v", c, fast, errFast, careful, errCareful)
		}
	}
	for _, c := range []string{
		`{"pattern": "x", "include_glob": ["*.go", "a\"b"], "max_matches": 5, "literal": true}`,
		`{"pattern": "x", "include_glob": "*.go"}`,
		`{"pattern": "x", "max_matches": 1e400}`,
		"{\"pattern\": \"x\", \"include_glob\": [\"ok\", \"\xff\"]}",
		`{"pattern": "x", "include_glob": ["ok", "\ud800"]}`,
	} {
		var fast, careful searchArgs
		errFast := DecodeArgs([]byte(c), &fast)
		errCareful := decodeCareful([]byte(c), &careful)
		if (errFast == nil) != (errCareful == nil) || (errFast != nil && errFast.Error() != errCareful.Error()) || !reflect.DeepEqual(fast, careful) {
			t.Errorf("%.80s:\n fast    %+v %v\n careful %+v %v", c, fast, errFast, careful, errCareful)
		}
	}
}
