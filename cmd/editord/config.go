package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/editord/editord/editor"
	"github.com/editord/editord/editor/lsp"
	"github.com/editord/editord/shell"
)

// loadConfig reads --config FILE, else $XDG_CONFIG_HOME/editord/config.toml
// when present, over the defaults. Keys the file sets replace the default
// (a deny list given in the file is the whole deny list). Unknown keys are
// an error that names them, so a typo never silently falls back.
func loadConfig(path string) (editor.Config, string, error) {
	cfg := editor.DefaultConfig()
	explicit := path != ""
	if !explicit {
		dir := os.Getenv("XDG_CONFIG_HOME")
		if dir == "" {
			home, err := os.UserHomeDir()
			if err != nil {
				return cfg, "", nil
			}
			dir = filepath.Join(home, ".config")
		}
		path = filepath.Join(dir, "editord", "config.toml")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return cfg, "", err
	}
	data, found, err := shell.ReadConfigFile(abs)
	if err != nil {
		return cfg, "", fmt.Errorf("config %s: %w", abs, err)
	}
	if !found {
		if explicit {
			return cfg, "", fmt.Errorf("config %s does not exist", abs)
		}
		return cfg, "", nil
	}
	md, err := toml.Decode(string(data), &cfg)
	if err != nil {
		return cfg, "", fmt.Errorf("config %s: %w", abs, err)
	}
	var keys []string
	for _, k := range md.Undecoded() {
		if !freeForm(k) {
			keys = append(keys, k.String())
		}
	}
	if len(keys) > 0 {
		sort.Strings(keys)
		return cfg, "", fmt.Errorf("config %s: unknown key %s (known sections: [limits], [jail], [walk], [editor], [tools], [http], [run], [turns], [lsp.NAME]; see README.md)", abs, strings.Join(keys, ", "))
	}
	cfg.LSP = lsp.WithDefaults(cfg.LSP)
	if err := validate(cfg); err != nil {
		return cfg, "", fmt.Errorf("config %s: %w", abs, err)
	}
	return cfg, abs, nil
}

// freeForm reports whether k lies inside a table whose keys are the
// server's own (an [lsp.NAME] table's settings and initialization_options),
// which the decoder lists as undecoded.
func freeForm(k toml.Key) bool {
	return len(k) > 3 && k[0] == "lsp" && (k[2] == "settings" || k[2] == "initialization_options")
}

func validate(c editor.Config) error {
	l := c.Limits
	checks := []struct {
		name string
		v    int64
	}{
		{"limits.max_file_bytes", l.MaxFileBytes}, {"limits.max_diff_bytes", int64(l.MaxDiffBytes)},
		{"limits.find_limit", int64(l.FindLimit)}, {"limits.max_find_candidates", int64(l.MaxFindCandidates)},
		{"limits.search_max_matches", int64(l.SearchMaxMatches)}, {"limits.git_timeout_ms", int64(l.GitTimeoutMS)},
		{"limits.event_patch_bytes", int64(l.EventPatchBytes)}, {"limits.changes_kept", int64(l.ChangesKept)},
		{"jail.max_read_bytes", c.Jail.MaxReadBytes}, {"jail.max_write_bytes", c.Jail.MaxWriteBytes},
		{"limits.versions_bytes", l.VersionsBytes},
		{"http.max_sessions", int64(c.HTTP.MaxSessions)}, {"http.session_idle_seconds", int64(c.HTTP.SessionIdleSeconds)},
		{"turns.idle_ms", int64(c.Turns.IdleMS)}, {"turns.kept", int64(c.Turns.Kept)},
		{"turns.keep_bytes", c.Turns.KeepBytes}, {"turns.keep_file_bytes", c.Turns.KeepFileBytes},
	}
	for _, ch := range checks {
		if ch.v <= 0 {
			return fmt.Errorf("%s must be positive, got %d", ch.name, ch.v)
		}
	}
	if l.VersionsKept < 0 {
		return fmt.Errorf("limits.versions_kept must be 0 or more, got %d", l.VersionsKept)
	}
	if d := c.Editor.DraftConflict; d != editor.DraftMerge && d != editor.DraftRefuse {
		return fmt.Errorf("editor.draft_conflict must be %q or %q, got %q", editor.DraftMerge, editor.DraftRefuse, d)
	}
	if l.DiffContextLines < 0 {
		return fmt.Errorf("limits.diff_context_lines must be 0 or more, got %d", l.DiffContextLines)
	}
	if err := c.Run.Validate(); err != nil {
		return err
	}
	for name, srv := range c.LSP {
		if len(srv.Command) == 0 || srv.Command[0] == "" {
			return fmt.Errorf("lsp.%s.command is empty; give the server's program and arguments, e.g. command = [\"gopls\"]", name)
		}
		if len(srv.Languages) == 0 {
			return fmt.Errorf("lsp.%s.languages is empty; name the languages it serves, e.g. languages = [\"go\"]", name)
		}
		if srv.IdleSeconds < 0 {
			return fmt.Errorf("lsp.%s.idle_seconds must be 0 or more, got %d", name, srv.IdleSeconds)
		}
		for _, p := range srv.Read {
			if !filepath.IsAbs(p) && p != "~" && !strings.HasPrefix(p, "~/") {
				return fmt.Errorf("lsp.%s.read entry %q must be an absolute path (or start with ~/)", name, p)
			}
		}
	}
	for _, r := range c.Jail.Roots {
		if !filepath.IsAbs(r) {
			return fmt.Errorf("jail.roots entry %q must be an absolute path", r)
		}
	}
	if _, err := editor.ParseToolsets(c.Tools.Toolsets); err != nil {
		return fmt.Errorf("tools.toolsets: %s", shell.AsError(err, "").Message)
	}
	return nil
}
