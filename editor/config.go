package editor

// Config is the whole configuration file (CONTRACT.md §6). The toml tags
// are the key names; cmd/editord rejects keys that are not here.
type Config struct {
	Limits Limits       `toml:"limits"`
	Jail   JailConfig   `toml:"jail"`
	Walk   WalkConfig   `toml:"walk"`
	Editor EditorConfig `toml:"editor"`
	Tools  ToolsConfig  `toml:"tools"`
}

// ToolsConfig shapes the MCP tool list (toolsets.go).
type ToolsConfig struct {
	// Toolsets every MCP client lists (core by default; "all" for every one).
	Toolsets []string `toml:"toolsets"`
}

// EditorConfig tunes how writers of one file meet (merge.go, drafts.go).
type EditorConfig struct {
	// DraftConflict is what an agent's save or edit of a file that a
	// person holds a draft of does: "merge" writes it (the reply names
	// the draft, and the person's editor rebases the draft onto it);
	// "refuse" holds it (nothing written) until the draft is saved or
	// discarded.
	DraftConflict string `toml:"draft_conflict"`
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
	// VersionsKept and VersionsBytes bound the version store: the content
	// of recently handed-out versions, kept in the state dir so that a
	// stale save or edit can be merged (workspace/versions.go). 0 entries
	// keeps none: every stale save is a conflict.
	VersionsKept  int   `toml:"versions_kept"`
	VersionsBytes int64 `toml:"versions_bytes"`
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
			VersionsKept:      512,
			VersionsBytes:     128 << 20,
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
		Editor: EditorConfig{DraftConflict: DraftMerge},
		Tools:  ToolsConfig{Toolsets: append([]string{}, DefaultToolsets...)},
	}
}

// The values of draft_conflict.
const (
	DraftMerge  = "merge"
	DraftRefuse = "refuse"
)
