// A tab's changes shown inline, in colour, in the editor itself: the lines
// the index (or HEAD) has and the file no longer has, struck through in
// red above the new ones in green (@codemirror/merge's unified view over
// the tab's own state, so it stays editable and the diff follows typing).
// Each changed chunk offers Revert, which puts the old lines back as an
// edit. Alt+F5 and Shift+Alt+F5 go to the next and previous change.

import { Compartment, EditorSelection, Text } from "@codemirror/state";
import { EditorView } from "@codemirror/view";
import { getChunks, unifiedMergeView } from "@codemirror/merge";
import type { App } from "./app";
import type { Tab } from "./model";
import { fromDisk } from "./text";

/** The slot in every tab's state that holds the inline diff, or nothing. */
export const diffSlot = new Compartment();

const sources: Record<string, string> = { ":": "the index (unstaged changes)", HEAD: "HEAD (all changes)" };

/** What the inline diff compares against, for the bar above the editor. */
export function sourceOf(rev: string): string {
  return sources[rev] ?? rev;
}

function revertButton(type: "accept" | "reject", action: (e: MouseEvent) => void): HTMLElement {
  if (type === "accept") return document.createElement("span");
  const b = document.createElement("button");
  b.type = "button";
  b.name = "reject";
  b.textContent = "Revert";
  b.title = "Put the old lines back (an edit: save to keep it)";
  b.onmousedown = action;
  return b;
}

/** Shows the tab's changes against rev (":" the index, "HEAD") inline. */
export async function showChanges(app: App, tab: Tab, rev = ":"): Promise<void> {
  if (!tab.state) return;
  const was = tab.inlineDiff;
  const r = await app.link.call<{ content: string; exists: boolean }>("editor_git_show", { path: tab.path, rev })
    .catch(() => ({ content: "", exists: false }));
  // Hidden while the index was read.
  if (!tab.state || (was && !tab.inlineDiff)) return;
  const content = r.exists ? r.content : "";
  // Asked again after a git change: nothing to do when the index still
  // holds the same text.
  if (tab.inlineDiff?.rev === rev && tab.inlineDiff.original === content) return;
  const split = fromDisk(content, tab.eol);
  const original = Text.of(split.text.split(split.separator));
  tab.inlineDiff = { rev, original: content };
  app.editor.apply(tab, {
    effects: diffSlot.reconfigure(unifiedMergeView({
      original,
      gutter: false,
      highlightChanges: true,
      syntaxHighlightDeletions: true,
      mergeControls: tab.readOnly ? false : revertButton,
    })),
  });
  app.model.changed("banner", "editor");
}

export function hideChanges(app: App, tab: Tab): void {
  tab.inlineDiff = null;
  app.editor.apply(tab, { effects: diffSlot.reconfigure([]) });
  app.model.changed("banner", "editor");
}

/** The number of changed chunks the inline diff shows. */
export function changeCount(tab: Tab): number {
  return (tab.state && getChunks(tab.state)?.chunks.length) || 0;
}

/** Moves the cursor to a change: the first (0), the next (1) or the
 * previous (-1) from the cursor, wrapping; centred on screen. */
export function goToChange(app: App, tab: Tab, dir: 0 | 1 | -1): boolean {
  const chunks = tab.state && getChunks(tab.state)?.chunks;
  if (!tab.state || !chunks?.length) return false;
  const at = tab.state.selection.main.head;
  const doc = tab.state.doc;
  const starts = chunks.map((c) => Math.min(c.fromB, doc.length));
  let pos = starts[0];
  if (dir === 1) pos = starts.find((p) => doc.lineAt(p).number > doc.lineAt(at).number) ?? starts[0];
  if (dir === -1) pos = [...starts].reverse().find((p) => doc.lineAt(p).number < doc.lineAt(at).number) ?? starts[starts.length - 1];
  app.editor.apply(tab, { selection: EditorSelection.cursor(pos), effects: EditorView.scrollIntoView(pos, { y: "center" }) });
  return true;
}
