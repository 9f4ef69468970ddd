// The Problems panel (Ctrl/Cmd+Shift+M), under the editor: the language
// servers' errors and warnings across the workspace (editor_diagnostics),
// errors first; a click opens the file at the problem. It asks again when
// a file changes (anyone's write, or the person's draft being checked) while
// it is open.

import type { App } from "../app";
import { h } from "../dom";
import { addCommand } from "../commands";
import { onProblems, revealAt, type DiagnosticsResult } from "../intel";

export function problemsView(parent: HTMLElement, app: App): void {
  const count = h("span", { class: "count" });
  const toggle = h("button", { type: "button", class: "problems-toggle", "aria-expanded": "false", "aria-controls": "problems-list", title: "Problems (Ctrl+Shift+M)" },
    "Problems", count);
  const note = h("p", { class: "panel-note", role: "status" });
  const list = h("ul", { class: "hits problems-list", id: "problems-list", "aria-label": "Problems" });
  const body = h("div", { class: "problems-body" }, note, list);
  body.hidden = true;
  const box = h("section", { class: "problems", "aria-label": "Problems" }, toggle, body);
  parent.append(box);

  let seq = 0;
  async function refresh(): Promise<void> {
    if (body.hidden) return;
    const mine = ++seq;
    if (!list.childElementCount) note.textContent = "Asking the language servers…";
    let r: DiagnosticsResult;
    try {
      r = await app.link.call<DiagnosticsResult>("editor_diagnostics", { wait_ms: 20000, limit: 1000 });
    } catch (e) {
      if (mine === seq) {
        note.textContent = (e as Error).message;
        list.replaceChildren();
        count.textContent = "";
      }
      return;
    }
    if (mine !== seq) return;
    count.textContent = ` ${r.errors} errors, ${r.warnings} warnings`;
    note.textContent = !r.settled ? "Still checking…" : r.total ? "" : "No problems.";
    if (!r.settled) soon(2000);
    note.hidden = !note.textContent;
    list.replaceChildren(...r.diagnostics.map((d) => h("li", {}, h("button", {
      type: "button", class: `hit problem ${d.severity}`, title: `${d.path}:${d.line}:${d.column}`,
      onclick: () => void revealAt(app, d.path, d.line, d.column).catch((e) => app.model.say(String(e.message ?? e))),
    }, h("span", { class: "sev", "aria-label": d.severity }, d.severity === "error" ? "✖" : d.severity === "warning" ? "⚠" : "ℹ"),
    h("span", { class: "tx" }, d.message), h("span", { class: "where" }, `${d.path}:${d.line}:${d.column}`)))));
  }

  let timer: ReturnType<typeof setTimeout> | undefined;
  const soon = (ms = 800) => {
    clearTimeout(timer);
    timer = setTimeout(() => void refresh(), ms);
  };
  function setOpen(open: boolean): void {
    body.hidden = !open;
    toggle.setAttribute("aria-expanded", String(open));
    if (open) void refresh();
  }
  toggle.addEventListener("click", () => setOpen(body.hidden));
  onProblems(() => soon(300));
  addCommand({
    id: "view.problems", title: "View: Problems", keys: ["Ctrl+Shift+M"],
    run: () => {
      setOpen(body.hidden);
      if (!body.hidden) toggle.focus();
    },
  });
}
