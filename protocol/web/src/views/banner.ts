// The active tab's notices: a change made elsewhere while the person has
// unsaved edits (role=alert, with who made it and the three ways out), a
// tab closed elsewhere, a file deleted, a read-only file.

import type { App } from "../app";
import { h } from "../dom";
import { closeTab, keepMine, save, takeTheirs } from "../docs";

export function bannerView(parent: HTMLElement, app: App): void {
  const m = app.model;
  const box = h("div", { class: "banners" });
  parent.append(box);
  const btn = (label: string, run: () => unknown, title?: string) =>
    h("button", { type: "button", title, onclick: () => void Promise.resolve(run()).catch((e) => m.say(String(e.message ?? e))) }, label);

  let shown = "";
  function render(): void {
    const tab = m.activeTab;
    // Re-render only when what it says changes: a screen reader announces
    // an alert each time it is inserted.
    const key = tab ? JSON.stringify([tab.path, tab.remote, tab.closedElsewhere, tab.otherRoot, m.root, tab.dirtyElsewhere, tab.readOnly, tab.loaded, tab.dirty]) : "";
    if (key === shown) return;
    shown = key;
    box.replaceChildren();
    if (!tab) return;
    const r = tab.remote;
    if (tab.otherRoot) {
      box.append(
        h("div", { role: "alert", class: "banner warn" },
          h("span", {}, `${tab.name} is in ${tab.otherRoot}, which another editor replaced as the workspace root with ${m.root}. Your unsaved edits are kept here: save to write them to ${tab.path}, or discard them.`),
          btn("Save", () => save(app, tab)),
          btn("Discard", () => closeTab(app, tab)),
        ),
      );
    } else if (r && r.kind === "deleted") {
      const by = r.by ? ` by ${r.by}` : "";
      box.append(
        h("div", { role: "alert", class: "banner warn" },
          h("span", {}, tab.dirty || tab.closedElsewhere
            ? `${tab.name} was deleted on disk${by}. Your unsaved edits are kept (a draft): save to create it again, or discard them.`
            : `${tab.name} was deleted on disk${by}. Saving creates it again.`),
          tab.dirty || tab.closedElsewhere ? btn("Save", () => save(app, tab)) : null,
          btn(tab.dirty || tab.closedElsewhere ? "Discard" : "Close tab", () => closeTab(app, tab)),
        ),
      );
    } else if (tab.closedElsewhere) {
      box.append(
        h("div", { role: "alert", class: "banner warn" },
          h("span", {}, `${tab.name} was closed in another editor. Your unsaved edits are kept (a draft): save to open it again, or discard them.`),
          btn("Save", () => save(app, tab)),
          btn("Discard", () => closeTab(app, tab)),
        ),
      );
    } else if (r) {
      const what = r.kind === "restored"
        ? `Your unsaved edits of ${tab.name} were restored, but the file changed on disk since they were made.`
        : `${tab.name} was changed on disk by ${r.by}, where you are editing. Your unsaved edits are kept; nothing was overwritten.`;
      box.append(
        h("div", { role: "alert", class: "banner warn" },
          h("span", {}, what),
          btn("Compare", () => app.dialogs.merge(tab), "Merge three ways: the text both started from, theirs and yours"),
          btn("Take theirs", () => takeTheirs(app, tab), "Replace your edits with the file on disk"),
          btn("Keep mine", () => keepMine(app, tab), "Keep your text; your next save replaces their change"),
        ),
      );
    } else if (tab.dirtyElsewhere) {
      box.append(h("div", { role: "status", class: "banner info" }, `${tab.name} has unsaved edits in another editor window.`));
    }
    if (tab.readOnly) box.append(h("div", { role: "status", class: "banner info" }, tab.readOnly));
  }
  m.on("banner", render);
}
