// The page's state, in one place. Views render from it and from its change
// notices only; nothing they show is kept in the DOM alone (STYLE.md 13).
// The shared part mirrors the record (MCP results and notifications); the
// rest is this page's own: which tab is active, each tab's CodeMirror
// EditorState (text, selection, undo history), what the disk held when the
// tab last looked, and the notices a person has to act on.

import type { EditorState, Text } from "@codemirror/state";
import type { ChangeEvent, LinkState } from "./mcp";
import type { EOL } from "./text";
import type { GitStatusResult as GitStatus, HistoryResult, TreeEntry, WorkspaceGetResult } from "./wire";

export type BufferRec = WorkspaceGetResult["buffers"][number];

export type Entry = TreeEntry;

/** A file the page cannot show as text: editor_open's refusal, and the
 * file's size when the tree knows it. */
export interface Unreadable {
  code: string;
  message: string;
  size: number | null;
}

/** A change made elsewhere that the person has to decide about. */
export interface Remote {
  kind: "modified" | "created" | "deleted" | "restored";
  by: string;
  cause: string;
}

export class Tab {
  /** The record's buffer, or null for a tab the record does not list (a
   * read-only look at a file too large to record, or a dirty tab that
   * another surface closed). */
  record: BufferRec | null = null;
  language = "plaintext";
  loading: Promise<void> | null = null;
  /** What the disk held when this tab last looked (BOM off): the text the
   * person's edits are made over. */
  disk: { text: Text; version: string } | null = null;
  /** The version the person's edits are made over: save sends it as
   * expected_version. Behind disk.version after a change elsewhere. */
  over = "";
  bom = false;
  eol: EOL = "lf";
  state: EditorState | null = null;
  /** Why the tab is read-only, when it is. */
  readOnly: string | null = null;
  /** Why the file cannot be shown as text (binary, unreadable, gone):
   * the tab says so in place of an editor. */
  unreadable: Unreadable | null = null;
  /** The tab shows its changes inline, against this revision (":" the
   * index). */
  inlineDiff: { rev: string; original: string } | null = null;
  remote: Remote | null = null;
  /** Another surface closed the buffer (or deleted its file) while this
   * tab held unsaved edits: the record keeps them as a detached draft. */
  closedElsewhere = false;
  /** The workspace root this tab's file belongs to, when another surface
   * switched the root away from it while the tab held unsaved edits. The
   * tab's path is absolute then, so that a save writes where the edits
   * were made. */
  otherRoot: string | null = null;
  /** The file as another writer left it, when their change overlaps the
   * person's unsaved edits and waits for a merge (rebase.ts); the edits
   * are still over disk. */
  theirs: { text: Text; version: string; by: string } | null = null;
  /** This page keeps a draft of the tab in the record. */
  heldDraft = false;
  /** A save is in flight; change events for the file wait for its answer. */
  saving = false;
  heldEvents: ChangeEvent[] = [];

  private memo: { doc: Text | null; disk: Text | null; dirty: boolean } = { doc: null, disk: null, dirty: false };

  constructor(public path: string) {}

  get name(): string {
    return this.path.slice(this.path.lastIndexOf("/") + 1) || this.path;
  }

  get loaded(): boolean {
    return this.state !== null;
  }

  /** Unsaved edits: derived from the text against the disk's, never kept as a flag. */
  get dirty(): boolean {
    if (!this.state || !this.disk) return false;
    const doc = this.state.doc;
    if (this.memo.doc !== doc || this.memo.disk !== this.disk.text) {
      this.memo = { doc, disk: this.disk.text, dirty: doc.length !== this.disk.text.length || !doc.eq(this.disk.text) };
    }
    return this.memo.dirty;
  }

  /** Another surface holds a draft of it (the record says dirty, not by us). */
  get dirtyElsewhere(): boolean {
    return !!this.record?.dirty && !this.heldDraft && !this.dirty;
  }
}

export type Aspect = "tree" | "tabs" | "editor" | "banner" | "status" | "dialog" | "side" | "cursor" | "git" | "activity";

/** A side bar view's id ("files", "search", "git", "activity", and the
 * ones features add: views/side.ts). */
export type SideView = string;

export interface Status {
  link: LinkState;
  detail?: string;
  message?: string;
  /** What the message is about ("replace", "save:a.txt"): when that is
   * done (Model.done), the message goes. */
  cause?: string;
  /** Counts messages, so the same words said twice are shown twice. */
  said?: number;
}

export class Model {
  root = "";
  tabs = new Map<string, Tab>();
  order: string[] = [];
  active: string | null = null;
  expanded = new Set<string>();
  /** Listed folders: "" is the root. */
  children = new Map<string, Entry[]>();
  selected: string | null = null;
  side: SideView = "files";
  /** Ctrl+B hid the side bar. */
  sideHidden = false;
  /** The repository's status; null outside one (gitError says why). */
  git: GitStatus | null = null;
  gitError: string | null = null;
  /** The git action running now, and the last one's outcome. */
  gitBusy: string | null = null;
  gitSummary: { text: string; error: boolean } | null = null;
  /** The change journal, newest first, as far back as this page has seen. */
  activity: ChangeEvent[] = [];
  /** Paths other writers changed in turns nobody reviewed yet (turns.ts). */
  unreviewed = new Map<string, HistoryResult["turns"]>();
  status: Status = { link: "connecting" };
  /** Files larger than this open read-only (learned from truncated opens). */
  private listeners = new Map<Aspect, Set<() => void>>();
  private pending = new Set<Aspect>();

  on(aspect: Aspect, fn: () => void): void {
    let set = this.listeners.get(aspect);
    if (!set) this.listeners.set(aspect, (set = new Set()));
    set.add(fn);
  }

  /** Tells the views of these aspects to render; several notices in one
   * task render once. */
  changed(...aspects: Aspect[]): void {
    const first = this.pending.size === 0;
    for (const a of aspects) this.pending.add(a);
    if (first) {
      queueMicrotask(() => {
        const due = [...this.pending];
        this.pending.clear();
        for (const a of due) for (const fn of this.listeners.get(a) ?? []) fn();
      });
    }
  }

  tab(path: string | null): Tab | undefined {
    return path === null ? undefined : this.tabs.get(path);
  }

  get activeTab(): Tab | undefined {
    return this.tab(this.active);
  }

  /** Shows a message in the status bar; with a cause, until that cause
   * is done or another message comes. */
  say(message: string, cause?: string): void {
    this.status = { ...this.status, message, cause, said: (this.status.said ?? 0) + 1 };
    this.changed("status");
  }

  /** The cause is dealt with: its message, if still shown, goes (or gives
   * way to the outcome, when one is given). */
  done(cause: string, outcome?: string): void {
    if (outcome !== undefined) this.say(outcome, cause);
    else if (this.status.cause === cause && this.status.message) this.say("");
  }
}
