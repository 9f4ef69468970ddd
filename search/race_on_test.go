//go:build race

package search

// raceEnabled: the race detector slows regexp-heavy tests down ~70x.
const raceEnabled = true
