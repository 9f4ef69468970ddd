// Split editors (Ctrl+\), as VS Code's second editor group: a tab strip
// and an editor beside the main ones. Its tabs are this page's own picks
// among the shared tabs (closing one here closes it here only); a file
// open in both groups is one text: each group has its own view of the tab
// (cursor, scroll, its own undo of what was typed there), and every change
// made in one reaches the other as a transaction at once, so the tab's
// draft, save and merge see one text.
//
// The tab's state (Tab.state, shown by the main group's EditorHost) stays
// the one the rest of the page reads; this group keeps a mirror of it per
// tab: its edits are applied to the tab's state, and the tab's other
// transactions (typing in the main group, an agent's change, the gutter's
// hunks, a language or wrap switch) to the mirror.

import { Annotation, Transaction, type EditorState, type StateEffect, type StateEffectType, type TransactionSpec } from "@codemirror/state";
import { EditorView } from "@codemirror/view";
import type { App } from "../app";
import { h } from "../dom";
import { activate, load } from "../docs";
import { scheduleDraft } from "../drafts";
import { languageSlot } from "../editorstate";
import { setHunks } from "../gutter";
import { fileIcon } from "../icons";
import { diffSlot } from "../inlinediff";
import type { Tab } from "../model";
import { wrapSlot } from "../wrap";
import { addCommand } from "../commands";

/** Marks a transaction passed from one group's state to the other's. */
const passed = Annotation.define<boolean>();

interface Group {
  tabs: Tab[];
  active: Tab | null;
}

let group: Group | null = null;
let focused = false;
const mirrors = new WeakMap<Tab, EditorState>();
const scrolls = new WeakMap<Tab, StateEffect<unknown>>();

/** The tab the person is working in: the split group's when the focus is
 * there, else the main group's active tab. */
export function focusedTab(app: App): Tab | undefined {
  return (focused && group?.active) || app.model.activeTab;
}

/** The tabs on screen: the main group's active tab and the right group's. */
export function shownTabs(app: App): Tab[] {
  const out: Tab[] = [];
  for (const t of [app.model.activeTab, group?.active]) if (t && !out.includes(t)) out.push(t);
  return out;
}

/** The editor state of the focused group (for the status bar's cursor). */
export function focusedState(app: App): EditorState | null {
  if (focused && group?.active) return mirrors.get(group.active) ?? null;
  return app.model.activeTab?.state ?? null;
}

export function splitView(main: HTMLElement, app: App): void {
  const m = app.model;
  const list = h("div", { role: "tablist", "aria-label": "Open files, right", class: "tabs tabs2" });
  const pane = h("div", { class: "pane", id: "split-pane", role: "tabpanel" });
  const box = h("div", { class: "group group2", hidden: true }, h("div", { class: "tabbar" }, list), pane);
  main.append(box);
  let shown: Tab | null = null;
  const view = new EditorView({
    parent: pane,
    dispatchTransactions: (trs, v) => {
      v.update(trs);
      const tab = shown;
      if (!tab || !tab.state) return;
      mirrors.set(tab, v.state);
      // What was typed here goes to the tab's own state (with its undo
      // history there too, so the main group's undo sees one text).
      let edited = false;
      for (const tr of trs) {
        if (!tr.docChanged || tr.annotation(passed)) continue;
        const ev = tr.annotation(Transaction.userEvent);
        app.editor.apply(tab, { changes: tr.changes, annotations: ev ? [passed.of(true), Transaction.userEvent.of(ev)] : [passed.of(true)] });
        edited = true;
      }
      if (edited) {
        scheduleDraft(app, tab);
        m.changed("tabs");
      }
      if (trs.some((t) => t.docChanged || t.selection)) m.changed("cursor");
    },
  });
  box.addEventListener("focusin", () => {
    focused = true;
    m.changed("cursor");
  });
  document.querySelector(".group")?.addEventListener("focusin", () => {
    focused = false;
    m.changed("cursor");
  });

  // The tab's other transactions reach its mirror.
  app.editor.watch((tab, trs) => {
    let mirror = mirrors.get(tab);
    if (!mirror) return;
    for (const tr of trs) {
      if (tr.annotation(passed)) continue;
      const effects: StateEffect<unknown>[] = tr.effects.filter((e) => mirrored.some((type) => e.is(type)));
      if (tr.reconfigured) {
        for (const slot of [languageSlot, diffSlot, wrapSlot]) {
          const ext = slot.get(tr.state);
          if (ext !== undefined) effects.push(slot.reconfigure(ext));
        }
      }
      if (!tr.docChanged && !effects.length) continue;
      const spec: TransactionSpec = {
        changes: tr.docChanged ? tr.changes : undefined,
        effects,
        annotations: [passed.of(true), Transaction.addToHistory.of(false)],
      };
      if (shown === tab && view.state === mirror) {
        view.dispatch(spec);
        mirror = view.state;
      } else {
        mirror = mirror.update(spec).state;
        mirrors.set(tab, mirror);
      }
    }
  });

  function render(): void {
    const g = group;
    if (g) {
      const open = new Set(m.tabs.values());
      g.tabs = g.tabs.filter((t) => open.has(t));
      if (g.active && !g.tabs.includes(g.active)) g.active = g.tabs[g.tabs.length - 1] ?? null;
      if (!g.tabs.length) {
        group = null;
        focused = false;
      }
    }
    box.hidden = !group;
    main.classList.toggle("split", !!group);
    if (shown && mirrors.get(shown) === view.state) scrolls.set(shown, view.scrollSnapshot());
    list.replaceChildren();
    if (!group) {
      shown = null;
      return;
    }
    for (const tab of group.tabs) {
      const on = tab === group.active;
      const el = h("div", {
        role: "tab", "aria-selected": String(on), tabindex: on ? 0 : -1, title: tab.path, "data-path": tab.path,
        onclick: () => showIn(app, tab),
        onauxclick: (ev: MouseEvent) => ev.button === 1 && closeIn(app, tab),
      }, fileIcon(tab.name), h("span", { class: "name" }, tab.name), tab.dirty ? h("span", { class: "mark", "aria-hidden": "true" }, "●") : null);
      const close = h("button", { type: "button", class: "close", tabindex: -1, "aria-label": `Close ${tab.name} on the right`, title: `Close ${tab.path} here (it stays open on the left)`, onclick: () => closeIn(app, tab) }, "×");
      list.append(h("div", { class: `tab ${on ? "active" : ""}`, role: "presentation" }, el, close));
    }
    const tab = group.active;
    const state = tab ? mirrors.get(tab) : undefined;
    if (tab && state && (shown !== tab || view.state !== state)) {
      shown = tab;
      view.setState(state);
      const snap = scrolls.get(tab);
      if (snap) view.dispatch({ effects: snap });
    }
  }
  m.on("tabs", render);
  m.on("editor", render);
  rerender = render;
  focusSplit = () => view.focus();
  shownIn = (v) => (v === view ? shown : null);

  addCommand({
    id: "view.split", title: "View: Split editor", keys: ["Ctrl+\\"], when: () => !!m.activeTab,
    // From the main group: its tab opens on the right too. From the right:
    // its tab becomes the main group's.
    run: async () => {
      if (focused && group?.active) {
        activate(app, group.active.path);
        focused = false;
        queueMicrotask(() => app.editor.focus());
        return;
      }
      const tab = m.activeTab;
      if (tab) await showIn(app, tab);
    },
  });
  addCommand({ id: "view.closeSplit", title: "View: Close the right editor group", when: () => !!group, run: () => closeGroup(app) });
  addCommand({ id: "view.focusSplit", title: "View: Focus the right editor group", when: () => !!group, run: () => view.focus() });
  addCommand({ id: "view.focusMain", title: "View: Focus the main editor group", run: () => app.editor.focus() });
}

let rerender: () => void = () => {};
let focusSplit: () => void = () => {};
let shownIn: (view: EditorView) => Tab | null = () => null;

/** Effects on a tab's state that its mirror on the right takes too: the
 * gutter's hunks, and what a feature adds with mirrorEffect (intel.ts: the
 * problems underlined). */
const mirrored: StateEffectType<unknown>[] = [setHunks];

export function mirrorEffect<T>(type: StateEffectType<T>): void {
  mirrored.push(type as StateEffectType<unknown>);
}

/** The tab an editor view shows: the main group's or the right group's
 * (whose state is a mirror of the tab's, not the tab's own). */
export function tabOf(app: App, view: EditorView): Tab | null {
  return view === app.editor.view ? app.editor.tab : shownIn(view);
}

/** Shows a tab in the right group (splitting the editor if needed) and
 * puts the focus there. */
export async function showIn(app: App, tab: Tab): Promise<void> {
  await load(app, tab);
  if (!tab.state) return;
  if (!mirrors.has(tab)) mirrors.set(tab, tab.state);
  group ??= { tabs: [], active: null };
  if (!group.tabs.includes(tab)) group.tabs.push(tab);
  group.active = tab;
  focused = true;
  rerender();
  app.model.changed("cursor");
  queueMicrotask(focusSplit);
}

function closeIn(app: App, tab: Tab): void {
  if (!group) return;
  group.tabs = group.tabs.filter((t) => t !== tab);
  mirrors.delete(tab);
  rerender();
  if (!group) app.editor.focus();
}

function closeGroup(app: App): void {
  for (const t of group?.tabs ?? []) mirrors.delete(t);
  group = null;
  focused = false;
  rerender();
  app.editor.focus();
}
