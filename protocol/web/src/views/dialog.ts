// Modal dialogs (role=dialog, aria-modal): a prompt, a confirmation, and
// the merge view. One at a time; Escape cancels; Tab stays inside (the page
// behind is inert); focus returns to where it was.

import type { App } from "../app";
import { h, refind } from "../dom";
import type { Tab } from "../model";
import { mergeDialog } from "./merge";
import { merge3Dialog } from "./merge3";

let seq = 0;

/** The controls of a dialog Tab moves between, in order. */
function focusables(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>("input, textarea, select, button, [href], [tabindex], [contenteditable=true]")]
    .filter((el) => !(el as HTMLButtonElement).disabled && el.tabIndex >= 0 && el.getClientRects().length > 0);
}

export class Dialogs {
  app!: App;
  private current: { close(): void } | null = null;

  constructor(private host: HTMLElement) {}

  /** Shows a dialog; returns its close function. */
  open(title: string, body: (Node | string)[], buttons: HTMLElement[], opts: { wide?: boolean; palette?: boolean; onCancel?: () => void; onClose?: () => void } = {}): () => void {
    this.current?.close();
    const id = `dialog-title-${++seq}`;
    const back = document.activeElement as HTMLElement | null;
    const dlg = h("div", { role: "dialog", "aria-modal": "true", "aria-labelledby": id, class: `dialog ${opts.wide ? "wide" : ""} ${opts.palette ? "palette" : ""}` },
      h("h2", { id }, title), h("div", { class: "body" }, ...body), h("div", { class: "buttons" }, ...buttons));
    const veil = h("div", { class: `veil ${opts.palette ? "top" : ""}` }, dlg);
    // A click outside a palette closes it.
    if (opts.palette) veil.addEventListener("mousedown", (ev) => ev.target === veil && close());
    let closed = false;
    const close = () => {
      if (closed) return;
      closed = true;
      veil.remove();
      document.removeEventListener("keydown", onKey);
      for (const el of behind) el.inert = false;
      if (this.current?.close === close) this.current = null;
      opts.onClose?.();
      refind(back)?.focus?.();
    };
    // On the document, not the dialog: Escape closes it wherever the
    // focus is (a click on a read-only editor can leave it on the body),
    // unless something in the dialog used the key already.
    const onKey = (ev: KeyboardEvent) => {
      if (ev.key === "Escape" && !ev.defaultPrevented) {
        ev.preventDefault();
        close();
        opts.onCancel?.();
      } else if (ev.key === "Tab") {
        // Focus stays in the dialog: Tab from its last control wraps to
        // the first, Shift+Tab from the first to the last.
        const all = focusables(dlg);
        if (!all.length) return;
        const i = all.indexOf(document.activeElement as HTMLElement);
        if (ev.shiftKey && i <= 0) {
          ev.preventDefault();
          all[all.length - 1].focus();
        } else if (!ev.shiftKey && (i < 0 || i === all.length - 1)) {
          ev.preventDefault();
          all[0].focus();
        }
      }
    };
    document.addEventListener("keydown", onKey);
    // What is behind a modal dialog takes neither focus nor clicks.
    const behind = [...this.host.children].filter((el) => !el.classList.contains("veil")) as HTMLElement[];
    for (const el of behind) el.inert = true;
    this.host.append(veil);
    this.current = { close };
    (dlg.querySelector<HTMLElement>("input, textarea, button.primary") ?? focusables(dlg)[0])?.focus();
    return close;
  }

  prompt(title: string, label: string, value: string): Promise<string | null> {
    return new Promise((resolve) => {
      const input = h("input", { type: "text", value, "aria-label": label, spellcheck: "false" });
      const done = (v: string | null) => {
        close();
        resolve(v);
      };
      const ok = h("button", { type: "button", class: "primary", onclick: () => done(input.value.trim() || null) }, "OK");
      const cancel = h("button", { type: "button", onclick: () => done(null) }, "Cancel");
      input.addEventListener("keydown", (ev) => {
        if (ev.key !== "Enter") return;
        // Handled here: focus goes back to the button that opened the
        // dialog, which the same Enter would otherwise press again.
        ev.preventDefault();
        done(input.value.trim() || null);
      });
      const close = this.open(title, [h("label", {}, label, input)], [ok, cancel], { onCancel: () => resolve(null) });
      input.focus();
      input.select();
    });
  }

  confirm(title: string, text: string, okLabel: string): Promise<boolean> {
    return new Promise((resolve) => {
      const done = (v: boolean) => {
        close();
        resolve(v);
      };
      const ok = h("button", { type: "button", class: "primary danger", onclick: () => done(true) }, okLabel);
      const cancel = h("button", { type: "button", onclick: () => done(false) }, "Cancel");
      const close = this.open(title, [h("p", {}, text)], [ok, cancel], { onCancel: () => resolve(false) });
      cancel.focus();
    });
  }

  /** Whether a dialog is open. */
  busy(): boolean {
    return this.current !== null;
  }

  /** The merge view: three ways when the text the person's edits were
   * made over is known, else the disk's text beside theirs. */
  merge(tab: Tab): void {
    if (tab.theirs && tab.disk && tab.state && tab.disk.version === tab.over) void merge3Dialog(this.app, this, tab);
    else void mergeDialog(this.app, this, tab);
  }
}
