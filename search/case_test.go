package search

import "testing"

func TestPreserveCase(t *testing.T) {
	for _, c := range []struct{ matched, repl, want string }{
		{"foo", "bar", "bar"},
		{"FOO", "bar", "BAR"},
		{"Foo", "bar", "Bar"},
		{"fooBar", "BazQux", "bazQux"},
		{"FooBar", "bazQux", "BazQux"},
		{"foo", "BAR", "bar"},
		{"Foo-Bar", "baz-qux", "Baz-Qux"},
		{"foo-Bar", "baz-qux", "baz-Qux"},
		{"Foo_bar", "baz_qux", "Baz_qux"},
		{"Foo-Bar", "baz", "Baz"},
		{"Él", "ola", "Ola"},
		{"ÉCOLE", "maison", "MAISON"},
		{"123", "abc", "abc"},
		{"Foo", "", ""},
		{"A", "bc", "BC"},
	} {
		if got := string(PreserveCase([]byte(c.matched), []byte(c.repl))); got != c.want {
			t.Errorf("PreserveCase(%q, %q) = %q, want %q", c.matched, c.repl, got, c.want)
		}
	}
}

// With preserve case, a case-blind search's matches each keep their own
// case, literal or with $ groups.
func TestReplacePreservingCase(t *testing.T) {
	m, err := Compile("widget", MatchOptions{Literal: true, IgnoreCase: true})
	if err != nil {
		t.Fatal(err)
	}
	out, n, err := m.ReplaceCase([]byte("widget Widget WIDGET\nmyWidget\n"), []byte("gadget"), false, true, 1<<20)
	if err != nil || n != 4 || string(out) != "gadget Gadget GADGET\nmyGadget\n" {
		t.Fatalf("literal: %q, %d, %v", out, n, err)
	}
	m, err = Compile(`(w)idget`, MatchOptions{IgnoreCase: true})
	if err != nil {
		t.Fatal(err)
	}
	out, n, err = m.ReplaceCase([]byte("Widget WIDGET\n"), []byte("${1}ombat"), true, true, 1<<20)
	if err != nil || n != 2 || string(out) != "Wombat WOMBAT\n" {
		t.Fatalf("expanded: %q, %d, %v", out, n, err)
	}
}
