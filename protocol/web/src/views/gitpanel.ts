// The Git panel: branch, upstream and how far ahead or behind; the changed
// files (a click shows the diff against HEAD, read-only); a commit box;
// fetch, pull and push, stash and pop, each showing that it runs and then
// its summary, or git's message when it fails.

import { MergeView } from "@codemirror/merge";
import { EditorState } from "@codemirror/state";
import { EditorView, lineNumbers } from "@codemirror/view";
import { syntaxHighlighting } from "@codemirror/language";
import type { App, OpenResult } from "../app";
import { clear, h } from "../dom";
import { gitAction, type GitEntry } from "../git";
import { highlight } from "../highlight";
import { language } from "../languages";
import { theme } from "../theme";

const short: Record<string, string> = {
  modified: "M", added: "A", deleted: "D", renamed: "R", copied: "C", typechange: "T", untracked: "U", conflicted: "!", unchanged: " ", ignored: "I",
};

export function gitPanel(parent: HTMLElement, app: App): void {
  const m = app.model;
  const head = h("div", { class: "git-head" });
  const msg = h("textarea", { "aria-label": "Commit message", placeholder: "Commit message", rows: 3, "data-autofocus": true });
  const run = (label: string, tool: string, args: () => Record<string, unknown> | null) => () => {
    const a = args();
    if (a) void gitAction(app, label, tool, a).then(() => { if (tool === "editor_git_commit" && !m.gitSummary?.error) msg.value = ""; });
  };
  const commitAll = h("button", { type: "button", class: "primary", onclick: run("Committing…", "editor_git_commit", () => (msg.value.trim() ? { message: msg.value, stage_all: true } : (m.say("Write a commit message first."), null))) }, "Commit all");
  const commitStaged = h("button", { type: "button", onclick: run("Committing…", "editor_git_commit", () => (msg.value.trim() ? { message: msg.value, stage_all: false } : (m.say("Write a commit message first."), null))) }, "Commit staged");
  const actions = h("div", { class: "git-actions", role: "group", "aria-label": "Remote and stash" },
    h("button", { type: "button", onclick: run("Fetching…", "editor_git_sync", () => ({ action: "fetch" })) }, "Fetch"),
    h("button", { type: "button", onclick: run("Pulling…", "editor_git_sync", () => ({ action: "pull" })) }, "Pull"),
    h("button", { type: "button", onclick: run("Pushing…", "editor_git_sync", () => ({ action: "push" })) }, "Push"),
    h("button", { type: "button", onclick: run("Stashing…", "editor_git_stash", () => ({ action: "push", include_untracked: true })) }, "Stash"),
    h("button", { type: "button", onclick: run("Popping the stash…", "editor_git_stash", () => ({ action: "pop" })) }, "Pop stash"),
  );
  const outcome = h("div", { class: "git-outcome" });
  const files = h("ul", { class: "git-files", "aria-label": "Changed files" });
  const body = h("div", { class: "git-body" }, head, h("div", { class: "git-commit" }, msg, h("div", {}, commitAll, commitStaged)), actions, outcome, files);
  const none = h("p", { class: "panel-note" });
  parent.append(h("h2", { class: "panel-title" }, "Git"), none, body);

  function render(): void {
    const g = m.git;
    none.hidden = !!g;
    body.hidden = !g;
    none.textContent = m.gitError === "not_a_repository" ? "The workspace is not in a git repository." : m.gitError ?? "Reading git status…";
    clear(outcome);
    if (m.gitBusy) outcome.append(h("p", { role: "status", class: "busy" }, m.gitBusy));
    else if (m.gitSummary) outcome.append(h("p", { role: m.gitSummary.error ? "alert" : "status", class: m.gitSummary.error ? "error" : "" }, m.gitSummary.text));
    for (const b of actions.querySelectorAll("button")) b.disabled = !!m.gitBusy;
    commitAll.disabled = commitStaged.disabled = !!m.gitBusy;
    if (!g) return;
    const track = g.upstream ? ` ⇄ ${g.upstream}` : " (no upstream)";
    const counts = g.upstream ? ` · ↑${g.ahead} ↓${g.behind}` : "";
    head.textContent = `${g.branch ?? "detached HEAD"}${track}${counts}`;
    clear(files);
    if (!g.entries.length) files.append(h("li", { class: "panel-note" }, "No changes."));
    for (const e of g.entries) {
      const code = e.worktree !== "unchanged" ? e.worktree : e.index;
      files.append(h("li", {}, h("button", {
        type: "button", class: "git-file", title: `${e.path}: ${e.index} in the index, ${e.worktree} in the worktree`,
        onclick: () => void showDiff(app, e).catch((x) => m.say(String(x.message ?? x))),
      }, h("span", { class: `git-code ${code}`, "aria-hidden": "true" }, short[code] ?? "?"), h("span", {}, e.path), h("span", { class: "visually-hidden" }, ` ${code}`))));
    }
  }
  m.on("git", render);
  render();
}

/** HEAD's text beside the file's, read-only. */
async function showDiff(app: App, e: GitEntry): Promise<void> {
  const [head, now] = await Promise.all([
    app.link.call<{ content: string; exists: boolean }>("editor_git_show", { path: e.renamed_from ?? e.path, rev: "HEAD" }).catch(() => ({ content: "", exists: false })),
    app.link.call<OpenResult>("editor_open", { path: e.path, tab: false }).catch(() => ({ content: "" }) as OpenResult),
  ]);
  const lang = await language((now as OpenResult).language ?? "plaintext");
  const ro = [EditorState.readOnly.of(true), EditorView.editable.of(false), lineNumbers(), syntaxHighlighting(highlight), theme, EditorView.lineWrapping, lang];
  const parent = h("div", { class: "merge" });
  const view = new MergeView({
    a: { doc: head.exists ? head.content : "", extensions: [...ro, EditorView.contentAttributes.of({ "aria-label": "HEAD" })] },
    b: { doc: now.content, extensions: [...ro, EditorView.contentAttributes.of({ "aria-label": "Working file" })] },
    parent,
    highlightChanges: true,
    gutter: true,
  });
  const done = h("button", { type: "button", class: "primary", onclick: () => (close(), view.destroy()) }, "Close");
  const close = app.dialogs.open(`Changes in ${e.path}`, [h("p", { class: "legend" }, h("span", {}, head.exists ? "Left: HEAD." : "Left: not in HEAD."), h("span", {}, "Right: the file on disk.")), parent], [done], {
    wide: true,
    onCancel: () => view.destroy(),
  });
}
