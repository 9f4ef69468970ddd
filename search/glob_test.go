package search

import (
	"strings"
	"testing"

	"github.com/editord/editord/shell"
)

func TestGlobFilter(t *testing.T) {
	for _, tc := range []struct {
		include, exclude []string
		in, out          []string
	}{
		{nil, nil, []string{"a.go", "x/y/z.txt"}, nil},
		{[]string{"*.go"}, nil, []string{"a.go", "x/y/z.go"}, []string{"a.txt", "x/go", "x.go/"}},
		{[]string{"src/*.go"}, nil, []string{"src/a.go"}, []string{"src/x/a.go", "a/src/a.go", "a.go"}},
		{[]string{"/src/*.go"}, nil, []string{"src/a.go"}, []string{"a/src/a.go"}},
		{[]string{"src/**/*.ts"}, nil, []string{"src/a.ts", "src/x/y/a.ts"}, []string{"a.ts", "lib/src/a.ts"}},
		{[]string{"**/test/**"}, nil, []string{"test/a", "x/test/b/c"}, []string{"test", "x/tests/a"}},
		{[]string{"src"}, nil, []string{"src/a.go", "x/src/y/z"}, []string{"srcs/a.go", "a.go"}},
		{[]string{"docs/"}, nil, []string{"docs/a.md", "x/docs/b.md"}, []string{"docs"}},
		{[]string{"*.go", "*.md"}, nil, []string{"a.go", "b/c.md"}, []string{"c.txt"}},
		{[]string{"*.go", "!*_test.go"}, nil, []string{"a.go"}, []string{"a_test.go", "x/b_test.go"}},
		{nil, []string{"vendor"}, []string{"a.go", "vendors/a.go"}, []string{"vendor/a.go", "x/vendor/y/z.go"}},
		{nil, []string{"*_test.go", "testdata/**"}, []string{"a.go", "x/testdata"}, []string{"a_test.go", "testdata/x", "testdata/y/z"}},
		{[]string{"*.go"}, []string{"gen/"}, []string{"a.go"}, []string{"gen/a.go", "gen/x/b.go", "a.txt"}},
		{[]string{"[ab].go", "?.rs"}, nil, []string{"a.go", "b.go", "x.rs"}, []string{"c.go", "xy.rs"}},
		{[]string{"#notes.md"}, nil, []string{"#notes.md"}, []string{"notes.md"}},
		{[]string{"./src/*.go"}, nil, []string{"src/a.go"}, []string{"a.go"}},
	} {
		f, err := newGlobFilter(tc.include, tc.exclude)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range tc.in {
			if !f.match(p) {
				t.Errorf("include %q exclude %q: %q should be searched", tc.include, tc.exclude, p)
			}
		}
		for _, p := range tc.out {
			if strings.HasSuffix(p, "/") {
				continue // a folder name, listed for the reader
			}
			if f.match(p) {
				t.Errorf("include %q exclude %q: %q should not be searched", tc.include, tc.exclude, p)
			}
		}
	}
	for _, bad := range [][2][]string{{{""}, nil}, {nil, {"!x"}}, {{"/"}, nil}, {nil, {"a\x00b"}}} {
		if _, err := newGlobFilter(bad[0], bad[1]); shell.CodeOf(err) != shell.CodeInvalidArgument {
			t.Errorf("globs %q: %v, want invalid_argument", bad, err)
		}
	}
}
