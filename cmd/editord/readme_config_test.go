package main

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"

	"github.com/editord/editord/editor"
	"github.com/editord/editord/editor/lsp"
)

// TestReadmeConfigIsTheDefaults: the README's Configuration block, which
// a person copies from, is the defaults the code has, every key of them:
// it is decoded over an empty configuration (a key it leaves out stays
// zero and differs) and compared with editor.DefaultConfig.
func TestReadmeConfigIsTheDefaults(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	i := strings.Index(s, "\n## Configuration\n")
	if i < 0 {
		t.Fatal("README.md has no Configuration section")
	}
	s = s[i:]
	start := strings.Index(s, "```toml\n")
	if start < 0 {
		t.Fatal("README.md's Configuration section has no ```toml block")
	}
	s = s[start+len("```toml\n"):]
	block := s[:strings.Index(s, "```")]
	var got editor.Config
	md, err := toml.Decode(block, &got)
	if err != nil {
		t.Fatalf("README.md's configuration does not parse: %v", err)
	}
	if u := md.Undecoded(); len(u) > 0 {
		t.Fatalf("README.md's configuration has keys the code does not: %v", u)
	}
	// A default server's table may leave out what the loader fills in
	// (its settings and install command), as a person's file may.
	got.LSP = lsp.WithDefaults(got.LSP)
	want := editor.DefaultConfig()
	gv, wv := reflect.ValueOf(got), reflect.ValueOf(want)
	for i := range gv.NumField() {
		if !reflect.DeepEqual(gv.Field(i).Interface(), wv.Field(i).Interface()) {
			t.Errorf("README.md's [%s] is not the default:\n got %+v\nwant %+v", gv.Type().Field(i).Tag.Get("toml"), gv.Field(i).Interface(), wv.Field(i).Interface())
		}
	}
}
