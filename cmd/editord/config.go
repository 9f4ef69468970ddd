package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/editord/editord/editor"
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
	if und := md.Undecoded(); len(und) > 0 {
		keys := make([]string, len(und))
		for i, k := range und {
			keys[i] = k.String()
		}
		sort.Strings(keys)
		return cfg, "", fmt.Errorf("config %s: unknown key %s (known sections: [limits], [jail], [walk], [turns]; see README.md)", abs, strings.Join(keys, ", "))
	}
	if err := validate(cfg); err != nil {
		return cfg, "", fmt.Errorf("config %s: %w", abs, err)
	}
	return cfg, abs, nil
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
		{"turns.idle_ms", int64(c.Turns.IdleMS)}, {"turns.kept", int64(c.Turns.Kept)},
		{"turns.keep_bytes", c.Turns.KeepBytes}, {"turns.keep_file_bytes", c.Turns.KeepFileBytes},
	}
	for _, ch := range checks {
		if ch.v <= 0 {
			return fmt.Errorf("%s must be positive, got %d", ch.name, ch.v)
		}
	}
	if l.DiffContextLines < 0 {
		return fmt.Errorf("limits.diff_context_lines must be 0 or more, got %d", l.DiffContextLines)
	}
	for _, r := range c.Jail.Roots {
		if !filepath.IsAbs(r) {
			return fmt.Errorf("jail.roots entry %q must be an absolute path", r)
		}
	}
	return nil
}
