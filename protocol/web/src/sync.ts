// The shared record, mirrored: the root, the buffers (tabs, in their
// order) and the expanded folders. Read whole with editor_workspace_get
// when it changes (resources/updated for editor://workspace) and after a
// reconnect; the tabs and the tree follow it.

import type { App } from "./app";
import { dropTab, load, relanguage } from "./docs";
import { followDisk } from "./rebase";
import { Tab } from "./model";
import { refreshGitSoon } from "./git";
import type { TreeResult, WorkspaceGetResult as WorkspaceView } from "./wire";
import { restoreCursor, restoredActive } from "./restore";


let inflight: Promise<void> | null = null;
let again = false;

/** Re-reads the record; calls that come while one runs fold into one more. */
export function resync(app: App): Promise<void> {
  if (inflight) {
    again = true;
    return inflight;
  }
  inflight = (async () => {
    do {
      again = false;
      const v = await app.link.call<WorkspaceView>("editor_workspace_get");
      await apply(app, v);
    } while (again);
  })().finally(() => (inflight = null));
  return inflight;
}

async function apply(app: App, v: WorkspaceView): Promise<void> {
  const m = app.model;
  const rootChanged = m.root !== v.root;
  if (rootChanged) {
    switchRoot(app, m.root, v.root);
    refreshGitSoon(app);
  }
  const listed = new Set(v.buffers.map((b) => b.path));
  const detached = new Map((v.detached ?? []).map((b) => [b.path, b]));
  // Tabs the record no longer lists: gone, unless they hold unsaved edits
  // (the record keeps those as a detached draft).
  for (const [p, tab] of [...m.tabs]) {
    if (listed.has(p) || tab.otherRoot) continue;
    if (tab.dirty || (detached.has(p) && !tab.loaded)) {
      tab.record = null;
      tab.closedElsewhere = true;
    } else if (tab.record || tab.closedElsewhere) {
      dropTab(app, p);
    }
  }
  // Detached drafts this page has no tab for (it was reloaded since, or
  // another window held them): a tab each, to save or discard.
  for (const p of detached.keys()) {
    if (m.tabs.has(p) || listed.has(p)) continue;
    const tab = new Tab(p);
    tab.closedElsewhere = true;
    tab.language = detached.get(p)!.language;
    m.tabs.set(p, tab);
  }
  const reloads: Tab[] = [];
  for (const b of v.buffers) {
    let tab = m.tabs.get(b.path);
    if (!tab) {
      tab = new Tab(b.path);
      tab.language = b.language;
      m.tabs.set(b.path, tab);
    }
    if (tab.record && tab.record.language !== b.language) void relanguage(app, tab, b);
    tab.record = b;
    tab.closedElsewhere = false;
    tab.otherRoot = null;
    // A version we have not seen, on a tab without edits (an event missed
    // while disconnected): read it again.
    if (tab.loaded && !tab.saving && tab.disk && b.version !== tab.disk.version && !tab.dirty) reloads.push(tab);
  }
  // Record order, with this page's own tabs (not in the record) kept after
  // the shared tab they followed.
  const order: string[] = [];
  for (const p of m.order) if (!listed.has(p) && m.tabs.has(p) && !m.tabs.get(p)!.record) order.push(p);
  for (const p of m.tabs.keys()) if (!listed.has(p) && !order.includes(p)) order.push(p);
  m.order = [...v.buffers.map((b) => b.path), ...order];
  const first = m.active === null;
  if (m.active === null || !m.tabs.has(m.active)) m.active = (first && restoredActive(app, v.focus)) || (m.order[0] ?? null);
  const act = m.activeTab;
  if (act && !act.loaded) {
    void load(app, act)
      .then(() => first && restoreCursor(app, v.focus))
      .catch((e) => m.say(String(e.message ?? e), `open:${act.path}`));
  }
  // Expanded folders: list the new ones, forget the collapsed ones.
  const was = m.expanded;
  m.expanded = new Set(v.expanded);
  const lists: Promise<void>[] = [];
  if (rootChanged || !m.children.has("")) lists.push(list(app, ""));
  for (const p of m.expanded) if (!was.has(p) || !m.children.has(p)) lists.push(list(app, p));
  for (const p of was) if (!m.expanded.has(p)) m.children.delete(p);
  m.changed("tabs", "tree", "editor", "banner");
  await Promise.all(lists);
  // Followed like a change event, in turn with them (rebase.ts): the
  // person may type meanwhile.
  await Promise.all(reloads.map((tab) => followDisk(app, tab).catch(() => false)));
}

/** Lists one folder's children ("" is the root). */
export async function list(app: App, path: string): Promise<void> {
  const m = app.model;
  try {
    const r = await app.link.call<TreeResult>("editor_tree", path ? { path, max_depth: 1 } : { max_depth: 1 });
    m.children.set(path, r.entries);
  } catch {
    m.children.delete(path);
  }
  m.changed("tree");
}

/** Re-lists the folder holding path, when it is shown. */
export function relistParent(app: App, path: string): void {
  const i = path.lastIndexOf("/");
  const parent = i < 0 ? "" : path.slice(0, i);
  if (app.model.children.has(parent)) void list(app, parent);
}

/** Another surface made another folder the workspace root. The old root's
 * tabs go, except those with unsaved edits: they stay, under their
 * absolute paths (a save writes where the edits were made; their drafts
 * stay in the old root's record), until saved or discarded. Tabs kept so
 * from the new root, when it is one they came from, come back as its
 * own. */
function switchRoot(app: App, from: string, to: string): void {
  const m = app.model;
  m.root = to;
  m.children.clear();
  const rekey = (tab: Tab, path: string) => {
    const was = tab.path;
    m.tabs.delete(was);
    tab.path = path;
    m.tabs.set(path, tab);
    m.order = m.order.map((p) => (p === was ? path : p));
    if (m.active === was) m.active = path;
  };
  for (const tab of [...m.tabs.values()]) {
    if (tab.otherRoot === to) {
      rekey(tab, tab.path.slice(to.length + 1));
      tab.otherRoot = null;
    } else if (tab.otherRoot) {
      continue;
    } else if (from && tab.dirty) {
      if (!tab.path.startsWith("/")) rekey(tab, `${from}/${tab.path}`);
      tab.otherRoot = from;
      tab.record = null;
      tab.closedElsewhere = false;
      tab.remote = null;
    } else {
      m.tabs.delete(tab.path);
    }
  }
  m.order = m.order.filter((p) => m.tabs.has(p));
  if (m.active !== null && !m.tabs.has(m.active)) m.active = null;
}
