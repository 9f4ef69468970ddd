package editor

import (
	"github.com/editord/editord/editor/lsp"
	"github.com/editord/editord/editor/turns"
)

// Config is the whole configuration file (docs/contract.md §6). The toml tags
// are the key names, cmd/editord rejects keys that are not here, and the
// desc tags say what each does in docs/reference.md.
type Config struct {
	Limits Limits       `toml:"limits" desc:"What one call may cost, and what the state dir keeps of changes and versions."`
	Jail   JailConfig   `toml:"jail" desc:"What anything may touch: the folders, the globs refused inside them, the sizes read and written."`
	Walk   WalkConfig   `toml:"walk" desc:"Folder walks (tree, find, search, the watcher)."`
	Editor EditorConfig `toml:"editor" desc:"How two writers of one file meet."`
	Tools  ToolsConfig  `toml:"tools" desc:"Which tools MCP clients list."`
	HTTP   HTTPConfig   `toml:"http" desc:"The sessions of editord serve --http."`
	Run    RunConfig    `toml:"run" desc:"editor::run: whether commands may run, which, and the sandbox they run in (README, Running commands). Off by default."` // run_config.go
	// LSP are the language servers, by name ([lsp.go], ...): see
	// editor/lsp's ServerConfig.
	LSP   map[string]lsp.ServerConfig `toml:"lsp" desc:"One table per language server (editor::symbols, definition, references, hover, diagnostics, rename). A server is started by the first call that needs it. The defaults below stay beside the tables the file adds; a table named like a default one ([lsp.go]) replaces it, keeping the default's languages, settings and install where it leaves them out."`
	Turns turns.Config                `toml:"turns" desc:"Turns: how a writer's changes are grouped for review and undo, and how many are kept."`
}

// ToolsConfig shapes the MCP tool list (toolsets.go).
type ToolsConfig struct {
	Toolsets []string `toml:"toolsets" desc:"The toolsets every MCP client lists: core, git, workspace, text, turns, intel, run, or all. Each listed tool costs a model its description in context on every turn; a client can still list more for itself (an X-MCP-Toolsets header, editor::tools), and every tool answers by name whether listed or not. run is added when [run] enabled is true."`
}

// EditorConfig tunes how writers of one file meet (merge.go, draft_notice.go).
type EditorConfig struct {
	DraftConflict string `toml:"draft_conflict" desc:"What an agent's save or edit of a file a person has unsaved edits of (a draft) does: \"merge\" writes it, names the draft in the reply, and the person's editor rebases the draft onto it; \"refuse\" holds it (held: true, nothing written) until the person saves or discards the draft."`
}

// Limits bound what one call may cost.
type Limits struct {
	MaxFileBytes      int64 `toml:"max_file_bytes" desc:"Largest file editor::open returns whole (a bigger one: its beginning, truncated, and no tab; a ranged read of it is served), and the most a draft holds; editor::search reads bigger files in pieces."`
	MaxDiffBytes      int   `toml:"max_diff_bytes" desc:"Per side of editor::diff, and per side of what changed for the patch of a save, an edit or an event: past it, truncated and no patch (the counts still come)."`
	DiffContextLines  int   `toml:"diff_context_lines" desc:"Context lines of the patches of saves, edits and change events."`
	FindLimit         int   `toml:"find_limit" desc:"Matches editor::find returns when the call gives no limit."`
	MaxFindCandidates int   `toml:"max_find_candidates" desc:"Paths editor::find ranks at most; more make its reply truncated."`
	SearchMaxMatches  int   `toml:"search_max_matches" desc:"editor::search's max_matches when the call gives none."`
	GitTimeoutMS      int   `toml:"git_timeout_ms" desc:"Milliseconds a network git call (editor::git::sync, ssh handshakes included) may take before it ends with ok: false."`
	EventPatchBytes   int   `toml:"event_patch_bytes" desc:"Largest patch a change event carries; a longer one is cut on a line and marked truncated (editor::git::hunks has the rest)."`
	ChangesKept       int   `toml:"changes_kept" desc:"Change events the journal keeps; editor::changes says reset when a cursor is older."`
	// VersionsKept and VersionsBytes bound the version store: the content
	// of recently handed-out versions, kept in the state dir so that a
	// stale save or edit can be merged (workspace/versions.go).
	VersionsKept  int   `toml:"versions_kept" desc:"Versions whose content the state dir keeps so that a stale save or edit can be merged three ways; 0 keeps none (every stale save is a conflict)."`
	VersionsBytes int64 `toml:"versions_bytes" desc:"Bytes of kept version contents at most; one content over an eighth of it is not kept."`
}

// JailConfig is what the shell layer lets anything touch.
type JailConfig struct {
	Roots         []string `toml:"roots" desc:"The folders anything may touch; empty: the --root given at start (or the working directory)."`
	Deny          []string `toml:"deny" desc:"Globs in .gitignore syntax refused for every function (denied) and left out of listings, find and search; \"!\" re-allows."`
	MaxReadBytes  int64    `toml:"max_read_bytes" desc:"Largest file read at all (a ranged editor::open of a file over max_file_bytes goes up to it)."`
	MaxWriteBytes int64    `toml:"max_write_bytes" desc:"Largest content written (too_large past it)."`
	// AllowGitConfig lets open, search and tree return .git/config (and
	// submodules' configs), which are denied otherwise: a remote URL there
	// can hold a token.
	AllowGitConfig bool `toml:"allow_git_config" desc:"true lets open, search and tree return .git/config and submodules' configs, whose remote URLs can hold tokens."`
}

// WalkConfig tunes directory walks.
type WalkConfig struct {
	Noise []string `toml:"noise" desc:"Folder names left out of every walk (tree, find, search, the watcher) wherever they are."`
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
		HTTP:   defaultHTTPConfig(),
		Run:    defaultRunConfig(),
		LSP:    lsp.DefaultServers(),
		Turns:  turns.DefaultConfig(),
	}
}

// The values of draft_conflict.
const (
	DraftMerge  = "merge"
	DraftRefuse = "refuse"
)
