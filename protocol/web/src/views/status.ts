// The status bar: the root, the active tab's line endings and language,
// the connection, and the last message (role=status, read out politely).

import type { App } from "../app";
import { h } from "../dom";
import { focusedState } from "./split";

const linkText = { connecting: "connecting…", online: "connected", offline: "reconnecting…", unauthorized: "token refused" };

export function statusView(parent: HTMLElement, app: App): void {
  const m = app.model;
  const root = h("span", { class: "root" });
  const branch = h("span", { class: "branch", title: "Git branch" });
  const msg = h("span", { class: "msg", role: "status", "aria-live": "polite" });
  const cursor = h("span", { class: "cursor", title: "Cursor: line and column" });
  const file = h("span", { class: "file" });
  const link = h("span", { class: "link" });
  parent.append(h("footer", { class: "status" }, root, branch, msg, cursor, file, link));
  let shown = -1;
  function renderCursor(): void {
    const st = focusedState(app);
    if (!st) {
      cursor.textContent = "";
      return;
    }
    const head = st.selection.main.head;
    const line = st.doc.lineAt(head);
    const selected = st.selection.ranges.reduce((n, r) => n + r.to - r.from, 0);
    const carets = st.selection.ranges.length;
    cursor.textContent = `Ln ${line.number}, Col ${head - line.from + 1}` +
      (selected ? ` (${selected} selected)` : "") + (carets > 1 ? ` · ${carets} cursors` : "");
  }
  function render(): void {
    root.textContent = m.root;
    branch.textContent = m.git ? `⎇ ${m.git.branch ?? "detached"}${m.git.upstream ? ` ↑${m.git.ahead} ↓${m.git.behind}` : ""}` : "";
    renderCursor();
    const tab = m.activeTab;
    file.textContent = tab?.loaded ? `${tab.eol === "crlf" ? "CRLF" : tab.eol === "mixed" ? "mixed EOL" : "LF"} · ${tab.language}` : "";
    link.textContent = linkText[m.status.link];
    link.className = `link ${m.status.link}`;
    link.title = m.status.detail ?? "";
    if (m.status.message !== undefined && m.status.said !== shown) {
      shown = m.status.said ?? 0;
      msg.textContent = m.status.message;
    }
  }
  m.on("status", render);
  m.on("tabs", render);
  m.on("git", render);
  m.on("cursor", renderCursor);
}
