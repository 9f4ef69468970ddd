package gitops

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/editord/editord/shell"
	format "github.com/go-git/go-git/v5/plumbing/format/config"
)

// gitConfig is git's layered configuration: system, global, then the
// repository's own file, later layers winning, as `git config` reads it.
type gitConfig struct {
	layers []*format.Config // lowest priority first
	local  bool             // the last layer is the repository's own
}

func parseConfig(data []byte) *format.Config {
	c := format.New()
	if err := format.NewDecoder(bytes.NewReader(data)).Decode(c); err != nil {
		return format.New() // git would refuse a broken file; we read what we can
	}
	return c
}

// loadConfig reads the user's files through shell and the repository's
// file (local, inside the jail) from data.
func loadConfig(local []byte) (*gitConfig, error) {
	g := &gitConfig{local: true}
	files, err := shell.GitUserConfig()
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		g.layers = append(g.layers, parseConfig(f.Data))
	}
	g.layers = append(g.layers, parseConfig(local))
	return g, nil
}

// user is the configuration without the repository's own file: the
// user's and the system's, which a repository cannot write. Settings that
// read files outside the jail or start programs (core.excludesFile,
// credential helpers) come from here only.
func (g *gitConfig) user() *gitConfig {
	if !g.local {
		return g
	}
	return &gitConfig{layers: g.layers[:len(g.layers)-1]}
}

// get returns the value of section[.subsection].key from the highest
// layer that sets it.
func (g *gitConfig) get(section, subsection, key string) (string, bool) {
	for i := len(g.layers) - 1; i >= 0; i-- {
		c := g.layers[i]
		for _, s := range c.Sections {
			if !s.IsName(section) {
				continue
			}
			opts := sectionOptions(s, subsection)
			for j := len(opts) - 1; j >= 0; j-- {
				if opts[j].IsKey(key) {
					return opts[j].Value, true
				}
			}
		}
	}
	return "", false
}

// sectionOptions is s's own options, or with a subsection named, the
// options of every subsection of s by that name, in file order.
func sectionOptions(s *format.Section, subsection string) format.Options {
	if subsection == "" {
		return s.Options
	}
	var opts format.Options
	for _, ss := range s.Subsections {
		if ss.IsName(subsection) {
			opts = append(opts, ss.Options...)
		}
	}
	return opts
}

// all returns every value of a multi-valued key, lowest layer first, in
// file order (safe.directory and the like).
func (g *gitConfig) all(section, subsection, key string) []string {
	var out []string
	for _, c := range g.layers {
		for _, s := range c.Sections {
			if !s.IsName(section) {
				continue
			}
			opts := sectionOptions(s, subsection)
			for _, o := range opts {
				if o.IsKey(key) {
					out = append(out, o.Value)
				}
			}
		}
	}
	return out
}

func (g *gitConfig) str(section, subsection, key string) string {
	v, _ := g.get(section, subsection, key)
	return v
}

// boolean reads a git boolean (true/yes/on/1, false/no/off/0; a key with
// no value is true).
func (g *gitConfig) boolean(section, subsection, key string, def bool) bool {
	v, ok := g.get(section, subsection, key)
	if !ok {
		return def
	}
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "", "true", "yes", "on", "1":
		return true
	case "false", "no", "off", "0":
		return false
	}
	if n, err := strconv.Atoi(v); err == nil {
		return n != 0
	}
	return def
}

func (g *gitConfig) integer(section, subsection, key string, def int) int {
	v, ok := g.get(section, subsection, key)
	if !ok {
		return def
	}
	v = strings.TrimSpace(strings.ToLower(v))
	mult := 1
	switch {
	case strings.HasSuffix(v, "k"):
		mult, v = 1024, v[:len(v)-1]
	case strings.HasSuffix(v, "m"):
		mult, v = 1024*1024, v[:len(v)-1]
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return def
	}
	return n * mult
}
