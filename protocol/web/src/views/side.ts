// The activity bar and the side bar, as VS Code lays them out: a column of
// icons (role=tablist), one per view, and beside it the chosen view's
// panel. Clicking the shown view's icon, or Ctrl+B, hides the side bar.
// Views come from a registry; a feature adds its own in one line:
//
//   addSideView({ id: "review", label: "Review", icon: icons.review, keys: "Ctrl+Shift+R", build: reviewPanel });
//
// Each view gets a panel (section#panel-<id>), built when it is added, and
// a command to show it (View: <label>) with its shortcut.

import type { App } from "../app";
import { h } from "../dom";
import { addCommand } from "../commands";
import { icon, icons } from "../icons";

export interface SideViewDef {
  id: string;
  label: string;
  /** Line drawings for the activity bar (icons.ts). */
  icon: string[];
  /** The shortcut that shows it ("Ctrl+Shift+E"). */
  keys?: string;
  /** Fills the view's panel, once. */
  build?(panel: HTMLElement, app: App): void;
}

const defs: SideViewDef[] = [
  { id: "files", label: "Files", icon: icons.files, keys: "Ctrl+Shift+E" },
  { id: "search", label: "Search", icon: icons.search, keys: "Ctrl+Shift+F" },
  { id: "git", label: "Git", icon: icons.git, keys: "Ctrl+Shift+G" },
  { id: "activity", label: "Activity", icon: icons.activity, keys: "Ctrl+Shift+Y" },
];

let mount: ((d: SideViewDef) => void) | null = null;

/** Adds a view to the activity bar and the side bar. */
export function addSideView(def: SideViewDef): void {
  if (defs.some((d) => d.id === def.id)) return;
  defs.push(def);
  mount?.(def);
}

/** Builds the activity bar into bar and the panels into side; returns the
 * panels by view id (the built-in views are filled by their modules). */
export function sideView(side: HTMLElement, app: App, bar: HTMLElement = side): Record<string, HTMLElement> {
  const m = app.model;
  const list = h("div", { role: "tablist", "aria-label": "Side bar views", "aria-orientation": "vertical", class: "activitybar-views" });
  bar.append(list);
  const panelsBox = h("div", { class: "panels" });
  side.append(panelsBox);
  const panels: Record<string, HTMLElement> = {};
  const tabs = new Map<string, HTMLElement>();
  mount = (v) => {
    const tab = h("button", {
      type: "button", role: "tab", id: `side-${v.id}`, "aria-controls": `panel-${v.id}`, "aria-label": v.label,
      title: v.keys ? `${v.label} (${v.keys})` : v.label,
      onclick: () => (m.side === v.id && !m.sideHidden ? toggleSide(app) : show(app, v.id)),
    }, icon(v.icon));
    tabs.set(v.id, tab);
    list.append(tab);
    const panel = h("section", { role: "tabpanel", id: `panel-${v.id}`, "aria-labelledby": `side-${v.id}`, class: "panel" });
    panels[v.id] = panel;
    panelsBox.append(panel);
    v.build?.(panel, app);
    addCommand({ id: `view.${v.id}`, title: `View: ${v.label}`, keys: v.keys ? [v.keys] : undefined, run: () => show(app, v.id) });
    render();
  };
  function render(): void {
    for (const v of defs) {
      const on = m.side === v.id;
      const tab = tabs.get(v.id);
      if (!tab) continue;
      tab.setAttribute("aria-selected", String(on && !m.sideHidden));
      tab.classList.toggle("current", on);
      tab.tabIndex = on ? 0 : -1;
      panels[v.id].hidden = !on;
    }
    document.querySelector(".layout")?.classList.toggle("no-side", m.sideHidden);
  }
  for (const v of defs) mount(v);
  m.on("side", render);
  list.addEventListener("keydown", (ev) => {
    const i = defs.findIndex((v) => v.id === m.side);
    const j = ev.key === "ArrowDown" || ev.key === "ArrowRight" ? i + 1 : ev.key === "ArrowUp" || ev.key === "ArrowLeft" ? i - 1 : -9;
    if (j === -9) return;
    ev.preventDefault();
    const next = defs[(j + defs.length) % defs.length].id;
    app.model.side = next;
    app.model.sideHidden = false;
    app.model.changed("side");
    tabs.get(next)!.focus();
  });
  addCommand({ id: "view.toggleSide", title: "View: Toggle side bar", keys: ["Ctrl+B"], run: () => toggleSide(app) });
  return panels;
}

/** Shows a side panel (the side bar too) and puts the focus in it. */
export function show(app: App, id: string): void {
  app.model.side = id;
  app.model.sideHidden = false;
  app.model.changed("side");
  // The panel's first field, or the tree's current item.
  queueMicrotask(() => document.querySelector<HTMLElement>(`#panel-${id} [data-autofocus], #panel-${id} [role=tree] [tabindex="0"]`)?.focus());
}

/** Hides the side bar, or shows it again (Ctrl+B). */
export function toggleSide(app: App): void {
  const m = app.model;
  m.sideHidden = !m.sideHidden;
  m.changed("side");
  if (m.sideHidden && document.activeElement?.closest(".side")) app.editor.focus();
}
