package jsonscan

import "testing"

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
