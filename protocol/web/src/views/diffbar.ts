// The bar above the editor while a tab shows its changes inline: against
// what, how many, and the ways to move between them or hide them.

import type { App } from "../app";
import { h } from "../dom";
import { changeCount, goToChange, hideChanges, sourceOf } from "../inlinediff";

export function diffBar(parent: HTMLElement, app: App): void {
  const m = app.model;
  const bar = h("div", { class: "diffbar", role: "toolbar", "aria-label": "Changes", hidden: true });
  parent.append(bar);
  const btn = (label: string, title: string, run: () => void) =>
    h("button", { type: "button", title, onclick: () => (run(), app.editor.focus()) }, label);
  let shown = "";
  function render(): void {
    const tab = m.activeTab;
    const d = tab?.state ? tab.inlineDiff : null;
    const n = tab && d ? changeCount(tab) : 0;
    const key = d && tab ? `${tab.path} ${d.rev} ${n}` : "";
    if (key === shown) return;
    shown = key;
    bar.hidden = !d;
    bar.replaceChildren();
    if (!tab || !d) return;
    bar.append(
      h("span", { class: "what" }, `Changes against ${sourceOf(d.rev)}: ${n === 0 ? "none" : n === 1 ? "1 change" : `${n} changes`}`),
      btn("↑ Previous", "Previous change (Shift+Alt+F5)", () => goToChange(app, tab, -1)),
      btn("↓ Next", "Next change (Alt+F5)", () => goToChange(app, tab, 1)),
      btn("Hide changes", "Back to the file alone", () => hideChanges(app, tab)),
    );
  }
  m.on("banner", render);
  m.on("editor", render);
  m.on("tabs", render);
}
