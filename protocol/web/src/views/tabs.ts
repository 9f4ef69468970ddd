// The tabs (role=tablist): the shared buffers in their order, each named
// by its file name, with a dirty marker and a close button.

import type { App } from "../app";
import { h } from "../dom";
import { activate, closeTab } from "../docs";
import type { Tab } from "../model";
import { recentlyByAgents } from "../activity";
import { fileIcon } from "../icons";
import { unreviewedNote } from "../turns";

function stateOf(tab: Tab, recent: Set<string>, review: string | null): { cls: string; mark: string; why: string } {
  if (tab.otherRoot) return { cls: "detached", mark: "●", why: `in ${tab.otherRoot}, no longer the workspace root; unsaved edits kept here` };
  if (tab.remote?.kind === "deleted" && (tab.dirty || tab.closedElsewhere)) return { cls: "detached", mark: "●", why: "deleted on disk; unsaved edits kept here" };
  if (tab.closedElsewhere) return { cls: "detached", mark: "●", why: "closed elsewhere; unsaved edits kept here" };
  if (tab.remote) return { cls: "dirty remote", mark: "●", why: "changed on disk while you edit" };
  if (tab.dirty) return { cls: "dirty", mark: "●", why: "unsaved edits" };
  if (tab.dirtyElsewhere) return { cls: "elsewhere", mark: "◌", why: "unsaved edits in another editor" };
  if (recent.has(tab.path)) return { cls: review ? "recent review" : "recent", mark: "◆", why: "changed by an agent in the last minute" };
  if (review) return { cls: "review", mark: "◇", why: review };
  if (tab.readOnly) return { cls: "readonly", mark: "", why: "read-only" };
  if (tab.unreadable) return { cls: "unreadable", mark: "", why: tab.unreadable.code === "binary" ? "binary, not shown" : "cannot be opened" };
  return { cls: "", mark: "", why: "" };
}

export function tabsView(parent: HTMLElement, app: App): void {
  const m = app.model;
  const list = h("div", { role: "tablist", "aria-label": "Open files", class: "tabs" });
  parent.append(list);

  let shown = "";
  function render(): void {
    // Typing changes a tab's dirty state at most; rebuild only when what
    // the tabs show changed.
    const recent = recentlyByAgents(app);
    const key = JSON.stringify([m.active, m.order.map((p) => {
      const tab = m.tabs.get(p);
      const st = tab && stateOf(tab, recent, unreviewedNote(app, p));
      return st ? [p, st.cls, st.why] : p;
    })]);
    if (key === shown) return;
    shown = key;
    const hadFocus = list.contains(document.activeElement);
    list.replaceChildren();
    m.order.forEach((path, i) => {
      const tab = m.tabs.get(path);
      if (!tab) return;
      const on = m.active === path;
      const st = stateOf(tab, recent, unreviewedNote(app, path));
      const el = h(
        "div",
        {
          role: "tab",
          id: `tab-${i}`,
          "aria-selected": String(on),
          "aria-controls": "editor-pane",
          tabindex: on ? 0 : -1,
          title: st.why ? `${path} (${st.why})` : path,
          "data-path": path,
          onclick: () => activate(app, path),
          onauxclick: (ev: MouseEvent) => ev.button === 1 && void closeTab(app, tab),
        },
        fileIcon(tab.name),
        h("span", { class: "name" }, tab.name),
        st.mark ? h("span", { class: "mark", "aria-hidden": "true" }, st.mark) : null,
      );
      const close = h("button", { type: "button", class: "close", tabindex: -1, "aria-label": `Close ${tab.name}`, title: `Close ${path}`, onclick: () => void closeTab(app, tab).catch((e) => m.say(String(e.message ?? e))) }, "×");
      list.append(h("div", { class: `tab ${st.cls} ${on ? "active" : ""}`, role: "presentation" }, el, close));
    });
    if (hadFocus) list.querySelector<HTMLElement>('[role=tab][aria-selected="true"]')?.focus();
  }
  m.on("tabs", render);
  // "In the last minute" runs out without an event.
  setInterval(() => m.changed("tabs"), 10_000);

  list.addEventListener("keydown", (ev) => {
    const tabs = [...list.querySelectorAll<HTMLElement>("[role=tab]")];
    const i = tabs.indexOf(document.activeElement as HTMLElement);
    if (i < 0) return;
    let j = -1;
    if (ev.key === "ArrowRight") j = (i + 1) % tabs.length;
    else if (ev.key === "ArrowLeft") j = (i - 1 + tabs.length) % tabs.length;
    else if (ev.key === "Home") j = 0;
    else if (ev.key === "End") j = tabs.length - 1;
    else if (ev.key === "Delete") {
      const tab = m.tabs.get(tabs[i].dataset.path!);
      if (tab) void closeTab(app, tab);
      ev.preventDefault();
      return;
    }
    if (j < 0) return;
    ev.preventDefault();
    activate(app, tabs[j].dataset.path!);
    queueMicrotask(() => list.querySelector<HTMLElement>('[role=tab][aria-selected="true"]')?.focus());
  });
}
