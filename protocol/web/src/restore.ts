// Which tab a page shows when it loads: the one this browser tab had
// active before a reload (sessionStorage), else where the person last was
// by the record's focus (another window, a new browser), at that line.

import { EditorSelection } from "@codemirror/state";
import type { App } from "./app";

const key = "editord.active";

export interface FocusRec {
  path: string;
  line: number;
  column: number;
}

let kept = "";

/** Remembers the active tab for a reload of this browser tab. */
export function rememberActive(app: App): void {
  const m = app.model;
  if (m.active === null || !m.root) return;
  const v = JSON.stringify({ root: m.root, path: m.active });
  if (v !== kept) sessionStorage.setItem(key, (kept = v));
}

/** The tab to show first, when a remembered or focused one is open. */
export function restoredActive(app: App, focus: FocusRec | null | undefined): string | null {
  const m = app.model;
  try {
    const was = JSON.parse(sessionStorage.getItem(key) ?? "null") as { root: string; path: string } | null;
    if (was && was.root === m.root && m.tabs.has(was.path)) return was.path;
  } catch {
    /* nothing usable kept */
  }
  return focus && m.tabs.has(focus.path) ? focus.path : null;
}

/** Puts the cursor where the record's focus says, once the tab is loaded
 * (only on a tab whose cursor the person has not moved here). */
export function restoreCursor(app: App, focus: FocusRec | null | undefined): void {
  const tab = focus ? app.model.tabs.get(focus.path) : undefined;
  if (!focus || !tab?.state || !tab.state.selection.main.empty || tab.state.selection.main.head !== 0) return;
  const doc = tab.state.doc;
  const line = doc.line(Math.min(Math.max(focus.line, 1), doc.lines));
  const pos = Math.min(line.from + Math.max(focus.column - 1, 0), line.to);
  app.editor.apply(tab, { selection: EditorSelection.cursor(pos), scrollIntoView: true });
}
