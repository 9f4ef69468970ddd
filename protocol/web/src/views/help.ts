// The keyboard shortcuts (? shows them).

import type { App } from "../app";
import { h } from "../dom";

export const keys: [string, string][] = [
  ["Ctrl/Cmd+P", "Go to file"],
  ["Ctrl/Cmd+S", "Save (guarded by the version you opened)"],
  ["Ctrl/Cmd+F", "Find and replace in the file"],
  ["Ctrl/Cmd+G", "Go to line"],
  ["Ctrl/Cmd+Z, Ctrl/Cmd+Shift+Z", "Undo, redo"],
  ["Ctrl/Cmd+Shift+E", "Files"],
  ["Ctrl/Cmd+Shift+F", "Search across files"],
  ["Ctrl/Cmd+Shift+G", "Git"],
  ["Ctrl/Cmd+Shift+Y", "Activity"],
  ["Ctrl/Cmd+Shift+B", "Run a command, watch its output (and agents' commands)"],
  ["F12, Ctrl/Cmd+click", "Go to definition (from the language server)"],
  ["Shift+F12", "Find references"],
  ["F2", "Rename the symbol (preview, then apply); in the tree, rename the file"],
  ["Ctrl/Cmd+Shift+O", "Go to a symbol of the file"],
  ["Ctrl/Cmd+Shift+M", "Problems"],
  ["Arrows, Home, End, Enter, F2, Delete", "Move, open, rename, delete in the tree"],
  ["Shift+F10, right-click", "The tree item's menu: new file or folder, rename, delete"],
  ["Alt+PageDown, Alt+PageUp", "Next, previous tab (also Ctrl+PageDown/PageUp where the browser lets them through)"],
  ["Arrows, Home, End, Delete", "Move between, close tabs (in the tab list)"],
  ["Esc, then Tab", "Leave the editor for the next control"],
  ["?", "This list"],
];

export function showHelp(app: App): void {
  const done = h("button", { type: "button", class: "primary", onclick: () => close() }, "Close");
  const close = app.dialogs.open("Keyboard shortcuts", [
    h("table", { class: "keys" }, h("tbody", {}, ...keys.map(([k, what]) => h("tr", {}, h("th", { scope: "row" }, h("kbd", {}, k)), h("td", {}, what))))),
  ], [done]);
}
