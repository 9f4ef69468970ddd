// A tab follows the file when another writer (an agent, a program on the
// disk) changes it. A tab without unsaved edits takes the new text. A tab
// with unsaved edits keeps them and takes the other change too, rebased
// under them (coedit.ts): when the two do not touch, the change lands in
// place, with a quiet marker on its lines, the person's cursor and undo
// history kept, and no dialog; only when they overlap does the tab keep
// the other text aside (tab.theirs) and ask the person to merge, three
// ways (views/merge3.ts).

import { ChangeSet, Text, Transaction } from "@codemirror/state";
import { diff } from "@codemirror/merge";
import { isolateHistory } from "@codemirror/commands";
import type { App, OpenResult } from "./app";
import { markMerged, pendingOf, rebased, resetBase, unmark } from "./coedit";
import { clearDraft, scheduleDraft } from "./drafts";
import type { ChangeEvent } from "./mcp";
import type { Tab } from "./model";
import { applyPatch } from "./patch";
import { fromDisk, toDisk, version } from "./text";

/** A version of the file as the tab holds it (BOM off, its separator). */
export interface Known {
  text: Text;
  version: string;
}

/** The change from text a to text b, as CodeMirror positions. */
export function changeBetween(a: Text, b: Text): ChangeSet {
  const sa = a.toString();
  const sb = b.toString();
  // Line breaks are "\n" in a Text's string, whatever the file's; a "\r"
  // kept inside a line (a file of mixed endings) is text.
  return ChangeSet.of(diff(sa, sb, { scanLimit: 20000, timeout: 300 }).map((c) => ({ from: c.fromA, to: c.toA, insert: sb.slice(c.fromB, c.toB) })), a.length, "\n");
}

/** Whether two changes of one text touch the same characters (or insert
 * at the same place, where their order would be a guess). */
export function overlaps(a: ChangeSet, b: ChangeSet): boolean {
  const ra: number[] = [];
  const rb: number[] = [];
  a.iterChangedRanges((f, t) => ra.push(f, t));
  b.iterChangedRanges((f, t) => rb.push(f, t));
  for (let i = 0, j = 0; i < ra.length && j < rb.length; ) {
    const [f1, t1, f2, t2] = [ra[i], ra[i + 1], rb[j], rb[j + 1]];
    if ((f1 < t2 && f2 < t1) || (f1 === t1 && f2 === t2 && f1 === f2)) return true;
    if (t1 < t2 || (t1 === t2 && f1 <= f2)) i += 2;
    else j += 2;
  }
  return false;
}

function lines(text: string, separator: string): Text {
  return Text.of(text.split(separator));
}

/** The tab's text of a file's content (its BOM and separator). */
export function textOf(tab: Tab, content: string): Text {
  return lines(fromDisk(content, tab.eol).text, tab.state?.lineBreak ?? "\n");
}

/** The file's content of a tab's text. */
export function contentOf(tab: Tab, text: Text): string {
  return toDisk(text.sliceString(0, text.length, tab.state?.lineBreak ?? "\n"), tab.bom);
}

/** The text after a change event, from the text before it and the event's
 * patch, when that gives exactly the version the event names. */
export function afterPatch(tab: Tab, before: Known, patch: string | undefined, want: string | undefined): Known | null {
  if (!patch || !want) return null;
  const out = applyPatch(contentOf(tab, before.text), patch);
  if (out === null || version(out) !== want || fromDisk(out, tab.eol).bom !== tab.bom) return null;
  return { text: textOf(tab, out), version: want };
}

/** Reads the disk without recording a buffer. */
export async function readDisk(app: App, tab: Tab): Promise<Known | null> {
  const r = await app.link.call<OpenResult>("editor_open", { path: tab.path, tab: false });
  if (r.truncated) return null;
  return { text: textOf(tab, r.content), version: r.version };
}

export type Outcome = "same" | "followed" | "merged" | "overlap";

const unmarks = new WeakMap<Tab, ReturnType<typeof setTimeout>>();

/** Puts theirs (the file as another writer left it) under the tab's text:
 * see the top of this file. */
export function rebaseOnto(app: App, tab: Tab, theirs: Known, by: string): Outcome {
  const m = app.model;
  if (!tab.state || !tab.disk) return "same";
  const base = tab.disk.text;
  const doc = tab.state.doc;
  if (theirs.version === tab.disk.version) return "same";
  const settle = () => {
    tab.disk = theirs;
    tab.over = theirs.version;
    tab.theirs = null;
    tab.remote = null;
  };
  if (doc.eq(base)) {
    // No unsaved edits: the tab shows the new text.
    settle();
    app.editor.apply(tab, { changes: changeBetween(doc, theirs.text), effects: resetBase.of(null), annotations: [Transaction.addToHistory.of(false), Transaction.remote.of(true)] });
    return "followed";
  }
  if (doc.eq(theirs.text)) {
    // They wrote what the person has: nothing left to keep.
    settle();
    app.editor.apply(tab, { effects: resetBase.of(null) });
    void clearDraft(app, tab);
    return "same";
  }
  const mine = pendingOf(tab.state, base) ?? changeBetween(base, doc);
  const change = changeBetween(base, theirs.text);
  if (tab.theirs || overlaps(mine, change)) {
    // Both changed the same text (or a merge is already waiting): the
    // person decides, in the merge view.
    tab.theirs = { ...theirs, by };
    if (!tab.remote || tab.remote.kind === "deleted") tab.remote = { kind: "modified", by, cause: by };
    return "overlap";
  }
  const changes = change.map(mine);
  settle();
  app.editor.apply(tab, {
    changes,
    effects: markMerged(changes),
    // Outside the undo history (undo never takes back their change), and
    // a boundary in it: typing before and after is undone separately.
    annotations: [rebased.of({ theirs: change, mine }), Transaction.addToHistory.of(false), isolateHistory.of("full"), Transaction.remote.of(true)],
  });
  clearTimeout(unmarks.get(tab));
  unmarks.set(tab, setTimeout(() => app.editor.apply(tab, { effects: unmark }), 6000));
  // The draft goes over the new version now (the view's edit hook keeps
  // it for the tab on screen; one in the background is kept here).
  scheduleDraft(app, tab);
  m.say(`Merged ${by}'s change to ${tab.name} into your unsaved edits.`);
  return "merged";
}

const chains = new WeakMap<Tab, Promise<unknown>>();

/** Follows a change event of the tab's file, one at a time per tab, in
 * order. Reports whether the tab's text or its view of the disk moved. */
export function follow(app: App, tab: Tab, ev: ChangeEvent): Promise<boolean> {
  const run = (chains.get(tab) ?? Promise.resolve()).then(() => followNow(app, tab, ev));
  chains.set(tab, run.catch(() => {}));
  return run;
}

/** Follows the disk as it is now (a change the page may have missed). */
export function followDisk(app: App, tab: Tab): Promise<boolean> {
  const run = (chains.get(tab) ?? Promise.resolve()).then(async () => {
    if (!tab.state || !tab.disk || tab.readOnly || tab.saving) return false;
    const next = await readDisk(app, tab);
    if (!next || next.version === tab.disk.version || next.version === tab.theirs?.version) return false;
    const out = rebaseOnto(app, tab, next, "another writer");
    app.model.changed("tabs", "banner", "editor");
    return out !== "same";
  });
  chains.set(tab, run.catch(() => {}));
  return run;
}

async function followNow(app: App, tab: Tab, ev: ChangeEvent): Promise<boolean> {
  if (!tab.state || !tab.disk || tab.readOnly) return false;
  const last = tab.theirs ?? tab.disk;
  if (ev.version && (ev.version === tab.disk.version || ev.version === last.version)) return false;
  // The event's patch over the last text known of the disk, when it gives
  // the event's version; else the disk as it is now.
  const next = (!ev.truncated && afterPatch(tab, last, ev.patch, ev.version)) || (await readDisk(app, tab));
  if (!next || next.version === tab.disk.version || next.version === tab.theirs?.version) return false;
  const by = ev.by && ev.by !== "external" ? ev.by : ev.cause === "external" ? "another program" : (ev.by ?? ev.cause);
  const out = rebaseOnto(app, tab, next, by);
  app.model.changed("tabs", "banner", "editor");
  if (out === "overlap" && app.model.activeTab === tab && !app.dialogs.busy()) app.dialogs.merge(tab);
  return out !== "same";
}
