package turns

// Config is the [turns] table of the configuration file.
type Config struct {
	// IdleMS is the gap after which a writer's next change begins a new
	// turn, when the writer did not begin one itself (editor::turn).
	IdleMS int `toml:"idle_ms"`
	// Kept is how many turns are kept (history and revert reach this far).
	Kept int `toml:"kept"`
	// KeepBytes bounds the contents kept for the turns' detail and revert;
	// the oldest turns lose theirs first.
	KeepBytes int64 `toml:"keep_bytes"`
	// KeepFileBytes is the largest content kept: a change to a bigger file
	// is listed, but can be neither shown nor reverted.
	KeepFileBytes int64 `toml:"keep_file_bytes"`
}

// DefaultConfig is the [turns] table when the file does not say.
func DefaultConfig() Config {
	return Config{IdleMS: 120_000, Kept: 1000, KeepBytes: 256 << 20, KeepFileBytes: 2_000_000}
}

func (c Config) idle() int64 { return int64(c.IdleMS) }
