// The git overlay: status, commit, sync and stash through the editor_git_*
// tools, and the gutter's hunks for open tabs. Outside a repository every
// git tool says not_a_repository, and the overlay stays off.

import type { App } from "./app";
import { setHunks } from "./gutter";
import { ToolError } from "./mcp";
import type { Tab } from "./model";
import type { GitHunksResult, GitStatusResult } from "./wire";
import { showChanges } from "./inlinediff";


export type GitStatus = GitStatusResult;
export type GitEntry = GitStatus["entries"][number];

let timer: ReturnType<typeof setTimeout> | undefined;

/** Re-reads the status soon (several changes in a row read it once). */
export function refreshGitSoon(app: App): void {
  clearTimeout(timer);
  timer = setTimeout(() => void refreshGit(app), 150);
}

/** Reads the status and shows it, with every loaded tab's hunks. With
 * onlyIfChanged (a poll), one call: a status equal to the one shown, or
 * a failed read, redraws nothing. */
export async function refreshGit(app: App, onlyIfChanged = false): Promise<void> {
  const m = app.model;
  let git: GitStatus | null = null;
  let gitError: string | null = null;
  try {
    git = await app.link.call<GitStatus>("editor_git_status");
  } catch (e) {
    gitError = e instanceof ToolError && e.code === "not_a_repository" ? "not_a_repository" : (e as Error).message;
  }
  // A poll leaves a failed read to the next one, as it leaves an equal status.
  if (onlyIfChanged && (gitError !== null || JSON.stringify(git) === JSON.stringify(m.git))) return;
  m.git = git;
  m.gitError = gitError;
  m.changed("git", "status");
  for (const tab of m.tabs.values()) {
    if (!tab.loaded) continue;
    void refreshHunks(app, tab);
    // A stage or a commit moves what the inline diff compares against.
    if (tab.inlineDiff) void showChanges(app, tab, tab.inlineDiff.rev);
  }
}

/** Puts the tab's git hunks (index → disk) into its gutter. */
export async function refreshHunks(app: App, tab: Tab): Promise<void> {
  if (!tab.state || tab.readOnly || app.model.gitError === "not_a_repository") return;
  if (tab.remote) {
    // The disk moved under unsaved edits: its hunks describe a text the
    // tab does not show.
    app.editor.apply(tab, { effects: setHunks.of([]) });
    return;
  }
  try {
    const r = await app.link.call<GitHunksResult>("editor_git_hunks", { path: tab.path, against: "worktree", context_lines: 0 });
    app.editor.apply(tab, { effects: setHunks.of(r.untracked ? [] : r.hunks) });
  } catch {
    /* outside a repository, or the file went away */
  }
}

/** Runs a git action, showing it as busy and then its summary; git's own
 * message on failure. */
export function gitAction(app: App, label: string, tool: string, args: Record<string, unknown>): Promise<void> {
  const m = app.model;
  return busy(app, label, async () => {
    // Fetch, pull and push say how far they got as they run.
    const onProgress = (done: number, total: number | undefined, message: string | undefined) => {
      if (m.gitBusy === null || !message || message === "done") return;
      m.gitBusy = `${label} ${message}${total ? ` (${Math.min(done, total)}/${total})` : ""}`;
      m.changed("git");
    };
    const r = await app.link.call<{ ok?: boolean; committed?: boolean; summary?: string; sha?: string }>(tool, args, { onProgress });
    return { text: r.summary ?? "done", error: r.ok === false || r.committed === false };
  });
}

/** Shows the Git panel busy with label while run runs, then its outcome
 * (a refusal's message as an error), and reads the status again. */
async function busy(app: App, label: string, run: () => Promise<{ text: string; error: boolean }>): Promise<void> {
  const m = app.model;
  m.gitBusy = label;
  m.gitSummary = null;
  m.changed("git");
  try {
    m.gitSummary = await run();
  } catch (e) {
    m.gitSummary = { text: (e as Error).message, error: true };
  } finally {
    m.gitBusy = null;
  }
  m.changed("git");
  await refreshGit(app);
}

/** Stages (or unstages) paths: editor_git_stage, shown as a git action. */
export function stage(app: App, paths: string[], unstage = false): Promise<void> {
  return gitAction(app, unstage ? "Unstaging…" : "Staging…", "editor_git_stage", unstage ? { paths, unstage: true } : { paths });
}

/** Discards a file's unstaged changes, as VS Code's Discard Changes: the
 * file goes back to the index's text (editor_git_restore, guarded by the
 * version the person confirmed over); an untracked file, which git has no
 * copy of, is deleted. Asks first: what goes cannot be had back. */
export async function discard(app: App, e: GitEntry): Promise<void> {
  const untracked = e.worktree === "untracked";
  // The version the confirmation is about: a change made after it is a
  // conflict, not discarded unseen.
  const version = untracked || e.worktree === "deleted"
    ? undefined
    : await app.link.call<{ version: string }>("editor_open", { path: e.path, tab: false }).then((r) => r.version, () => undefined);
  const ok = untracked
    ? await app.dialogs.confirm(`Delete ${e.path}?`, `${e.path} is untracked: git has no copy of it, so deleting it cannot be undone.`, "Delete file")
    : await app.dialogs.confirm(`Discard changes in ${e.path}?`, `${e.path} goes back to its staged text (the index's, which is HEAD's when nothing is staged); the changes made since are lost.`, "Discard changes");
  if (!ok) return;
  await busy(app, "Discarding…", async () => {
    if (untracked) {
      await app.link.call("editor_delete", { path: e.path });
      return { text: `Deleted ${e.path}.`, error: false };
    }
    const r = await app.link.call<{ restored: boolean; conflict: boolean }>("editor_git_restore", version ? { path: e.path, expected_version: version } : { path: e.path });
    return r.conflict
      ? { text: `Not discarded: ${e.path} changed since you asked; look at it again, then discard.`, error: true }
      : { text: `Discarded the changes in ${e.path}.`, error: false };
  });
}
