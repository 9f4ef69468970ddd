// The keyboard shortcuts (? shows them): every command's, from the
// registry, then the keys that work inside one part of the page.

import type { App } from "../app";
import { h } from "../dom";
import { commands, keyLabel } from "../commands";

/** Keys of one place (the tree, the tab list, the editor) that are not
 * commands of their own. */
export const keys: [string, string][] = [
  ["Ctrl/Cmd+Z, Ctrl/Cmd+Shift+Z", "Undo, redo"],
  ["Arrows, Home, End, Enter, F2, Delete", "Move, open, rename, delete in the tree"],
  ["Shift+F10, right-click", "The tree item's menu: new file or folder, rename, delete"],
  ["Arrows, Home, End, Delete", "Move between, close tabs (in the tab list)"],
  ["Esc, then Tab", "Leave the editor for the next control"],
];

/** What a command's title says, for the list: "Search across files" for
 * the Search view, and the title itself otherwise. */
const plain: Record<string, string> = {
  "view.files": "Files",
  "view.search": "Search across files",
  "view.git": "Git",
  "view.activity": "Activity",
  "file.save": "Save (guarded by the version you opened)",
  "tab.next": "Next tab (also Ctrl+PageDown where the browser lets it through)",
  "tab.previous": "Previous tab (also Ctrl+PageUp where the browser lets it through)",
};

export function showHelp(app: App): void {
  const rows = commands()
    .filter((c) => c.keys?.length || c.editorKeys?.length)
    .map((c): [string, string] => [
      [...(c.keys ?? []).filter((k) => !(c.id.startsWith("tab.") && k.startsWith("Ctrl+"))), ...(c.editorKeys ?? [])].map(keyLabel).join(", "),
      (plain[c.id] ?? c.title) + (c.keys?.length ? "" : " (in the editor)"),
    ]);
  const done = h("button", { type: "button", class: "primary", onclick: () => close() }, "Close");
  const close = app.dialogs.open("Keyboard shortcuts", [
    h("p", { class: "legend" }, "Every action, with or without a shortcut, is in the command palette: Ctrl+Shift+P or F1."),
    // A command's key works page-wide (or in every editor); a place's
    // only there, so the same key can mean another thing elsewhere.
    h("table", { class: "keys" }, h("tbody", {}, ...[...rows.map((r) => [...r, ""]), ...keys.map((r) => [...r, "place"])].map(([k, what, cls]) =>
      h("tr", { class: cls || undefined }, h("th", { scope: "row" }, h("kbd", {}, k)), h("td", {}, what))))),
  ], [done]);
}
