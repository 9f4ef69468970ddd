package lsp

import (
	"fmt"
	"maps"
	"path/filepath"
	"strings"

	"github.com/editord/editord/shell"
)

// typescript-language-server runs the tsserver of the workspace's own
// node_modules/typescript when there is one, ahead of the one installed
// beside it: a repository could ship a tsserver.js of its choosing, and
// it would run. So editord always names the TypeScript to run
// (initialization_options.tsserver.path): the configured one, else the
// one installed beside the server, never the workspace's. Automatic type
// acquisition (which runs npm) is off unless the configuration turns it on.

// tsserverWanted reports whether cfg runs typescript-language-server.
func tsserverWanted(cfg ServerConfig) bool {
	return len(cfg.Command) > 0 && strings.HasPrefix(filepath.Base(cfg.Command[0]), "typescript-language-server")
}

// withTsserver is init with tsserver.path set to the TypeScript beside
// program when the configuration names none.
func withTsserver(init map[string]any, program string) (map[string]any, error) {
	out := maps.Clone(init)
	if out == nil {
		out = map[string]any{}
	}
	ts, _ := out["tsserver"].(map[string]any)
	ts = maps.Clone(ts)
	if ts == nil {
		ts = map[string]any{}
	}
	if p, _ := ts["path"].(string); p == "" {
		found, ok := shell.FindAbove(program, filepath.Join("node_modules", "typescript", "lib", "tsserver.js"))
		if !ok {
			return nil, fmt.Errorf("no TypeScript installed beside %s (editord does not run a workspace's own): install typescript next to it, or set initialization_options.tsserver.path", program)
		}
		ts["path"] = found
	}
	out["tsserver"] = ts
	if _, set := out["disableAutomaticTypingAcquisition"]; !set {
		out["disableAutomaticTypingAcquisition"] = true
	}
	return out, nil
}
