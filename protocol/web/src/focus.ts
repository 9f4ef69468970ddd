// Where the person is, for agents (docs/contract.md §9): the active tab and its
// cursor or selection, reported a moment after it stops moving.

import type { App } from "./app";

let timer: ReturnType<typeof setTimeout> | undefined;
let last = "";

export function scheduleFocus(app: App): void {
  clearTimeout(timer);
  timer = setTimeout(() => void report(app), 400);
}

async function report(app: App): Promise<void> {
  const tab = app.model.activeTab;
  if (!tab?.state || !tab.record) return;
  const st = tab.state;
  const sel = st.selection.main;
  const pos = (at: number) => {
    const line = st.doc.lineAt(at);
    return { line: line.number, column: at - line.from + 1 };
  };
  const head = pos(sel.head);
  const args: Record<string, unknown> = { path: tab.path, line: head.line, column: head.column };
  if (!sel.empty) {
    const a = pos(sel.from);
    const b = pos(sel.to);
    args.selection = { start_line: a.line, start_column: a.column, end_line: b.line, end_column: b.column };
  }
  const key = JSON.stringify(args);
  if (key === last) return;
  last = key;
  await app.link.call("editor_workspace_focus", args).catch(() => {
    last = "";
  });
}
