package wire

import (
	"strings"
	"testing"
)

func TestValueEnd(t *testing.T) {
	for _, c := range []struct {
		in   string
		i    int
		end  int
		okay bool
	}{
		{`"abc", 1`, 0, 5, true},
		{`"a\"b"}`, 0, 6, true},
		{`"a\\"}`, 0, 5, true},
		{`"a\\\"b"`, 0, 8, true},
		{`"open`, 0, 0, false},
		{`{"a": [1, "]}"], "b": {}} ,`, 0, 25, true},
		{`[1, [2, 3]]`, 0, 11, true},
		{`{"a": 1`, 0, 0, false},
		{`12.5e3}`, 0, 6, true},
		{`true ,`, 0, 4, true},
		{`x: null}`, 3, 7, true},
		{`,`, 0, 0, false},
		{``, 0, 0, false},
	} {
		end, ok := ValueEnd([]byte(c.in), c.i)
		if end != c.end || ok != c.okay {
			t.Errorf("ValueEnd(%q, %d) = %d, %v; want %d, %v", c.in, c.i, end, ok, c.end, c.okay)
		}
	}
	if got := Space([]byte(" \t\r\n x"), 0); got != 5 {
		t.Errorf("Space: %d, want 5", got)
	}
}

func TestMembers(t *testing.T) {
	for _, c := range []struct {
		in   string
		want string // key=value pairs seen, then the end
		end  int
		okay bool
	}{
		{` { "a" : 1 , "b":"x,}" } `, `"a"=1 "b"="x,}" `, 24, true},
		{`{}`, ``, 2, true},
		{`{"a": {"b": [1, 2]}}tail`, `"a"={"b": [1, 2]} `, 20, true},
		{`{"a": 1,}`, `"a"=1 `, 0, false},
		{`{"a" 1}`, ``, 0, false},
		{`{"a": 1 "b": 2}`, `"a"=1 `, 0, false},
		{`{a: 1}`, ``, 0, false},
		{`{"a": 1`, `"a"=1 `, 0, false},
		{`[1]`, ``, 0, false},
	} {
		seen := ""
		end, ok := Members([]byte(c.in), func(k, v []byte) bool {
			seen += string(k) + "=" + string(v) + " "
			return true
		})
		if seen != c.want || end != c.end || ok != c.okay {
			t.Errorf("Members(%q): saw %q, end %d, %v; want %q, %d, %v", c.in, seen, end, ok, c.want, c.end, c.okay)
		}
	}
	if _, ok := Members([]byte(`{"a": 1, "b": 2}`), func(k, v []byte) bool { return string(k) != `"b"` }); ok {
		t.Error("Members went on after fn said no")
	}
}

func TestNumbersFit(t *testing.T) {
	for v, want := range map[string]bool{
		`{"a": 1, "b": -2.5e10, "c": "1e400"}`:             true,
		`{"a": 1e400}`:                                     false,
		`{"s": "x\"y", "n": [1, 2, -1e309]}`:               false,
		`{"s": "a \\ \" 1e999 \\\\", "t": 3}`:              true,
		`{"content": "` + strings.Repeat("9", 1000) + `"}`: true,
	} {
		if got := NumbersFit([]byte(v)); got != want {
			t.Errorf("%s: %v", v, got)
		}
	}
}
