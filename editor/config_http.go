package editor

// HTTPConfig bounds the sessions of `serve --http` (the [http] table):
// every initialize makes one, and a client that goes away without saying
// so (a closed tab, a killed agent) leaves it behind.
type HTTPConfig struct {
	// MaxSessions caps the sessions alive at once. A new one past the cap
	// takes the place of the least recently used session that has no
	// stream open and no call running; when every one is busy, it is
	// refused (503).
	MaxSessions int `toml:"max_sessions"`
	// SessionIdleSeconds: a session with no stream open and no call
	// running for this long ends (its client gets 404 next time and
	// initializes again, as the MCP specification says).
	SessionIdleSeconds int `toml:"session_idle_seconds"`
}

func defaultHTTPConfig() HTTPConfig {
	return HTTPConfig{MaxSessions: 256, SessionIdleSeconds: 900}
}
