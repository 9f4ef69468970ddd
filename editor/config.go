package editor

import "github.com/editord/editord/editor/turns"

// Config is the whole configuration file (CONTRACT.md §6). The toml tags
// are the key names; cmd/editord rejects keys that are not here.
type Config struct {
	Limits Limits       `toml:"limits"`
	Jail   JailConfig   `toml:"jail"`
	Walk   WalkConfig   `toml:"walk"`
	Turns  turns.Config `toml:"turns"`
}

// Limits bound what one call may cost.
type Limits struct {
	MaxFileBytes      int64 `toml:"max_file_bytes"`
	MaxDiffBytes      int   `toml:"max_diff_bytes"`
	DiffContextLines  int   `toml:"diff_context_lines"`
	FindLimit         int   `toml:"find_limit"`
	MaxFindCandidates int   `toml:"max_find_candidates"`
	SearchMaxMatches  int   `toml:"search_max_matches"`
	GitTimeoutMS      int   `toml:"git_timeout_ms"`
	EventPatchBytes   int   `toml:"event_patch_bytes"`
	ChangesKept       int   `toml:"changes_kept"`
}

// JailConfig is what the shell layer lets anything touch.
type JailConfig struct {
	Roots         []string `toml:"roots"`
	Deny          []string `toml:"deny"`
	MaxReadBytes  int64    `toml:"max_read_bytes"`
	MaxWriteBytes int64    `toml:"max_write_bytes"`
	// AllowGitConfig lets open, search and tree return .git/config (and
	// submodules' configs), which are denied otherwise: a remote URL there
	// can hold a token.
	AllowGitConfig bool `toml:"allow_git_config"`
}

// WalkConfig tunes directory walks.
type WalkConfig struct {
	Noise []string `toml:"noise"`
}

// DefaultConfig is the configuration when no file says otherwise.
func DefaultConfig() Config {
	return Config{
		Limits: Limits{
			MaxFileBytes:      2_000_000,
			MaxDiffBytes:      2_000_000,
			DiffContextLines:  3,
			FindLimit:         50,
			MaxFindCandidates: 200_000,
			SearchMaxMatches:  2000,
			GitTimeoutMS:      15_000,
			EventPatchBytes:   16_384,
			ChangesKept:       1000,
		},
		Jail: JailConfig{
			Roots:         []string{},
			Deny:          []string{".env", ".env.*", "!.env.example", "*.pem", "*.key", "**/secrets/**"},
			MaxReadBytes:  16_777_216,
			MaxWriteBytes: 16_777_216,
		},
		Walk: WalkConfig{
			Noise: []string{".git", "node_modules", "target", "dist", "build", ".venv", "__pycache__"},
		},
		Turns: turns.DefaultConfig(),
	}
}
