// The page's own commands (commands.ts): files and tabs, the editor's
// find and go-to-line, the palettes and the shortcuts list, git. Views add
// theirs where they are built (views/side.ts adds one per side view).

import { openSearchPanel, gotoLine } from "@codemirror/search";
import { EditorView } from "@codemirror/view";
import type { App } from "./app";
import { addCommand } from "./commands";
import { activate, closeTab, save } from "./docs";
import { create, reveal } from "./files";
import { discard, gitAction, stage } from "./git";
import { changeCount, goToChange, hideChanges, showChanges } from "./inlinediff";
import { showHelp } from "./views/help";
import { openPalette } from "./views/palette";
import { show } from "./views/side";
import { toggleWrap } from "./wrap";
import { focusedTab } from "./views/split";

const hasTab = (app: App) => !!app.model.activeTab?.state;
const inRepo = (app: App) => !!app.model.git;

/** The next or previous tab, keeping the focus where it was (editor or
 * tab list). */
function cycleTab(app: App, step: 1 | -1, ev?: KeyboardEvent): void {
  const m = app.model;
  const o = m.order;
  if (!o.length) return;
  const i = m.active === null ? -1 : o.indexOf(m.active);
  activate(app, o[(i + (step === 1 ? 1 : o.length - 1)) % o.length]);
  const inEditor = !!(ev?.target as HTMLElement | undefined)?.closest?.(".cm-editor");
  queueMicrotask(() => (inEditor ? app.editor.focus() : document.querySelector<HTMLElement>('.tabs [role=tab][aria-selected="true"]')?.focus()));
}

/** Runs a CodeMirror command on the editor the focus is in (either side
 * of a split), else the main one, focused first. */
function inEditor(app: App, run: (view: EditorView) => boolean): void {
  const dom = document.activeElement?.closest<HTMLElement>(".cm-editor");
  const view = (dom && EditorView.findFromDOM(dom)) || app.editor.view;
  view.focus();
  run(view);
}

export function addCoreCommands(app: App): void {
  const m = app.model;
  const git = (id: string, title: string, label: string, tool: string, args: Record<string, unknown>) =>
    addCommand({ id, title, when: inRepo, run: () => gitAction(app, label, tool, args) });
  // Saves the active tab wherever the focus is (a merge has its own Save
  // button); never the browser's Save as.
  // The tab of the group the focus is in (views/split.ts).
  addCommand({ id: "file.save", title: "File: Save", keys: ["Ctrl+S"], when: (a) => !!focusedTab(a)?.state, run: () => void save(app, focusedTab(app)!) });
  addCommand({ id: "quickOpen", title: "Go to file", keys: ["Ctrl+P"], inDialog: true, run: () => openPalette(app) });
  addCommand({ id: "commands", title: "Show all commands", keys: ["Ctrl+Shift+P", "F1"], inDialog: true, run: () => openPalette(app, ">") });
  addCommand({ id: "help.keys", title: "Help: Keyboard shortcuts", keys: ["?"], run: () => showHelp(app) });
  // VS Code's Ctrl+PageDown/PageUp where they reach the page (an app
  // window), and Alt+PageDown/PageUp, which a browser's tab strip does not
  // take.
  addCommand({ id: "tab.next", title: "View: Next tab", keys: ["Alt+PageDown", "Ctrl+PageDown"], run: (_, ev) => cycleTab(app, 1, ev) });
  addCommand({ id: "tab.previous", title: "View: Previous tab", keys: ["Alt+PageUp", "Ctrl+PageUp"], run: (_, ev) => cycleTab(app, -1, ev) });
  addCommand({ id: "tab.close", title: "View: Close tab", when: (a) => !!a.model.activeTab, run: () => closeTab(app, m.activeTab!) });
  addCommand({ id: "file.new", title: "File: New file…", run: () => create(app, "", "file") });
  addCommand({ id: "file.newFolder", title: "File: New folder…", run: () => create(app, "", "folder") });
  addCommand({ id: "file.reveal", title: "File: Reveal active file in Files", when: (a) => !!a.model.active, run: () => (show(app, "files"), reveal(app, m.active!)) });
  addCommand({ id: "editor.find", title: "Edit: Find and replace in the file", keys: ["Ctrl+F", "Ctrl+H"], when: hasTab, run: () => inEditor(app, openSearchPanel) });
  addCommand({ id: "view.wordWrap", title: "View: Toggle word wrap", keys: ["Alt+Z"], run: () => toggleWrap(app) });
  addCommand({ id: "editor.gotoLine", title: "Go to line…", keys: ["Ctrl+G"], when: hasTab, run: () => inEditor(app, gotoLine) });
  addCommand({
    id: "git.showChanges", title: "Git: Show changes inline", when: (a) => hasTab(a) && inRepo(a),
    run: () => m.activeTab!.inlineDiff ? hideChanges(app, m.activeTab!) : showChanges(app, m.activeTab!, ":").then(() => goToChange(app, m.activeTab!, 0)),
  });
  const changes = (a: App) => !!a.model.activeTab?.inlineDiff && changeCount(a.model.activeTab) > 0;
  addCommand({ id: "git.nextChange", title: "Git: Next change", keys: ["Alt+F5"], when: changes, run: () => goToChange(app, m.activeTab!, 1) });
  addCommand({ id: "git.previousChange", title: "Git: Previous change", keys: ["Shift+Alt+F5"], when: changes, run: () => goToChange(app, m.activeTab!, -1) });
  addCommand({ id: "git.commit", title: "Git: Commit…", when: inRepo, run: () => show(app, "git") });
  addCommand({ id: "git.stageAll", title: "Git: Stage all changes", when: inRepo, run: () => stage(app, ["."]) });
  addCommand({ id: "git.unstageAll", title: "Git: Unstage all changes", when: inRepo, run: () => stage(app, ["."], true) });
  addCommand({ id: "git.stageFile", title: "Git: Stage this file", when: (a) => inRepo(a) && !!a.model.active, run: () => stage(app, [m.active!]) });
  addCommand({
    id: "git.discardFile", title: "Git: Discard changes in this file",
    when: (a) => inRepo(a) && !!a.model.git?.entries.some((e) => e.path === a.model.active && e.worktree !== "unchanged"),
    run: () => discard(app, m.git!.entries.find((e) => e.path === m.active)!),
  });
  git("git.fetch", "Git: Fetch", "Fetching…", "editor_git_sync", { action: "fetch" });
  git("git.pull", "Git: Pull", "Pulling…", "editor_git_sync", { action: "pull" });
  git("git.push", "Git: Push", "Pushing…", "editor_git_sync", { action: "push" });
  git("git.stash", "Git: Stash", "Stashing…", "editor_git_stash", { action: "push", include_untracked: true });
  git("git.pop", "Git: Pop stash", "Popping the stash…", "editor_git_stash", { action: "pop" });
}
