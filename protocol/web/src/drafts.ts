// Unsaved edits as drafts in the shared record (docs/contract.md §9): kept a moment
// after the person stops typing, cleared when the text is back to the
// disk's. They outlive a reload, a browser crash and a server restart, and
// agents see the buffer as dirty meanwhile.

import type { App, DraftResult } from "./app";
import type { Tab } from "./model";
import { toDisk } from "./text";

const timers = new Map<Tab, ReturnType<typeof setTimeout>>();
const sent = new WeakMap<Tab, unknown>();

/** Schedules keeping (or clearing) the tab's draft. */
export function scheduleDraft(app: App, tab: Tab): void {
  if (tab.readOnly || !tab.state) return;
  clearTimeout(timers.get(tab));
  const big = tab.state.doc.length > 1 << 20;
  timers.set(tab, setTimeout(() => void syncDraft(app, tab), big ? 1000 : 250));
}

/** Keeps or clears the draft now. */
export async function syncDraft(app: App, tab: Tab): Promise<void> {
  clearTimeout(timers.get(tab));
  timers.delete(tab);
  // A tab of the record, or one whose buffer was closed elsewhere (its
  // draft is detached, still kept); not one of another root.
  if (!tab.state || tab.readOnly || !(tab.record || tab.closedElsewhere)) return;
  if (!tab.dirty) {
    if (tab.heldDraft || tab.record?.dirty) await clearDraft(app, tab);
    return;
  }
  const doc = tab.state.doc;
  if (sent.get(tab) === doc && tab.heldDraft) return;
  try {
    await app.link.call<DraftResult>("editor_buffers_draft", {
      path: tab.path,
      content: toDisk(tab.state.sliceDoc(), tab.bom),
      base_version: tab.over || tab.disk?.version || "none",
    });
    sent.set(tab, doc);
    tab.heldDraft = true;
    app.model.done(`draft:${tab.path}`);
  } catch (e) {
    // root_changed: the link re-reads the workspace, and the tab then
    // stays with the root it belongs to.
    app.model.say(`Unsaved edits of ${tab.path} could not be kept as a draft: ${(e as Error).message}`, `draft:${tab.path}`);
  }
}

/** Drops the tab's draft from the record. */
export async function clearDraft(app: App, tab: Tab, force = false): Promise<void> {
  clearTimeout(timers.get(tab));
  timers.delete(tab);
  if (!force && !tab.heldDraft && !tab.record?.dirty) return;
  try {
    await app.link.call<DraftResult>("editor_buffers_draft", { path: tab.path, content: null });
    tab.heldDraft = false;
    sent.delete(tab);
  } catch {
    /* the buffer may be gone; nothing to keep then */
  }
}

/** Sends every pending draft now (the page is going away). */
export function flushDrafts(app: App): void {
  for (const tab of [...timers.keys()]) void syncDraft(app, tab);
}
