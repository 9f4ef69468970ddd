package editor

import (
	"github.com/editord/editord/editor/lsp"
	"github.com/editord/editord/shell"
	"github.com/editord/editord/workspace"
)

// lspOptions give the language servers' sandboxes (editor/lsp/box.go)
// their folders in the state dir, and keep the rest of the state dir out
// of their sight when it lies in the jail.
func lspOptions(jail *shell.Jail, store *workspace.Store, warn func(string)) lsp.Options {
	return lsp.Options{
		Dirs: store.LSPDirs,
		Hidden: func(name string) []string {
			if jail.Contains(store.Dir()) {
				return store.LSPHidden(name)
			}
			return nil
		},
		Warn: warn,
	}
}
