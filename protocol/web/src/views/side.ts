// The side bar: a tab list (Files, Search, Git, Activity, Run) over the panel of
// the chosen one. Which one shows is the model's.

import type { App } from "../app";
import { h } from "../dom";
import type { SideView } from "../model";

const views: { id: SideView; label: string; keys: string }[] = [
  { id: "files", label: "Files", keys: "Ctrl+Shift+E" },
  { id: "search", label: "Search", keys: "Ctrl+Shift+F" },
  { id: "git", label: "Git", keys: "Ctrl+Shift+G" },
  { id: "activity", label: "Activity", keys: "Ctrl+Shift+Y" },
  { id: "run", label: "Run", keys: "Ctrl+Shift+B" },
];

export function sideView(parent: HTMLElement, app: App): Record<SideView, HTMLElement> {
  const m = app.model;
  const bar = h("div", { role: "tablist", "aria-label": "Side panels", class: "sidebar" });
  const panels = {} as Record<SideView, HTMLElement>;
  const tabs = new Map<SideView, HTMLElement>();
  for (const v of views) {
    const tab = h("button", {
      type: "button", role: "tab", id: `side-${v.id}`, "aria-controls": `panel-${v.id}`, title: `${v.label} (${v.keys})`,
      onclick: () => show(app, v.id),
    }, v.label);
    tabs.set(v.id, tab);
    bar.append(tab);
    panels[v.id] = h("section", { role: "tabpanel", id: `panel-${v.id}`, "aria-labelledby": `side-${v.id}`, class: "panel" });
  }
  parent.append(bar, h("div", { class: "panels" }, ...Object.values(panels)));
  function render(): void {
    for (const v of views) {
      const on = m.side === v.id;
      tabs.get(v.id)!.setAttribute("aria-selected", String(on));
      tabs.get(v.id)!.tabIndex = on ? 0 : -1;
      panels[v.id].hidden = !on;
    }
  }
  m.on("side", render);
  render();
  bar.addEventListener("keydown", (ev) => {
    const i = views.findIndex((v) => v.id === m.side);
    const j = ev.key === "ArrowRight" ? i + 1 : ev.key === "ArrowLeft" ? i - 1 : -9;
    if (j === -9) return;
    ev.preventDefault();
    show(app, views[(j + views.length) % views.length].id);
    tabs.get(m.side)!.focus();
  });
  return panels;
}

/** Shows a side panel and puts the focus in it. */
export function show(app: App, id: SideView): void {
  app.model.side = id;
  app.model.changed("side");
  // The panel's first field, or the tree's current item.
  queueMicrotask(() => document.querySelector<HTMLElement>(`#panel-${id} [data-autofocus], #panel-${id} [role=tree] [tabindex="0"]`)?.focus());
}

export const shortcuts = views;
