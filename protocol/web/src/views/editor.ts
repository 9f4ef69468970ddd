// The editor pane: one CodeMirror EditorView that shows the active tab's
// EditorState. Transactions the person makes update the tab's state (the
// model) first; the view follows. Changes from elsewhere reach a tab as a
// transaction too (apply), so cursor, scroll and undo history map through
// them.

import { EditorView } from "@codemirror/view";
import type { StateEffect, Transaction, TransactionSpec } from "@codemirror/state";
import type { Model, Tab } from "../model";
import { h } from "../dom";
import { describe } from "../unreadable";
import { gutterClick } from "../gutter";

export interface EditorEvents {
  edited(tab: Tab, docChanged: boolean, selectionChanged: boolean): void;
  /** A change bar in the gutter was clicked. */
  changeBarClicked?(tab: Tab): void;
}

export class EditorHost {
  readonly view: EditorView;
  private shown: Tab | null = null;
  /** Told of every transaction on a tab's state, on screen or not (a
   * second view of the tab follows it: views/split.ts). */
  private watchers = new Set<(tab: Tab, trs: readonly Transaction[]) => void>();
  private scrolls = new WeakMap<Tab, StateEffect<unknown>>();

  private empty: HTMLElement;
  /** In place of the editor for a file that cannot be shown as text. */
  private note: HTMLElement;

  constructor(parent: HTMLElement, private model: Model, on: EditorEvents) {
    this.empty = h("div", { class: "empty" },
      h("p", {}, "No open files."),
      h("p", {}, "Open one from the tree. Files an agent opens appear here as tabs, live."));
    this.note = h("section", { class: "binary", role: "region", tabindex: 0, hidden: true });
    parent.append(this.empty, this.note);
    this.view = new EditorView({
      parent,
      dispatchTransactions: (trs, view) => {
        view.update(trs);
        const tab = this.shown;
        if (!tab) return;
        tab.state = view.state;
        for (const w of this.watchers) w(tab, trs);
        on.edited(tab, trs.some((t) => t.docChanged), trs.some((t) => t.selection !== undefined));
      },
    });
    model.on("editor", () => this.render());
    this.view.dom.addEventListener(gutterClick, () => this.shown && on.changeBarClicked?.(this.shown));
  }

  /** Shows the active tab's state; remembers where the last one was scrolled. */
  render(): void {
    const tab = this.model.activeTab;
    const state = tab?.state ?? null;
    if (this.shown === tab && (!state || this.view.state === state)) return;
    if (this.shown && this.shown.state === this.view.state) {
      this.scrolls.set(this.shown, this.view.scrollSnapshot());
    }
    this.shown = tab && state ? tab : null;
    // Not the hidden attribute: CodeMirror's own style says display: flex
    // !important, so a hidden editor stayed on screen, and took typing
    // that no tab kept.
    if (state) this.view.dom.style.removeProperty("display");
    else this.view.dom.style.setProperty("display", "none", "important");
    this.empty.hidden = !!tab;
    const bad = !state && tab?.unreadable;
    this.note.hidden = !bad;
    if (bad) {
      const d = describe(tab.path, bad.code, bad.message, bad.size);
      this.note.setAttribute("aria-label", tab.name);
      this.note.replaceChildren(h("h2", {}, d.title), h("p", {}, d.detail), h("p", { class: "path" }, tab.path));
    }
    if (!tab || !state) return;
    this.view.setState(state);
    const snap = this.scrolls.get(tab);
    if (snap) this.view.dispatch({ effects: snap });
  }

  /** Changes a tab's state: through the view when it is on screen. */
  apply(tab: Tab, spec: TransactionSpec): void {
    if (!tab.state) return;
    if (this.shown === tab && this.view.state === tab.state) {
      this.view.dispatch(spec);
    } else {
      const tr = tab.state.update(spec);
      tab.state = tr.state;
      for (const w of this.watchers) w(tab, [tr]);
    }
  }

  /** Calls fn with each transaction a tab's state goes through. */
  watch(fn: (tab: Tab, trs: readonly Transaction[]) => void): void {
    this.watchers.add(fn);
  }

  /** The tab this pane shows, if any. */
  get tab(): Tab | null {
    return this.shown;
  }

  focus(): void {
    this.view.focus();
  }
}
