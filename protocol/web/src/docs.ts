// Tabs and their text: open, load, save, close, and what happens when the
// file changes elsewhere. Every change to a file goes through editor_save
// guarded by the version the person's edits were made over; a conflict
// opens the merge view, never an overwrite.

import { Text, Transaction, type ChangeSpec, type Extension } from "@codemirror/state";
import type { App, DraftResult, OpenResult, SaveResult } from "./app";
import { makeState, languageSlot } from "./editorstate";
import { language } from "./languages";
import { ToolError, type ChangeEvent } from "./mcp";
import { Tab, type BufferRec, type Entry } from "./model";
import { eolOf, fromDisk, toDisk } from "./text";
import { clearDraft } from "./drafts";
import { refreshHunks } from "./git";
import { readRest } from "./bigfile";
import { resetBase, saveBegins, saveEnds, setPending } from "./coedit";
import { afterPatch, follow, readDisk, rebaseOnto, type Known } from "./rebase";

/** Extensions other features give every tab's editor (intel.ts's code
 * intelligence), registered by main.ts so that this module imports none of
 * them. */
const tabExtensions: ((app: App, tab: Tab) => Extension)[] = [];
export function addTabExtension(f: (app: App, tab: Tab) => Extension): void {
  tabExtensions.push(f);
}

/** Opens a file as a shared tab (editor_open records the buffer) and shows it. */
export async function openFile(app: App, path: string): Promise<void> {
  const m = app.model;
  let tab = m.tabs.get(path);
  if (!tab) {
    tab = new Tab(path);
    m.tabs.set(path, tab);
    m.order.push(path);
  }
  m.active = path;
  m.changed("tabs", "editor", "banner");
  await load(app, tab);
}

/** Makes a tab the active one, loading its text the first time. */
export function activate(app: App, path: string): void {
  const m = app.model;
  const tab = m.tabs.get(path);
  if (!tab) return;
  m.active = path;
  m.changed("tabs", "editor", "banner");
  if (!tab.loaded) void load(app, tab).catch((e) => m.say(String(e.message ?? e), `open:${path}`));
  queueMicrotask(() => app.touched(path, false));
}

function linesOf(text: string, separator: string): Text {
  return Text.of(text.split(separator));
}

/** Reads the file and builds the tab's editor state, over the draft the
 * record keeps for it when there is one. */
export function load(app: App, tab: Tab): Promise<void> {
  if (tab.loaded) return Promise.resolve();
  if (!tab.loading) {
    tab.loading = loadNow(app, tab).finally(() => (tab.loading = null));
  }
  return tab.loading;
}

async function loadNow(app: App, tab: Tab): Promise<void> {
  const m = app.model;
  // A tab the record does not list (closed elsewhere, of another root) is
  // read without recording a buffer: looking must not reopen it.
  const kept = tab.closedElsewhere || !!tab.otherRoot;
  let r: OpenResult;
  let gone = false;
  try {
    r = await app.link.call<OpenResult>("editor_open", kept ? { path: tab.path, tab: false } : { path: tab.path });
  } catch (e) {
    if (!(e instanceof ToolError)) throw e;
    if (!(tab.closedElsewhere && e.code === "not_found")) {
      // Binary, unreadable, gone: the tab says what the file is instead
      // of showing an editor (which would show the last tab's text).
      tab.unreadable = { code: e.code, message: e.message, size: await sizeOf(app, tab.path) };
      m.changed("tabs", "editor", "banner");
      return;
    }
    // The draft of a file deleted since: the edits over nothing.
    gone = true;
    r = { path: tab.path, content: "", language: tab.language, size: 0, mtime: 0, version: "", truncated: false, eol: "lf", start_line: 1, end_line: 0, total_lines: 0, root: "" };
  }
  tab.unreadable = null;
  // Over max_file_bytes: the rest in ranges, as far as max_read_bytes goes.
  const whole = r.truncated ? await readRest(app, tab.path, r) : null;
  if (whole) r = { ...r, content: whole.content, version: whole.version, eol: whole.eol };
  const split = fromDisk(r.content, r.eol);
  tab.bom = split.bom;
  tab.eol = r.eol;
  tab.language = r.language;
  tab.disk = { text: linesOf(split.text, split.separator), version: r.version };
  tab.over = r.version;
  tab.readOnly = !whole
    ? null
    : whole.cut
      ? `${tab.name} is ${r.size.toLocaleString("en")} bytes, over max_file_bytes and max_read_bytes: shown up to the marked cut, read-only, and not shared as a tab.`
      : `${tab.name} is ${r.size.toLocaleString("en")} bytes, over max_file_bytes: shown whole but read-only, and not shared as a tab (editord keeps buffers and drafts up to max_file_bytes).`;
  let doc = tab.disk.text;
  let separator = split.separator;
  // A draft made over an older version whose text the server still holds:
  // it is rebased onto the disk once the editor state is built.
  let restoredOver: Known | null = null;
  let restoredBy = "";
  if (!r.truncated && (tab.record?.dirty || tab.closedElsewhere)) {
    const d = await app.link.call<DraftResult>("editor_buffers_draft", { path: tab.path, read: true }).catch(() => null);
    if (d?.content !== undefined && d.content !== null) {
      if (gone) {
        const eol = eolOf(d.content);
        separator = eol === "crlf" ? "\r\n" : "\n";
        tab.eol = eol;
        tab.disk = { text: linesOf("", separator), version: "" };
      }
      const draft = fromDisk(d.content, tab.eol);
      tab.bom ||= draft.bom;
      doc = linesOf(draft.text, separator);
      tab.over = d.draft_base ?? r.version;
      tab.heldDraft = true;
      if (gone) {
        // Nothing to guard against: the save creates the file again.
        tab.over = "";
        tab.remote = { kind: "deleted", by: "", cause: "deleted" };
      } else if (doc.eq(tab.disk.text)) {
        // The disk holds the draft's text by now (it was saved by other
        // means): nothing left to keep or merge.
        tab.over = r.version;
        void clearDraft(app, tab, true);
      } else if (tab.over !== r.version) {
        tab.remote = { kind: "restored", by: d.by ?? "an earlier session", cause: "draft" };
        const base = d.base_content != null ? fromDisk(d.base_content, tab.eol) : null;
        if (base && base.bom === tab.bom) {
          restoredOver = { text: linesOf(base.text, separator), version: tab.over };
          restoredBy = "the file on disk";
        }
      }
    } else if (gone) {
      throw new ToolError("not_found", `${tab.path} is gone, and so is its draft.`, tab.path);
    }
  }
  const lang = await language(r.language);
  tab.inlineDiff = null;
  tab.state = makeState(doc, separator, {
    readOnly: r.truncated,
    cut: whole?.cut ?? undefined,
    language: lang,
    hooks: { save: () => void save(app, tab) },
    clean: doc === tab.disk.text,
    extra: tabExtensions.map((f) => f(app, tab)),
  });
  if (restoredOver) {
    // The draft's edits are over restoredOver; the disk has moved on since.
    const now = tab.disk;
    tab.disk = restoredOver;
    if (rebaseOnto(app, tab, now, restoredBy) === "overlap") tab.remote = { kind: "restored", by: tab.remote?.by ?? "an earlier session", cause: "draft" };
  }
  m.changed("tabs", "editor", "banner", "cursor");
  m.done(`open:${tab.path}`);
  void refreshHunks(app, tab);
}

/** Saves the tab's text over the version its edits were made over. */
export type SaveOutcome = "saved" | "conflict" | "failed";

export async function save(app: App, tab: Tab, opts: { force?: boolean } = {}): Promise<SaveOutcome> {
  const m = app.model;
  if (!tab.state || tab.saving) return "failed";
  if (tab.readOnly) {
    m.say(tab.readOnly, `save:${tab.path}`);
    return "failed";
  }
  const doc = tab.state.doc;
  // sliceDoc joins lines with the state's separator (CRLF for a CRLF
  // file); Text.toString would always use "\n".
  const content = toDisk(tab.state.sliceDoc(), tab.bom);
  const args: Record<string, unknown> = { path: tab.path, content };
  if (opts.force) args.force = true;
  else if (tab.over) args.expected_version = tab.over;
  tab.saving = true;
  m.changed("tabs");
  // What the person types while the save is in flight is kept apart, to
  // be over the saved text once it is the disk's (coedit.ts).
  app.editor.apply(tab, { effects: saveBegins.of(null) });
  let r: SaveResult;
  try {
    r = await app.link.call<SaveResult>("editor_save", args);
  } catch (e) {
    app.editor.apply(tab, { effects: saveEnds.of(false) });
    if (e instanceof ToolError && e.code === "not_found") {
      // Deleted since: the next save creates it again, unguarded (nothing
      // is there to overwrite; if something appears first, that save is a
      // conflict).
      tab.over = "";
      tab.remote = { kind: "deleted", by: tab.remote?.by ?? "someone", cause: "deleted" };
      m.changed("banner");
    }
    m.say(`Not saved: ${(e as Error).message}`, `save:${tab.path}`);
    return "failed";
  } finally {
    tab.saving = false;
    m.changed("tabs");
    // Events that came while the save was in flight: the echo of this save
    // is recognized by its version now, the others are handled as usual.
    const held = tab.heldEvents.splice(0);
    queueMicrotask(() => held.forEach((ev) => void changed(app, ev).then((moved) => {
      if (moved) return refreshHunks(app, tab);
    })));
  }
  if (r.conflict) {
    app.editor.apply(tab, { effects: saveEnds.of(false) });
    const now = await readDisk(app, tab).catch(() => null);
    if (now) tab.theirs = { ...now, by: tab.theirs?.by ?? tab.remote?.by ?? "another writer" };
    m.say(`${tab.name} changed on disk since your edits: merge, then save.`, `save:${tab.path}`);
    app.dialogs.merge(tab);
    return "conflict";
  }
  tab.remote = null;
  tab.theirs = null;
  tab.closedElsewhere = false;
  if (r.merged) {
    // The server merged the text with a change made meanwhile: the tab
    // takes that change as it would an agent's (rebase.ts).
    tab.disk = { text: doc, version: "" };
    tab.over = "";
    app.editor.apply(tab, { effects: saveEnds.of(true) });
    const landed = afterPatch(tab, tab.disk, r.merged_patch, r.version) ?? (await readDisk(app, tab).catch(() => null));
    if (landed) rebaseOnto(app, tab, landed, "a change made meanwhile");
  } else {
    tab.disk = { text: doc, version: r.version };
    tab.over = r.version;
    app.editor.apply(tab, { effects: saveEnds.of(true) });
  }
  m.say(`Saved ${tab.path}`, `saved:${tab.path}`);
  if (tab.otherRoot) {
    // Written where the edits were made. A save records its file as a
    // buffer of the active root (by its absolute path), so the tab is a
    // shared one now, whichever of this reply and the record's update
    // comes first; the old root's draft is dropped when that root's
    // record is read again and finds the disk holding it.
    tab.otherRoot = null;
    m.changed("tabs", "banner");
    void refreshHunks(app, tab);
    return "saved";
  }
  m.changed("tabs", "banner");
  void refreshHunks(app, tab);
  if (!tab.dirty) await clearDraft(app, tab);
  return "saved";
}

/** A minimal change from a to b: common prefix and suffix kept, so the
 * cursor and scroll position map through a reload. */
export function diffChange(a: Text, b: Text): ChangeSpec | null {
  const sa = a.toString();
  const sb = b.toString();
  if (sa === sb) return null;
  let start = 0;
  const min = Math.min(sa.length, sb.length);
  while (start < min && sa.charCodeAt(start) === sb.charCodeAt(start)) start++;
  let ea = sa.length;
  let eb = sb.length;
  while (ea > start && eb > start && sa.charCodeAt(ea - 1) === sb.charCodeAt(eb - 1)) {
    ea--;
    eb--;
  }
  return { from: start, to: ea, insert: sb.slice(start, eb) };
}

/** Puts text into a tab as one transaction outside the undo history of
 * the person's own edits. */
export function replaceDoc(app: App, tab: Tab, text: Text, addToHistory = false): void {
  if (!tab.state) return;
  const change = diffChange(tab.state.doc, text);
  if (!change) return;
  app.editor.apply(tab, {
    changes: change,
    // The person's changes are over the disk's text: none when this is it.
    effects: tab.disk && text.eq(tab.disk.text) ? resetBase.of(null) : setPending.of(null),
    annotations: addToHistory ? [] : [noHistory.of(false)],
  });
}

const noHistory = Transaction.addToHistory;

/** A change event from the journal: a clean tab follows it in place; a
 * tab with unsaved edits keeps them and says who changed the file. Reports
 * whether the tab's view of the disk changed (its gutter wants a refresh). */
export async function changed(app: App, ev: ChangeEvent): Promise<boolean> {
  const m = app.model;
  if (ev.root !== m.root) return false;
  if (ev.kind === "moved" && ev.from) {
    renameTab(app, ev.from, ev.path);
    return false;
  }
  if (ev.kind === "deleted") {
    // A folder's delete is one event: every tab beneath it is gone too.
    for (const tab of m.tabs.values()) {
      if (tab.path !== ev.path && !tab.path.startsWith(ev.path + "/")) continue;
      if (tab.saving) {
        tab.heldEvents.push(ev);
        continue;
      }
      tab.remote = { kind: "deleted", by: ev.by ?? ev.cause, cause: ev.cause };
      tab.over = "";
    }
    m.changed("banner", "tabs");
    return false;
  }
  const tab = m.tabs.get(ev.path);
  if (!tab || !tab.loaded || tab.readOnly) return false;
  if (tab.saving) {
    tab.heldEvents.push(ev);
    return false;
  }
  // The echo of a save of ours, or a version the tab already holds.
  if (ev.version && ev.version === tab.disk?.version) return false;
  return follow(app, tab, ev);
}

function renameTab(app: App, from: string, to: string): void {
  const m = app.model;
  const moved: [string, Tab][] = [];
  for (const [p, tab] of m.tabs) {
    if (p === from || p.startsWith(from + "/")) moved.push([p, tab]);
  }
  for (const [p, tab] of moved) {
    const np = to + p.slice(from.length);
    m.tabs.delete(p);
    tab.path = np;
    m.tabs.set(np, tab);
    m.order = m.order.map((x) => (x === p ? np : x));
    if (m.active === p) m.active = np;
  }
  if (moved.length) m.changed("tabs", "editor", "banner");
}

/** Take theirs: the disk's text replaces the person's edits. */
export async function takeTheirs(app: App, tab: Tab): Promise<void> {
  const theirs = tab.theirs ?? (await readDisk(app, tab).catch(() => null));
  if (!theirs) return;
  tab.disk = { text: theirs.text, version: theirs.version };
  tab.theirs = null;
  replaceDoc(app, tab, tab.disk.text, true);
  tab.over = tab.disk.version;
  tab.remote = null;
  app.model.changed("tabs", "banner");
  void refreshHunks(app, tab);
  await clearDraft(app, tab);
}

/** Keep mine: the person's text stays and will replace the disk's on the
 * next save (a deliberate, labelled choice). */
export function keepMine(app: App, tab: Tab): void {
  if (tab.theirs) tab.disk = { text: tab.theirs.text, version: tab.theirs.version };
  if (tab.disk) tab.over = tab.disk.version;
  tab.theirs = null;
  tab.remote = null;
  // The person's text is now over theirs; what differs is found when needed.
  app.editor.apply(tab, { effects: setPending.of(null) });
  app.model.changed("tabs", "banner");
  void refreshHunks(app, tab);
}

/** The merge view's result: the merged text becomes the tab's and is
 * saved over the disk version the merge was made against. */
export async function saveMerged(app: App, tab: Tab, merged: Text, against: Known, force: boolean): Promise<SaveOutcome> {
  if (!tab.state) return "failed";
  tab.disk = { text: against.text, version: against.version };
  tab.over = against.version;
  tab.theirs = null;
  tab.remote = null;
  replaceDoc(app, tab, merged, true);
  return save(app, tab, { force });
}

/** Closes a tab for every surface; unsaved edits are confirmed first. */
export async function closeTab(app: App, tab: Tab): Promise<void> {
  const why = tab.otherRoot
    ? `${tab.path} has unsaved edits. Closing discards them here; the draft kept with ${tab.otherRoot} stays there, and comes back when it is the workspace root again.`
    : `${tab.path} has unsaved edits. Closing discards them.`;
  if (tab.dirty && !(await app.dialogs.confirm(`Close ${tab.name}?`, why, "Discard and close"))) {
    return;
  }
  if (tab.otherRoot) {
    // Its draft is another root's: out of this session's reach.
    dropTab(app, tab.path);
    return;
  }
  if (tab.heldDraft || tab.record?.dirty || tab.closedElsewhere) await clearDraft(app, tab, true);
  if (tab.record) {
    await app.link.call("editor_buffers_close", { path: tab.path });
  }
  dropTab(app, tab.path);
}

export function dropTab(app: App, path: string): void {
  const m = app.model;
  const i = m.order.indexOf(path);
  m.tabs.delete(path);
  m.order = m.order.filter((p) => p !== path);
  if (m.active === path) {
    m.active = m.order[Math.min(i, m.order.length - 1)] ?? null;
    const next = m.activeTab;
    if (next && !next.loaded) void load(app, next);
  }
  m.changed("tabs", "editor", "banner");
}

/** Applies a new language to a loaded tab (after a rename). */
export async function relanguage(app: App, tab: Tab, rec: BufferRec): Promise<void> {
  if (!tab.state || rec.language === tab.language) return;
  tab.language = rec.language;
  const ext = await language(rec.language);
  app.editor.apply(tab, { effects: languageSlot.reconfigure(ext) });
}

/** The file's size from the tree's listing of its folder (read when the
 * folder is not listed); null when it cannot be told. */
async function sizeOf(app: App, path: string): Promise<number | null> {
  const i = path.lastIndexOf("/");
  const dir = i < 0 ? "" : path.slice(0, i);
  const find = (entries: Entry[] | undefined) => entries?.find((e) => e.path === path)?.size ?? null;
  const known = find(app.model.children.get(dir));
  if (known !== null) return known;
  try {
    const r = await app.link.call<{ entries: Entry[] }>("editor_tree", dir ? { path: dir, max_depth: 1, max_entries: 10000 } : { max_depth: 1, max_entries: 10000 });
    return find(r.entries);
  } catch {
    return null;
  }
}
