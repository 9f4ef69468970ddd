// The git overlay: status, commit, sync and stash through the editor_git_*
// tools, and the gutter's hunks for open tabs. Outside a repository every
// git tool says not_a_repository, and the overlay stays off.

import type { App } from "./app";
import { setHunks } from "./gutter";
import { ToolError } from "./mcp";
import type { Tab } from "./model";
import type { GitHunksResult, GitStatusResult } from "./wire";


export type GitStatus = GitStatusResult;
export type GitEntry = GitStatus["entries"][number];

let timer: ReturnType<typeof setTimeout> | undefined;

/** Re-reads the status soon (several changes in a row read it once). */
export function refreshGitSoon(app: App): void {
  clearTimeout(timer);
  timer = setTimeout(() => void refreshGit(app), 150);
}

export async function refreshGit(app: App): Promise<void> {
  const m = app.model;
  try {
    m.git = await app.link.call<GitStatus>("editor_git_status");
    m.gitError = null;
  } catch (e) {
    m.git = null;
    m.gitError = e instanceof ToolError && e.code === "not_a_repository" ? "not_a_repository" : (e as Error).message;
  }
  m.changed("git", "status");
  for (const tab of m.tabs.values()) if (tab.loaded) void refreshHunks(app, tab);
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
export async function gitAction(app: App, label: string, tool: string, args: Record<string, unknown>): Promise<void> {
  const m = app.model;
  m.gitBusy = label;
  m.gitSummary = null;
  m.changed("git");
  try {
    // Fetch, pull and push say how far they got as they run.
    const onProgress = (done: number, total: number | undefined, message: string | undefined) => {
      if (m.gitBusy === null || !message || message === "done") return;
      m.gitBusy = `${label} ${message}${total ? ` (${Math.min(done, total)}/${total})` : ""}`;
      m.changed("git");
    };
    const r = await app.link.call<{ ok?: boolean; committed?: boolean; summary?: string; sha?: string }>(tool, args, { onProgress });
    const failed = r.ok === false || r.committed === false;
    m.gitSummary = { text: r.summary ?? "done", error: failed };
  } catch (e) {
    m.gitSummary = { text: (e as Error).message, error: true };
  } finally {
    m.gitBusy = null;
  }
  m.changed("git");
  await refreshGit(app);
}
