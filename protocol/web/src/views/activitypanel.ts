// The Activity panel: the change journal live, newest first: who, which
// file, what kind, lines added and removed; a click shows the patch.
// Filters: agents only, and one file.

import type { App } from "../app";
import { byAgent } from "../activity";
import { h, midPath } from "../dom";
import type { ChangeEvent } from "../mcp";
import { patchView } from "./patch";

export function activityPanel(parent: HTMLElement, app: App): void {
  const m = app.model;
  const agentsOnly = h("input", { type: "checkbox" });
  const file = h("input", { type: "text", "aria-label": "Only this file", placeholder: "only this file…", spellcheck: "false", "data-autofocus": true });
  const list = h("ol", { class: "activity", "aria-label": "Changes, newest first" });
  parent.append(
    h("h2", { class: "panel-title" }, "Activity"),
    h("div", { class: "search-form" }, h("label", { class: "check" }, agentsOnly, "Agents only"), file),
    list,
  );
  const when = (t: string) => new Date(t).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" });
  function render(): void {
    list.replaceChildren();
    const f = file.value.trim();
    const shown = m.activity.filter((ev) => (!agentsOnly.checked || byAgent(ev)) && (!f || ev.path.includes(f) || ev.from?.includes(f)));
    if (!shown.length) list.append(h("li", { class: "panel-note" }, m.activity.length ? "No change matches the filters." : "No changes yet."));
    for (const ev of shown.slice(0, 200)) {
      const what = ev.kind === "moved" ? `${ev.from} → ${ev.path}` : ev.path;
      list.append(h("li", {}, h("button", {
        type: "button", class: "change", title: `${ev.cause} at ${ev.time}`, onclick: () => showPatch(app, ev),
      },
      h("span", { class: "who" }, ev.by ?? ev.cause),
      ev.kind === "moved" ? h("span", { class: "what", title: what }, `${ev.kind} ${what}`) : h("span", { class: "what" }, `${ev.kind} `, midPath(ev.path)),
      // A change seen without the file's earlier text (not open, a folder's
      // event) has no line counts: say nothing rather than +0 −0.
      ev.patch || ev.added || ev.removed
        ? h("span", { class: "delta" }, h("span", { class: "add" }, `+${ev.added}`), " ", h("span", { class: "del" }, `−${ev.removed}`))
        : h("span", { class: "delta" }),
      h("span", { class: "when" }, when(ev.time)))));
    }
  }
  m.on("activity", render);
  agentsOnly.addEventListener("change", render);
  file.addEventListener("input", render);
  render();
}

function showPatch(app: App, ev: ChangeEvent): void {
  const text = ev.patch ? ev.patch + (ev.truncated ? "\n… cut here; editor_git_hunks has the rest\n" : "") : "(no patch recorded for this change)";
  const done = h("button", { type: "button", class: "primary", onclick: () => close() }, "Close");
  const close = app.dialogs.open(`${ev.by ?? ev.cause} ${ev.kind} ${ev.path}`, [ev.patch ? patchView(text) : h("pre", { class: "patch" }, text)], [done], { wide: true });
}
