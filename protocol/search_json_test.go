package protocol

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/editord/editord/editor"
)

// searchJSON writes what encoding/json writes, for every shape a search
// response takes.
func TestSearchJSONMatchesMarshal(t *testing.T) {
	// A field added to these types must be written by searchJSON too.
	for tp, n := range map[reflect.Type]int{
		reflect.TypeFor[editor.SearchResponse](): 8, reflect.TypeFor[editor.SearchFile](): 4,
		reflect.TypeFor[editor.SearchHit](): 4, reflect.TypeFor[editor.ContextLine](): 2,
	} {
		if got := tp.NumField(); got != n {
			t.Fatalf("%v has %d fields, searchJSON writes %d: teach it the new ones", tp, got, n)
		}
	}
	texts := []string{"", "plain", "a\tb\"c\\d", "<a & b>", "\x00\x01\x1f\x7f", "caf\u00e9 \u2028 \u2029 \U0001F600", "bad \xff\xfe utf8", "\r\n"}
	cases := []*editor.SearchResponse{
		{},
		{Files: []editor.SearchFile{}, Skipped: []editor.SearchSkip{}},
		{Files: []editor.SearchFile{{Path: "a.go"}}, Skipped: nil, Truncated: true},
		{Files: []editor.SearchFile{{Path: "a.go", Hits: []editor.SearchHit{}, Count: 3}}, Root: "/r"},
		{Files: []editor.SearchFile{{Path: "x\"y.go", Hits: []editor.SearchHit{{Line: 1, Column: 2, Text: "t"}}, Context: []editor.ContextLine{}}}},
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		r := &editor.SearchResponse{Total: rng.IntN(5000), FilesScanned: rng.IntN(9), Truncated: rng.IntN(2) == 0, Root: texts[rng.IntN(len(texts))], SkippedTotal: rng.IntN(3), ContextOmitted: rng.IntN(2) * rng.IntN(5)}
		for range rng.IntN(4) {
			f := editor.SearchFile{Path: texts[rng.IntN(len(texts))] + "/f.go", Count: rng.IntN(2) * rng.IntN(9)}
			if rng.IntN(4) > 0 {
				f.Hits = []editor.SearchHit{}
			}
			for range rng.IntN(4) {
				h := editor.SearchHit{Line: rng.IntN(1 << 20), Column: rng.IntN(300), Text: texts[rng.IntN(len(texts))]}
				if rng.IntN(4) > 0 {
					h.Ranges = [][2]int{}
				}
				for range rng.IntN(3) {
					h.Ranges = append(h.Ranges, [2]int{rng.IntN(40), rng.IntN(40)})
				}
				f.Hits = append(f.Hits, h)
			}
			for range rng.IntN(3) {
				f.Context = append(f.Context, editor.ContextLine{Line: rng.IntN(99), Text: texts[rng.IntN(len(texts))]})
			}
			r.Files = append(r.Files, f)
		}
		if rng.IntN(2) == 0 {
			r.Skipped = []editor.SearchSkip{}
		}
		for range rng.IntN(3) {
			r.Skipped = append(r.Skipped, editor.SearchSkip{Path: "big.bin", Reason: texts[rng.IntN(len(texts))]})
		}
		cases = append(cases, r)
	}
	for i, r := range cases {
		want, err := marshalJSON(r)
		if err != nil {
			t.Fatal(err)
		}
		got, err := searchJSON(r)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Fatalf("case %d:\n got %s\nwant %s", i, got, want)
		}
	}
}
