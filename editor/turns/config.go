package turns

// Config is the [turns] table of the configuration file.
type Config struct {
	// IdleMS is the gap after which a writer's next change begins a new
	// turn, when the writer did not begin one itself (editor::turn).
	IdleMS int `toml:"idle_ms" desc:"Milliseconds of quiet after which a writer's next change begins a new turn, for a writer that does not mark its turns with editor::turn."`
	// Kept is how many turns are kept (history and revert reach this far).
	Kept int `toml:"kept" desc:"Turns kept for editor::history and editor::revert (older ones are dropped, oldest first)."`
	// KeepBytes bounds the contents kept for the turns' detail and revert;
	// the oldest turns lose theirs first.
	KeepBytes int64 `toml:"keep_bytes" desc:"Bytes of file contents kept in the state dir for the turns' detail and revert; past it the oldest turns lose theirs first (still listed, no longer revertible)."`
	// KeepFileBytes is the largest content kept: a change to a bigger file
	// is listed, but can be neither shown nor reverted.
	KeepFileBytes int64 `toml:"keep_file_bytes" desc:"Largest file whose contents a turn keeps: a change to a bigger file is listed, but neither shown hunk by hunk nor revertible."`
}

// DefaultConfig is the [turns] table when the file does not say.
func DefaultConfig() Config {
	return Config{IdleMS: 120_000, Kept: 1000, KeepBytes: 256 << 20, KeepFileBytes: 2_000_000}
}

func (c Config) idle() int64 { return int64(c.IdleMS) }
