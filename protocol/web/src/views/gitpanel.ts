// The Git panel: branch, upstream and how far ahead or behind; the changed
// files, staged and not (a click shows the diff, read-only: HEAD to the
// index, or the index to the file); a commit box;
// fetch, pull and push, stash and pop, each showing that it runs and then
// its summary, or git's message when it fails.

import { MergeView } from "@codemirror/merge";
import { EditorState } from "@codemirror/state";
import { EditorView, lineNumbers } from "@codemirror/view";
import { syntaxHighlighting } from "@codemirror/language";
import type { App, OpenResult } from "../app";
import { h, midPath } from "../dom";
import { discard, gitAction, refreshGit, refreshGitSoon, stage, type GitEntry } from "../git";
import { openFile } from "../docs";
import { goToChange, showChanges } from "../inlinediff";
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
    if (a && tool === "editor_git_commit") m.done("commit");
    if (a) void gitAction(app, label, tool, a).then(() => { if (tool === "editor_git_commit" && !m.gitSummary?.error) msg.value = ""; });
  };
  const commitAll = h("button", { type: "button", class: "primary", onclick: run("Committing…", "editor_git_commit", () => (msg.value.trim() ? { message: msg.value, stage_all: true } : (m.say("Write a commit message first.", "commit"), null))) }, "Commit all");
  const commitStaged = h("button", { type: "button", onclick: run("Committing…", "editor_git_commit", () => (msg.value.trim() ? { message: msg.value, stage_all: false } : (m.say("Write a commit message first.", "commit"), null))) }, "Commit staged");
  const actions = h("div", { class: "git-actions", role: "group", "aria-label": "Remote and stash" },
    h("button", { type: "button", onclick: run("Fetching…", "editor_git_sync", () => ({ action: "fetch" })) }, "Fetch"),
    h("button", { type: "button", onclick: run("Pulling…", "editor_git_sync", () => ({ action: "pull" })) }, "Pull"),
    h("button", { type: "button", onclick: run("Pushing…", "editor_git_sync", () => ({ action: "push" })) }, "Push"),
    h("button", { type: "button", onclick: run("Stashing…", "editor_git_stash", () => ({ action: "push", include_untracked: true })) }, "Stash"),
    h("button", { type: "button", onclick: run("Popping the stash…", "editor_git_stash", () => ({ action: "pop" })) }, "Pop stash"),
  );
  msg.addEventListener("input", () => m.done("commit"));
  const outcome = h("div", { class: "git-outcome" });
  const files = h("div", { class: "git-files" });
  const body = h("div", { class: "git-body" }, head, h("div", { class: "git-commit" }, msg, h("div", {}, commitAll, commitStaged)), actions, outcome, files);
  const none = h("p", { class: "panel-note" });
  parent.append(h("h2", { class: "panel-title" }, "Git"), none, body);

  function render(): void {
    const g = m.git;
    none.hidden = !!g;
    body.hidden = !g;
    none.textContent = m.gitError === "not_a_repository" ? "The workspace is not in a git repository." : m.gitError ?? "Reading git status…";
    outcome.replaceChildren();
    if (m.gitBusy) outcome.append(h("p", { role: "status", class: "busy" }, m.gitBusy));
    else if (m.gitSummary) outcome.append(h("p", { role: m.gitSummary.error ? "alert" : "status", class: m.gitSummary.error ? "error" : "" }, m.gitSummary.text));
    for (const b of actions.querySelectorAll("button")) b.disabled = !!m.gitBusy;
    commitAll.disabled = commitStaged.disabled = !!m.gitBusy;
    if (!g) return;
    const track = g.upstream ? ` ⇄ ${g.upstream}` : " (no upstream)";
    const counts = g.upstream ? ` · ↑${g.ahead} ↓${g.behind}` : "";
    head.textContent = `${g.branch ?? "detached HEAD"}${track}${counts}`;
    files.replaceChildren();
    if (!g.entries.length) files.append(h("p", { class: "panel-note" }, "No changes."));
    // As in VS Code: what a commit of the staged files records (HEAD to
    // the index), then what is not staged yet (the index to the file).
    const staged = g.entries.filter((e) => e.staged);
    const unstaged = g.entries.filter((e) => e.worktree !== "unchanged");
    const busy = !!m.gitBusy;
    const act = (label: string, text: string, run: () => Promise<void>) =>
      h("button", { type: "button", class: "git-act", "aria-label": label, title: label, disabled: busy, onclick: () => void run().catch((x) => m.say(String(x.message ?? x))) }, text);
    const group = (title: string, list: GitEntry[], side: "staged" | "worktree") => {
      if (!list.length) return;
      const ul = h("ul", { "aria-label": title });
      for (const e of list) {
        const code = side === "staged" ? e.index : e.worktree;
        // As VS Code's row actions: discard and stage a change, unstage a
        // staged one.
        const acts = side === "staged"
          ? [act(`Unstage ${e.path}`, "−", () => stage(app, [e.path], true))]
          : [act(`Discard changes in ${e.path}`, "↶", () => discard(app, e)), act(`Stage ${e.path}`, "+", () => stage(app, [e.path]))];
        ul.append(h("li", { class: "git-row" }, h("button", {
          type: "button", class: "git-file", "data-side": side,
          title: side === "staged" ? `${e.path}: ${e.index}, staged (HEAD to the index)` : `${e.path}: ${e.worktree}, not staged (the index to the file)`,
          onclick: () => void openChange(app, e, side).catch((x) => m.say(String(x.message ?? x))),
        }, h("span", { class: `git-code ${code}`, "aria-hidden": "true" }, short[code] ?? "?"), midPath(e.path), h("span", { class: "visually-hidden" }, ` ${code}`)), h("span", { class: "git-acts" }, ...acts)));
      }
      const all = side === "staged"
        ? act("Unstage all changes", "−", () => stage(app, ["."], true))
        : act("Stage all changes", "+", () => stage(app, ["."]));
      files.append(h("h3", { class: "git-group" }, h("span", {}, title, h("span", { class: "count" }, ` ${list.length}`)), h("span", { class: "git-acts" }, all)), ul);
    };
    group("Staged changes", staged, "staged");
    group("Changes", unstaged, "worktree");
  }
  m.on("git", render);
  watchWhileShown(app);
  render();
}

/** A change as VS Code opens it, at its first change: an unstaged one in
 * the file's own tab with the change inline (editable there), a staged or
 * deleted one side by side. */
async function openChange(app: App, e: GitEntry, side: "staged" | "worktree"): Promise<void> {
  if (side === "worktree" && e.worktree !== "deleted") {
    await openFile(app, e.path);
    const tab = app.model.tabs.get(e.path);
    if (tab?.unreadable) return; // a binary file: its tab says so
    if (tab?.state) {
      await showChanges(app, tab, ":");
      goToChange(app, tab, 0);
      app.editor.focus();
      return;
    }
  }
  await showDiff(app, e, side);
}

/** A change read-only, side by side: a staged one is HEAD against the
 * index (what a commit records), an unstaged one the index against the
 * file on disk. */
async function showDiff(app: App, e: GitEntry, side: "staged" | "worktree"): Promise<void> {
  const show = (rev: string, path: string) =>
    app.link.call<{ content: string; exists: boolean }>("editor_git_show", { path, rev }).catch(() => ({ content: "", exists: false }));
  const untracked = e.worktree === "untracked";
  const [head, now] = side === "staged"
    ? await Promise.all([show("HEAD", e.renamed_from ?? e.path), show(":", e.path).then((r) => ({ ...r, language: undefined as string | undefined }))])
    : await Promise.all([
      untracked ? Promise.resolve({ content: "", exists: false }) : show(":", e.path),
      app.link.call<OpenResult>("editor_open", { path: e.path, tab: false }).catch(() => ({ content: "" }) as OpenResult),
    ]);
  const labels = side === "staged"
    ? { a: head.exists ? "Left: HEAD." : "Left: not in HEAD.", b: "Right: the index (staged).", aName: "HEAD", bName: "Index" }
    : { a: head.exists ? "Left: the index (staged)." : "Left: not in the index.", b: "Right: the file on disk.", aName: "Index", bName: "Working file" };
  const lang = await language((now as { language?: string }).language ?? "plaintext");
  const ro = [EditorState.readOnly.of(true), EditorView.editable.of(false), lineNumbers(), syntaxHighlighting(highlight), theme, EditorView.lineWrapping, lang];
  const parent = h("div", { class: "merge" });
  const view = new MergeView({
    a: { doc: head.exists ? head.content : "", extensions: [...ro, EditorView.contentAttributes.of({ "aria-label": labels.aName })] },
    b: { doc: now.content, extensions: [...ro, EditorView.contentAttributes.of({ "aria-label": labels.bName })] },
    parent,
    highlightChanges: true,
    gutter: true,
  });
  const done = h("button", { type: "button", class: "primary", onclick: () => (close(), view.destroy()) }, "Close");
  const title = side === "staged" ? `Staged changes in ${e.path}` : `Changes in ${e.path}`;
  const close = app.dialogs.open(title, [h("p", { class: "legend" }, h("span", {}, labels.a), h("span", {}, labels.b)), parent], [done], {
    wide: true,
    onCancel: () => view.destroy(),
  });
  // At the first change, not at line 1 (once the dialog is laid out).
  requestAnimationFrame(() => {
    const c = view.chunks[0];
    if (c) view.b.dispatch({ effects: EditorView.scrollIntoView(Math.min(c.fromB, view.b.state.doc.length), { y: "center" }) });
  });
}

/** git's own commands (an agent's shell, a terminal) change the index and
 * HEAD without a change to any file editord journals, so no event says
 * so: the panel reads the status again when it is shown, when the window
 * gets the focus back, and every few seconds while it is on screen. */
function watchWhileShown(app: App): void {
  const m = app.model;
  const shown = () => m.side === "git" && !m.sideHidden && document.visibilityState === "visible";
  let was = false;
  m.on("side", () => {
    if (shown() && !was) refreshGitSoon(app);
    was = shown();
  });
  let polling = false;
  const poll = () => {
    if (!shown() || polling) return;
    polling = true;
    void refreshGit(app, true).finally(() => (polling = false));
  };
  addEventListener("focus", poll);
  setInterval(poll, gitPollMs);
}

const gitPollMs = 3000;
