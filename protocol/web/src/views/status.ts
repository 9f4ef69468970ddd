// The status bar: the root, the active tab's line endings and language,
// the connection, and the last message (role=status, read out politely).

import type { App } from "../app";
import { h } from "../dom";

const linkText = { connecting: "connecting…", online: "connected", offline: "reconnecting…", unauthorized: "token refused" };

export function statusView(parent: HTMLElement, app: App): void {
  const m = app.model;
  const root = h("span", { class: "root" });
  const file = h("span", { class: "file" });
  const msg = h("span", { class: "msg", role: "status", "aria-live": "polite" });
  const link = h("span", { class: "link" });
  parent.append(h("footer", { class: "status" }, root, msg, file, link));
  let shown = "";
  function render(): void {
    root.textContent = m.root;
    const tab = m.activeTab;
    file.textContent = tab?.loaded ? `${tab.eol === "crlf" ? "CRLF" : tab.eol === "mixed" ? "mixed EOL" : "LF"} · ${tab.language}` : "";
    link.textContent = linkText[m.status.link];
    link.className = `link ${m.status.link}`;
    link.title = m.status.detail ?? "";
    if (m.status.message !== undefined && m.status.message !== shown) {
      shown = m.status.message;
      msg.textContent = shown;
    }
  }
  m.on("status", render);
  m.on("tabs", render);
}
