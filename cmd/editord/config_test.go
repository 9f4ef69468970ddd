package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/editord/editord/editor"
)

// [editor] draft_conflict and the version store's bounds are read and
// checked; anything else is refused with its name.
func TestConfigEditorSection(t *testing.T) {
	write := func(text string) string {
		p := filepath.Join(t.TempDir(), "config.toml")
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	cfg, _, err := loadConfig(write("[editor]\ndraft_conflict = \"refuse\"\n[limits]\nversions_kept = 0\n"))
	if err != nil || cfg.Editor.DraftConflict != editor.DraftRefuse || cfg.Limits.VersionsKept != 0 || cfg.Limits.VersionsBytes != editor.DefaultConfig().Limits.VersionsBytes {
		t.Fatalf("%+v %v", cfg, err)
	}
	if d := editor.DefaultConfig(); d.Editor.DraftConflict != editor.DraftMerge || d.Limits.VersionsKept <= 0 {
		t.Fatalf("defaults: %+v", d)
	}
	for text, want := range map[string]string{
		"[editor]\ndraft_conflict = \"maybe\"\n": "editor.draft_conflict",
		"[editor]\ndraft = \"merge\"\n":          "editor.draft",
		"[limits]\nversions_kept = -1\n":         "limits.versions_kept",
		"[limits]\nversions_bytes = 0\n":         "limits.versions_bytes",
	} {
		if _, _, err := loadConfig(write(text)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want an error naming %s", text, err, want)
		}
	}
}
