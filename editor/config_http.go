package editor

// HTTPConfig bounds the sessions of `serve --http` (the [http] table):
// every initialize makes one, and a client that goes away without saying
// so (a closed tab, a killed agent) leaves it behind.
type HTTPConfig struct {
	MaxSessions        int `toml:"max_sessions" desc:"MCP sessions (protocol 2025-11-25; a 2026-07-28 request has none) alive at once. A new one past the cap takes the place of the least recently used session with no stream open and no call running; when every one is busy it is refused (503). Raise it for more concurrent agents and editor pages."`
	SessionIdleSeconds int `toml:"session_idle_seconds" desc:"Seconds a session with no stream open and no call running is kept; then it ends, and its client gets 404 and initializes again, as the MCP specification says."`
}

func defaultHTTPConfig() HTTPConfig {
	return HTTPConfig{MaxSessions: 256, SessionIdleSeconds: 900}
}
