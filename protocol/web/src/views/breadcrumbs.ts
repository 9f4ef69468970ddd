// Breadcrumbs under the tabs, as VS Code's: the active file's folders and
// name; a click on one shows it in the Files view (expanded, selected).
// Out of the Tab order (Ctrl+Shift+. puts the focus on them; arrows move).
// A feature can add what follows the file name (a symbol path) with
// addCrumbs.

import type { App } from "../app";
import { h } from "../dom";
import { expand, reveal } from "../files";
import { fileIcon, folderIcon } from "../icons";
import type { Tab } from "../model";
import { addCommand } from "../commands";
import { show } from "./side";

const extras: ((app: App, tab: Tab) => HTMLElement | null)[] = [];

/** Adds crumbs after the file's name (re-rendered with the cursor). */
export function addCrumbs(fn: (app: App, tab: Tab) => HTMLElement | null): void {
  extras.push(fn);
}

export function breadcrumbsView(parent: HTMLElement, app: App): void {
  const m = app.model;
  const nav = h("nav", { class: "breadcrumbs", "aria-label": "Breadcrumbs" });
  parent.prepend(nav);
  let shown = "";
  function render(): void {
    const tab = m.activeTab;
    const key = tab ? `${tab.path} ${m.root}` : "";
    if (key === shown && !extras.length) return;
    shown = key;
    nav.replaceChildren();
    nav.hidden = !tab;
    if (!tab) return;
    const ol = h("ol", {});
    const parts = tab.path.split("/");
    parts.forEach((name, i) => {
      const path = parts.slice(0, i + 1).join("/");
      const file = i === parts.length - 1;
      ol.append(h("li", {}, h("button", {
        type: "button", tabindex: -1, title: path, "data-path": path,
        // A folder opens in the tree, showing what is in it.
        onclick: () => {
          show(app, "files");
          void reveal(app, path).then(() => (file || m.expanded.has(path) ? undefined : expand(app, path))).catch((e) => m.say(String(e.message ?? e)));
        },
      }, file ? fileIcon(name) : folderIcon(false), name)));
    });
    for (const fn of extras) {
      const el = fn(app, tab);
      if (el) ol.append(h("li", {}, el));
    }
    nav.append(ol);
  }
  m.on("tabs", render);
  if (extras.length) m.on("cursor", render);
  nav.addEventListener("keydown", (ev) => {
    const all = [...nav.querySelectorAll<HTMLElement>("button")];
    const i = all.indexOf(document.activeElement as HTMLElement);
    const j = ev.key === "ArrowRight" ? i + 1 : ev.key === "ArrowLeft" ? i - 1 : ev.key === "Home" ? 0 : ev.key === "End" ? all.length - 1 : null;
    if (j === null || i < 0) return;
    ev.preventDefault();
    all[Math.max(0, Math.min(j, all.length - 1))].focus();
  });
  addCommand({
    id: "view.breadcrumbs", title: "View: Focus breadcrumbs", keys: ["Ctrl+Shift+."], when: () => !!m.activeTab,
    run: () => [...nav.querySelectorAll<HTMLElement>("button")].pop()?.focus(),
  });
}
