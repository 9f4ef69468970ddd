// The code intelligence actions in the command palette. Their keys (F12,
// Shift+F12, F2, Ctrl/Cmd+Shift+O) belong to the editor's own keymap
// (intel.ts), where F2 on a name means rename; so they are the commands'
// editorKeys, shown beside them but not bound by the page's key handler,
// which would take F2 from the tree too.

import type { App } from "./app";
import { addCommand } from "./commands";
import { findReferences, goToDefinition, outline, renameSymbol } from "./intel";
import type { Tab } from "./model";
import { openPalette } from "./views/palette";
import { focusedTab } from "./views/split";

type AtCursor = (app: App, tab: Tab, pos: number) => Promise<void>;

export function addIntelCommands(app: App): void {
  const hasText = (a: App) => !!focusedTab(a)?.state;
  const atCursor = (f: AtCursor) => () => {
    const tab = focusedTab(app);
    if (tab?.state) return f(app, tab, tab.state.selection.main.head);
  };
  addCommand({ id: "code.definition", title: "Code: Go to definition", editorKeys: ["F12"], when: hasText, run: atCursor(goToDefinition) });
  addCommand({ id: "code.references", title: "Code: Find references", editorKeys: ["Shift+F12"], when: hasText, run: atCursor(findReferences) });
  addCommand({ id: "code.rename", title: "Code: Rename symbol", editorKeys: ["F2"], when: hasText, run: atCursor(renameSymbol) });
  // Ctrl+T, VS Code's key, is the browser's new tab: "#" in Go to file, as
  // VS Code's quick open has it too.
  addCommand({ id: "code.workspaceSymbol", title: "Code: Go to symbol in workspace…", run: () => openPalette(app, "#") });
  addCommand({
    id: "code.outline",
    title: "Code: Go to symbol in the file",
    editorKeys: ["Ctrl+Shift+O"],
    when: hasText,
    run: () => {
      const tab = focusedTab(app);
      if (tab) return outline(app, tab);
    },
  });
}
