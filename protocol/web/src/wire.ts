// The request and result of every tool, as the server sends them.
// Generated from the golden schemas (testdata/schemas) by
// TestPageWireTypes in protocol; never edit it: make schemas rewrites it.
// A leaf: it imports nothing, so any module may take its types from here.
//
// A request field the schema does not require is optional; a result
// field the schema lets be null is optional and may be null.

export interface TreeEntry {
  /** Entries of a folder listed within max_depth. */
  children: TreeEntry[];
  /** file, dir, symlink (listed, not followed) or other (a FIFO, socket or device, never opened). */
  kind: "file" | "dir" | "symlink" | "other";
  /** Entries of this folder left out by max_entries. */
  more: number;
  /** Modification time, Unix seconds. */
  mtime: number;
  /** Base name. */
  name: string;
  /** Stored form of the path (root-relative). */
  path: string;
  /** Size in bytes. */
  size: number;
}

/** editor::buffers::close: its arguments. */
export interface BuffersCloseRequest {
  /** Buffer to close. */
  path: string;
}

/** editor::buffers::close: its structured result. */
export interface BuffersCloseResult {
  /** The tab set after closing. */
  buffers: {
    /** True when an editor holds unsaved edits of this file (a draft): the person's view may differ from the disk. */
    dirty: boolean;
    /** The version the draft's edits were made over, when dirty. */
    draft_base: string;
    /** Monaco language id, e.g. go, typescript, plaintext. */
    language: string;
    /** Modification time at the last open or save, Unix seconds. */
    mtime: number;
    /** Root-relative path of the open file (absolute when outside the root). */
    path: string;
    /** Content version at the last open or save: hex byte length, '-', 16 hex digits of FNV-1a 64. Compare for equality only. */
    version: string;
  }[];
  /** True when a buffer was open at the path; false when there was none (not an error). */
  closed: boolean;
  /** Absolute path of the workspace root. */
  root: string;
}

/** editor::buffers::draft: its arguments. */
export interface BuffersDraftRequest {
  /** Version of the file the edits were made over; required with content. */
  base_version?: string;
  /** The unsaved text to keep; null or absent clears the draft. */
  content?: string;
  /** Open buffer whose draft to keep, clear or read. */
  path: string;
  /** Return the draft's content and change nothing. */
  read?: boolean;
}

/** editor::buffers::draft: its structured result. */
export interface BuffersDraftResult {
  /** Who holds the draft (the surface that last kept it). */
  by: string;
  /** With read: the draft's text. */
  content?: string | null;
  /** True when a draft is kept for it now. */
  dirty: boolean;
  /** The version the draft was made over. */
  draft_base: string;
  /** The buffer, in stored form (root-relative). */
  path: string;
  /** When it was last kept, RFC 3339. */
  time: string;
}

/** editor::buffers::list: its arguments. */
export interface BuffersListRequest {
  /** Buffers at most (default 100, up to 10,000). */
  limit?: number;
  /** Skip this many buffers (paging). */
  offset?: number;
}

/** editor::buffers::list: its structured result. */
export interface BuffersListResult {
  /** Open files, in the order they were opened; one page of them (offset, limit). */
  buffers: {
    /** True when an editor holds unsaved edits of this file (a draft): the person's view may differ from the disk. */
    dirty: boolean;
    /** The version the draft's edits were made over, when dirty. */
    draft_base: string;
    /** Monaco language id, e.g. go, typescript, plaintext. */
    language: string;
    /** Modification time at the last open or save, Unix seconds. */
    mtime: number;
    /** Root-relative path of the open file (absolute when outside the root). */
    path: string;
    /** Content version at the last open or save: hex byte length, '-', 16 hex digits of FNV-1a 64. Compare for equality only. */
    version: string;
  }[];
  /** How many buffers are open in all. */
  buffers_total: number;
  /** Buffers past this page; call again with offset raised by limit for them. */
  more: number;
  /** Absolute path of the workspace root. */
  root: string;
}

/** editor::changes: its arguments. */
export interface ChangesRequest {
  /** Events at most (default 100, up to 10,000); more counts the rest. */
  limit?: number;
  /** Only events at or under this path (moves from or to it too). */
  path?: string;
  /** Cursor from a previous call; omit for the oldest event kept. */
  since?: string;
}

/** editor::changes: its structured result. */
export interface ChangesResult {
  /** editor::changed events after the cursor, oldest first. */
  changes: {
    /** Lines added. */
    added: number;
    /** Who wrote: the MCP client's name and 4 hex of its session (claude-code#3f2a), cli for editord call, or external. */
    by: string;
    /** Function id that made the write (editor_save), or external for a write by another program. */
    cause: string;
    /** For a move: the path it came from. */
    from?: string | null;
    /** What happened to the path. */
    kind: "created" | "modified" | "deleted" | "moved";
    /** Unified diff of the change, capped at event_patch_bytes. */
    patch: string;
    /** Root-relative path that changed (the destination for a move). */
    path: string;
    /** Lines removed. */
    removed: number;
    /** The workspace root the path is relative to. */
    root: string;
    /** Position in the journal; increases by one per event. */
    seq: number;
    /** When the change was recorded, RFC 3339 with nanoseconds, UTC. */
    time: string;
    /** The patch was cut at event_patch_bytes; call editor_git_hunks for the whole diff. */
    truncated: boolean;
    /** Version of the new content, when it is known. */
    version?: string | null;
  }[];
  /** Pass as since next time to get only newer events (after the last one returned). */
  cursor: string;
  /** Events after cursor that limit left out; call again with since set to cursor for them. */
  more: number;
  /** True when events after your cursor were already dropped from the journal (or it restarted): you missed some, so re-read the files you care about. */
  reset: boolean;
}

/** editor::create: its arguments. */
export interface CreateRequest {
  /** Initial text of a file. */
  content?: string;
  /** file or folder. */
  kind: "file" | "folder";
  /** Path to create. */
  path: string;
}

/** editor::create: its structured result. */
export interface CreateResult {
  /** False only for a folder that already existed. */
  created: boolean;
  /** file or folder. */
  kind: string;
  /** Stored form of the path. */
  path: string;
  /** The workspace root the call used: relative paths are relative to it. */
  root: string;
}

/** editor::delete: its arguments. */
export interface DeleteRequest {
  /** File or folder to delete. */
  path: string;
  /** Delete a non-empty folder with everything in it. */
  recursive?: boolean;
}

/** editor::delete: its structured result. */
export interface DeleteResult {
  /** The tab set after the delete. */
  buffers: {
    /** True when an editor holds unsaved edits of this file (a draft): the person's view may differ from the disk. */
    dirty: boolean;
    /** The version the draft's edits were made over, when dirty. */
    draft_base: string;
    /** Monaco language id, e.g. go, typescript, plaintext. */
    language: string;
    /** Modification time at the last open or save, Unix seconds. */
    mtime: number;
    /** Root-relative path of the open file (absolute when outside the root). */
    path: string;
    /** Content version at the last open or save: hex byte length, '-', 16 hex digits of FNV-1a 64. Compare for equality only. */
    version: string;
  }[];
  /** Buffers that were open at or under the path and are now closed. */
  buffers_closed: string[];
  /** True when the path was removed. */
  deleted: boolean;
  /** Stored form of the removed path. */
  path: string;
  /** Absolute path of the workspace root. */
  root: string;
}

/** editor::diff: its arguments. */
export interface DiffRequest {
  /** New text. */
  after: string;
  /** Old text. */
  before: string;
  /** Unchanged lines around changes (default 3). */
  context_lines?: number;
  /** Name in the patch headers (default file). */
  path?: string;
}

/** editor::diff: its structured result. */
export interface DiffResult {
  /** Lines added. */
  added: number;
  /** One entry per @@ block: 1-based ranges (0 for an empty side) and per-hunk counts. */
  hunks: {
    /** Lines added in this hunk. */
    added: number;
    /** Lines the hunk covers in the new text (0 for a pure deletion). */
    new_lines: number;
    /** First line of the hunk in the new text, 1-based; for an empty new side, the line before the hunk (0 at the start). */
    new_start: number;
    /** Lines the hunk covers in the old text (0 for a pure insertion). */
    old_lines: number;
    /** First line of the hunk in the old text, 1-based; for an empty old side, the line before the hunk (0 at the start), as git writes it. */
    old_start: number;
    /** Lines removed in this hunk. */
    removed: number;
  }[];
  /** True when the two texts are byte-for-byte equal. */
  identical: boolean;
  /** Unified diff, accepted by git apply and patch -p1. Empty when identical or truncated. */
  patch: string;
  /** Lines removed. */
  removed: number;
  /** True when a side was over max_diff_bytes (2,000,000) and no diff was computed. It does not mean no changes. */
  truncated: boolean;
}

/** editor::edit: its arguments. */
export interface EditRequest {
  /** Return the patch, write nothing. */
  dry_run?: boolean;
  /** Replacements, applied in order; all or nothing. */
  edits: {
    /** Replacement ("" deletes). */
    new_text: string;
    /** Exact text to replace, whitespace included; must occur once unless replace_all. */
    old_text: string;
    /** Replace every occurrence (at least one). */
    replace_all?: boolean;
  }[];
  /** Optional: the version you read; if the disk differs, conflict (nothing written). */
  expected_version?: string;
  /** File, root-relative or absolute inside the jail. */
  path: string;
}

/** editor::edit: its structured result. */
export interface EditResult {
  /** Lines added. */
  added: number;
  /** True when the edits are on disk; false for dry_run and on conflict. */
  applied: boolean;
  /** True when expected_version differs from the disk's; nothing was written. */
  conflict: boolean;
  /** On conflict: the version on disk now. */
  disk_version?: string | null;
  /** The file's mtime after this call, Unix seconds. */
  mtime: number;
  /** Unified diff of this edit (git apply accepts it); empty when nothing changes or what changed is over max_diff_bytes. */
  patch: string;
  /** The file, root-relative. */
  path: string;
  /** Lines removed. */
  removed: number;
  /** Occurrences replaced, over all edits. */
  replaced: number;
  /** The workspace root the call used: relative paths are relative to it. */
  root: string;
  /** The file's version after this call (the disk's on dry_run or conflict). */
  version: string;
}

/** editor::find: its arguments. */
export interface FindRequest {
  /** Also untracked, not ignored files (default true). */
  include_untracked?: boolean;
  /** Matches to return (default 50, at most 10,000). */
  limit?: number;
  /** Letters in order, case-insensitive ("usrctl", "tree/mod.rs"). */
  query: string;
}

/** editor::find: its structured result. */
export interface FindResult {
  /** True when candidates came from git's index (tracked files, plus untracked ones when include_untracked); false when from a walk honouring .gitignore outside a repository. */
  from_git: boolean;
  /** Best first; ties go to the shorter path, then byte order. */
  matches: {
    /** Root-relative path, exactly as on disk (spaces, unicode and quotes kept). */
    path: string;
    /** Byte offsets into path of the matched query characters, for highlighting. */
    positions: number[];
    /** Higher is better; compare scores within one response only. */
    score: number;
  }[];
  /** The workspace root the call used: relative paths are relative to it. */
  root: string;
  /** How many candidate paths were ranked. */
  scanned: number;
  /** True when the workspace has more than max_find_candidates (200,000) candidates: only the first ones in byte order were ranked fuzzily, though a file asked for by its exact path or file name is found beyond them. */
  truncated: boolean;
}

/** editor::git::blame: its arguments. */
export interface GitBlameRequest {
  /** Last line (default start+199). */
  end?: number;
  /** File, root-relative. */
  path: string;
  /** Revision (default HEAD). */
  rev?: string;
  /** First line, 1-based. */
  start?: number;
}

/** editor::git::blame: its structured result. */
export interface GitBlameResult {
  /** The requested lines, in order, as git blame --porcelain attributes them. */
  lines: {
    /** Author name. */
    author: string;
    /** Author date, Unix seconds. */
    date: number;
    /** Line number in the file at rev. */
    line: number;
    /** The line's number in that commit's version. */
    orig_line: number;
    /** The file's name in that commit (differs after a rename), root-relative. */
    orig_path: string;
    /** The commit that last changed the line. */
    sha: string;
    /** The commit's subject. */
    summary: string;
    /** The line, without its line ending. */
    text: string;
  }[];
  /** The file, root-relative. */
  path: string;
  /** Lines in the file at rev. */
  total_lines: number;
}

/** editor::git::branch: its arguments. */
export interface GitBranchRequest {
  /** list, create, switch or delete. */
  action?: "list" | "create" | "switch" | "delete";
  /** delete: even if unmerged. */
  force?: boolean;
  /** The branch. */
  name?: string;
  /** create: where it starts. */
  rev?: string;
}

/** editor::git::branch: its structured result. */
export interface GitBranchResult {
  /** The action, as requested. */
  action: string;
  /** list: local branches, then remote-tracking ones, by name. */
  branches: {
    /** Commits the branch has that its upstream lacks. */
    ahead: number;
    /** Commits the upstream has that the branch lacks (as of the last fetch). */
    behind: number;
    /** True for the checked-out branch. */
    current: boolean;
    /** main, or origin/main for a remote-tracking branch. */
    name: string;
    /** True for a remote-tracking branch. */
    remote: boolean;
    /** The commit it points at. */
    sha: string;
    /** That commit's subject. */
    subject: string;
    /** Local branches: the upstream (origin/main); null when none. */
    upstream?: string | null;
  }[];
  /** True when done; false when refused (summary says why and what to do). */
  ok: boolean;
  /** create/switch: the branch's commit; delete: the commit it pointed at. */
  sha: string;
  /** What happened, or why not. */
  summary: string;
}

/** editor::git::commit: its arguments. */
export interface GitCommitRequest {
  /** Commit message; may be empty only to finish a merge. */
  message: string;
  /** Commit just these files or folders. */
  paths?: string[];
  /** Stage every change first (default). */
  stage_all?: boolean;
}

/** editor::git::commit: its structured result. */
export interface GitCommitResult {
  /** True when a commit was made; false when there was nothing to commit (see summary). */
  committed: boolean;
  /** The new commit's full SHA; empty when nothing was committed. */
  sha: string;
  /** What happened, as git says it: "[main 1a2b3c4] subject" and the files/lines changed, or why nothing was committed. */
  summary: string;
}

/** editor::git::hunks: its arguments. */
export interface GitHunksRequest {
  /** worktree: index→file; index: HEAD→index; head: HEAD→file; upstream, rev: commit→file. */
  against: "worktree" | "index" | "head" | "upstream" | "rev";
  /** Unchanged lines around each hunk (default 0). */
  context_lines?: number;
  /** File, root-relative or absolute inside the jail. */
  path: string;
  /** against rev: the revision. */
  rev?: string;
}

/** editor::git::hunks: its structured result. */
export interface GitHunksResult {
  /** Lines added in total. */
  added: number;
  /** What was compared, as requested. */
  against: string;
  /** One entry per changed region: 1-based old_start/old_lines and new_start/new_lines (a side with 0 lines starts at the line before it, as in git), with per-hunk added/removed counts. */
  hunks: {
    /** Lines added in this hunk. */
    added: number;
    /** Lines the hunk covers in the new text (0 for a pure deletion). */
    new_lines: number;
    /** First line of the hunk in the new text, 1-based; for an empty new side, the line before the hunk (0 at the start). */
    new_start: number;
    /** Lines the hunk covers in the old text (0 for a pure insertion). */
    old_lines: number;
    /** First line of the hunk in the old text, 1-based; for an empty old side, the line before the hunk (0 at the start), as git writes it. */
    old_start: number;
    /** Lines removed in this hunk. */
    removed: number;
  }[];
  /** The unified diff (--- a/<path> / +++ b/<path>), accepted by git apply. Empty when there is no change. */
  patch: string;
  /** The file, root-relative. */
  path: string;
  /** Lines removed in total. */
  removed: number;
  /** The workspace root the call used: relative paths are relative to it. */
  root: string;
  /** True when git does not track the file: hunks is empty, the whole file is new. */
  untracked: boolean;
}

/** editor::git::log: its arguments. */
export interface GitLogRequest {
  /** next_cursor of the previous page. */
  cursor?: number;
  /** Commits per page (max 10000). */
  limit?: number;
  /** One file's history, through renames. */
  path?: string;
  /** Where history starts. */
  rev?: string;
}

/** editor::git::log: its structured result. */
export interface GitLogResult {
  /** Commits, newest first, as git log orders them. */
  entries: {
    /** Lines added against the first parent (git log --numstat; 0 for merges and binary files). */
    added: number;
    /** Author name. */
    author: string;
    /** Author date, Unix seconds. */
    date: number;
    /** Author email. */
    email: string;
    /** Files changed against the first parent. */
    files: number;
    /** Parent SHAs; two or more for a merge. */
    parents: string[];
    /** With path: the file's name in this commit (it changes across renames). */
    path: string;
    /** Lines removed against the first parent. */
    removed: number;
    /** The commit's full SHA. */
    sha: string;
    /** First line of the message. */
    subject: string;
  }[];
  /** Pass as cursor for the next page; null when this page is the last. */
  next_cursor?: number | null;
}

/** editor::git::merge: its arguments. */
export interface GitMergeRequest {
  /** merge rev, or abort or continue one in progress. */
  action?: "merge" | "abort" | "continue";
  /** The merge commit's message (default git's). */
  message?: string;
  /** merge: the branch, tag or commit. */
  rev?: string;
}

/** editor::git::merge: its structured result. */
export interface GitMergeResult {
  /** The action, as requested. */
  action: string;
  /** The merge commit, or the new tip after a fast-forward; empty otherwise. */
  commit: string;
  /** Root-relative paths left with conflict markers (stages 1-3 in the index). */
  conflicts: string[];
  /** True when the branch simply moved forward (no merge commit). */
  fast_forward: boolean;
  /** True when merged, aborted or continued. False when refused (local changes in the way) or when conflicts remain; summary says which and what to do. */
  ok: boolean;
  /** What happened, or why not, and the next step. */
  summary: string;
}

/** editor::git::restore: its arguments. */
export interface GitRestoreRequest {
  /** The file's version (editor_open). */
  expected_version?: string;
  /** Overwrite without a guard. */
  force?: boolean;
  /** File, root-relative. */
  path: string;
  /** Source: ":" the staged version (default) or a revision. */
  rev?: string;
}

/** editor::git::restore: its structured result. */
export interface GitRestoreResult {
  /** Lines added to the working file. */
  added: number;
  /** True when nothing was written because the file is not at expected_version (or no guard was sent); see conflict_patch. */
  conflict: boolean;
  /** On conflict: the diff from the disk's content to the restored one. */
  conflict_patch?: string | null;
  /** True when the file did not exist and was created. */
  created: boolean;
  /** The file, root-relative. */
  path: string;
  /** Lines removed from the working file. */
  removed: number;
  /** True when the working file now holds the source's content. */
  restored: boolean;
  /** The source, as given (":" by default). */
  rev: string;
  /** The file's version afterwards (on conflict: the disk's). */
  version: string;
}

/** editor::git::show: its arguments. */
export interface GitShowRequest {
  /** Lines (default: to the end). */
  limit?: number;
  /** First line, 1-based. */
  offset?: number;
  /** File, root-relative or absolute inside the jail. */
  path: string;
  /** Revision as git rev-parse reads it; ":" staged, ":1"-":3" conflict stages. */
  rev?: string;
}

/** editor::git::show: its structured result. */
export interface GitShowResult {
  /** The file's content at that revision, byte for byte (a symlink's target text). Empty when exists is false. */
  content: string;
  /** Line number of the last line of content (start_line-1 when content is empty). */
  end_line: number;
  /** False when the path does not exist at that revision (a file added since, or HEAD of a repository with no commit yet). */
  exists: boolean;
  /** The file, root-relative. */
  path: string;
  /** The revision, echoed as given. */
  rev: string;
  /** The workspace root the call used: relative paths are relative to it. */
  root: string;
  /** Line number of the first line of content, 1-based. */
  start_line: number;
  /** Lines of the whole file at that revision. */
  total_lines: number;
}

/** editor::git::stash: its arguments. */
export interface GitStashRequest {
  /** push, pop, apply, drop, list or show. */
  action: "push" | "pop" | "apply" | "drop" | "list" | "show";
  /** push: untracked files too (-u). */
  include_untracked?: boolean;
  /** push: description. */
  message?: string;
  /** push, show: only these paths. */
  paths?: string[];
  /** stash@{n} (default 0). */
  stash?: string;
}

/** editor::git::stash: its structured result. */
export interface GitStashResult {
  /** The action, as requested. */
  action: string;
  /** pop/apply: root-relative paths left with conflict markers (stages 1-3 in the index). */
  conflicts: string[];
  /** list: the stashes, newest first. */
  entries: {
    /** The branch it was made on. */
    branch: string;
    /** When it was made, Unix seconds. */
    date: number;
    /** n of stash@{n}; 0 is the newest. */
    index: number;
    /** As git stash list shows it. */
    message: string;
    /** stash@{n}. */
    name: string;
  }[];
  /** show: the paths the stash changes (root-relative; the patch has the repository's); stashed untracked files end in " (untracked)". */
  files: string[];
  /** True when the action was done. False when nothing was: no changes to save, no such stash, local changes in the way, or a pop/apply that left conflicts (the stash is then kept); summary says which. */
  ok: boolean;
  /** show: the stash's changes against the commit it was made on, as a unified diff. */
  patch: string;
  /** What happened, or why not, naming the files in the way and the next step. */
  summary: string;
}

/** editor::git::status: its arguments. */
export interface GitStatusRequest {}

/** editor::git::status: its structured result. */
export interface GitStatusResult {
  /** Commits on the branch that the upstream lacks (0 without an upstream). */
  ahead: number;
  /** Commits on the upstream that the branch lacks, as of the last fetch (0 without an upstream). */
  behind: number;
  /** Current branch (main); null on a detached HEAD. */
  branch?: string | null;
  /** True when nothing but ignored files differs from HEAD: no staged, unstaged or untracked change. */
  clean: boolean;
  /** One row per changed path, like git status --porcelain=v2 --untracked-files=all: tracked changes sorted by path, then untracked files sorted by path. Ignored files are not listed. */
  entries: {
    /** Change between HEAD and the index (what a commit would record): git status's first letter, as a word. */
    index: "modified" | "added" | "deleted" | "renamed" | "copied" | "typechange" | "untracked" | "ignored" | "conflicted" | "unchanged";
    /** Root-relative path (stored form). A nested repository is listed once with a trailing slash (vendor/lib/). */
    path: string;
    /** For a staged rename (index renamed): the old path, root-relative. */
    renamed_from?: string | null;
    /** True when the index side changed (index is not unchanged or untracked). */
    staged: boolean;
    /** Change between the index and the working file (not yet staged): git status's second letter, as a word. */
    worktree: "modified" | "added" | "deleted" | "renamed" | "copied" | "typechange" | "untracked" | "ignored" | "conflicted" | "unchanged";
  }[];
  /** The workspace root the call used: relative paths are relative to it. */
  root: string;
  /** The branch's upstream as git shows it (origin/main); null when none is configured. */
  upstream?: string | null;
}

/** editor::git::sync: its arguments. */
export interface GitSyncRequest {
  /** fetch, pull or push. */
  action: "fetch" | "pull" | "push";
  /** pull: ff-only or merge (rebase unsupported). */
  mode?: "ff-only" | "merge" | "rebase";
}

/** editor::git::sync: its structured result. */
export interface GitSyncResult {
  /** The action, as requested. */
  action: string;
  /** Afterwards: commits on the branch that its upstream lacks. */
  ahead: number;
  /** Afterwards: commits on the upstream that the branch lacks. */
  behind: number;
  /** pull with mode merge: root-relative paths left with conflict markers. */
  conflicts: string[];
  /** True when the action succeeded (also when there was nothing to do). False when the remote could not be reached or refused, the network hung past git_timeout_ms, a pull was refused, or a merge left conflicts; summary says which. */
  ok: boolean;
  /** True when the remote was not reached: ahead and behind are as of the last completed fetch, not the remote now. */
  stale: boolean;
  /** What happened, or why not, and the next step. */
  summary: string;
}

/** editor::git::undo-commit: its arguments. */
export interface GitUndoCommitRequest {}

/** editor::git::undo-commit: its structured result. */
export interface GitUndoCommitResult {
  /** The undone commit's message, to reuse when committing again. */
  message: string;
  /** The SHA of the commit that was undone (HEAD@{1} until HEAD moves again). */
  undone_sha: string;
}

/** editor::move: its arguments. */
export interface MoveRequest {
  /** Path to move. */
  from: string;
  /** Replace an existing file at to. */
  overwrite?: boolean;
  /** New path; parents are created. */
  to: string;
}

/** editor::move: its structured result. */
export interface MoveResult {
  /** The tab set after the move. */
  buffers: {
    /** True when an editor holds unsaved edits of this file (a draft): the person's view may differ from the disk. */
    dirty: boolean;
    /** The version the draft's edits were made over, when dirty. */
    draft_base: string;
    /** Monaco language id, e.g. go, typescript, plaintext. */
    language: string;
    /** Modification time at the last open or save, Unix seconds. */
    mtime: number;
    /** Root-relative path of the open file (absolute when outside the root). */
    path: string;
    /** Content version at the last open or save: hex byte length, '-', 16 hex digits of FNV-1a 64. Compare for equality only. */
    version: string;
  }[];
  /** Old path, stored form. */
  from: string;
  /** How many open buffers and expanded folders were rewritten to the new location. */
  remapped: number;
  /** Absolute path of the workspace root. */
  root: string;
  /** New path, stored form. */
  to: string;
}

/** editor::open: its arguments. */
export interface OpenRequest {
  /** Lines to read (default: to the end). */
  limit?: number;
  /** First line to read, 1-based. */
  offset?: number;
  /** File, root-relative or absolute inside the jail. */
  path: string;
  /** false: read without adding a tab in the user's editor. */
  tab?: boolean;
}

/** editor::open: its structured result. */
export interface OpenResult {
  /** The lines asked for (the whole file by default), byte for byte with their line endings. */
  content: string;
  /** Line number of the last line of content (start_line-1 when content is empty). */
  end_line: number;
  /** Line endings present: lf, crlf, mixed, or none (no line ending at all). */
  eol: "lf" | "crlf" | "mixed" | "none";
  /** Monaco language id, e.g. go, typescript, plaintext. */
  language: string;
  /** Modification time, Unix seconds. */
  mtime: number;
  /** The file, in stored form (root-relative). */
  path: string;
  /** The workspace root the call used: relative paths are relative to it. */
  root: string;
  /** Full size of the file in bytes. */
  size: number;
  /** Line number of the first line of content, 1-based. */
  start_line: number;
  /** Lines in the whole file (a last line without a newline counts). */
  total_lines: number;
  /** True when what was asked for was over max_file_bytes and was cut: a whole-file read returns its beginning and records no buffer; a range ends early at end_line. */
  truncated: boolean;
  /** The whole file's version, for expected_version of editor_save or editor_edit (only a truncated whole-file read gives its prefix's version). */
  version: string;
}

/** editor::replace: its arguments. */
export interface ReplaceRequest {
  /** As in editor_search. */
  ignore_case?: boolean;
  /** As in editor_search. */
  literal?: boolean;
  /** Files to preview (a dry run). */
  paths?: string[];
  /** As in editor_search. */
  pattern: string;
  /** As in editor_search. */
  whole_word?: boolean;
  /** Replacement; $1, ${name} insert groups unless literal. */
  with: string;
  /** Files to write: path to version from the dry run. */
  write?: Record<string, string>;
}

/** editor::replace: its structured result. */
export interface ReplaceResult {
  /** One per path asked, in path order. */
  files: {
    /** True when the file is no longer at the version given in write: nothing was written. */
    conflict: boolean;
    /** Unified diff of the change; empty when nothing changes or it is over max_diff_bytes. */
    patch: string;
    /** The file, root-relative. */
    path: string;
    /** Matches replaced (or to replace, on a dry run). */
    replaced: number;
    /** Why the file was left alone: not_found, binary, too_large, a refusal's code. */
    skipped: string;
    /** The version the replacement was computed on; after a write, the new version. Pass it back in write. */
    version: string;
    /** True when the new text is on disk. */
    written: boolean;
  }[];
  /** The workspace root the call used: relative paths are relative to it. */
  root: string;
  /** Files written (0 on a dry run). */
  written: number;
}

/** editor::save: its arguments. */
export interface SaveRequest {
  /** The whole new content, written byte for byte. */
  content: string;
  /** Mtime guard (Unix seconds) if no expected_version. */
  expected_mtime?: number;
  /** The version you read; a different disk version is a conflict. */
  expected_version?: string;
  /** Overwrite with no guard (a deliberate clobber). */
  force?: boolean;
  /** File, root-relative or absolute inside the jail. */
  path: string;
}

/** editor::save: its structured result. */
export interface SaveResult {
  /** Lines added relative to what was on disk. */
  added: number;
  /** True when nothing was written because the file changed since the guard's version; see conflict_patch. */
  conflict: boolean;
  /** On conflict: unified diff from the content on disk now to the content you sent. Reconcile, then save again with disk_version. */
  conflict_patch?: string | null;
  /** True when the file did not exist and was created. */
  created: boolean;
  /** On conflict: the mtime on disk now, Unix seconds. */
  disk_mtime?: number | null;
  /** On conflict: the version on disk now. */
  disk_version?: string | null;
  /** On success the new mtime; on conflict the disk's mtime. Unix seconds. */
  mtime: number;
  /** The file, in stored form (root-relative). */
  path: string;
  /** Lines removed relative to what was on disk. */
  removed: number;
  /** The workspace root the call used: relative paths are relative to it. */
  root: string;
  /** True when the content is now on disk. */
  saved: boolean;
  /** On success the new content's version (use it as the next expected_version); on conflict the disk's version. */
  version: string;
}

/** editor::search: its arguments. */
export interface SearchRequest {
  /** Lines shown around each match (at most 20). */
  context_lines?: number;
  /** Skip paths matching a glob (same syntax), e.g. "vendor". */
  exclude_glob?: string[];
  /** Ignore letter case. */
  ignore_case?: boolean;
  /** Only paths matching a glob: no "/" matches a name at any depth ("*.go"), "/" the root-relative path, "**" any folders, "!" excludes. */
  include_glob?: string[];
  /** pattern is plain text. */
  literal?: boolean;
  /** Matches kept (files for output files); default 2000, at most 20,000. */
  max_matches?: number;
  /** lines (default), files or count. */
  output?: "lines" | "files" | "count";
  /** RE2 regexp (Go syntax), or plain text with literal; never spans lines. */
  pattern: string;
  /** Match whole words only (\b boundaries). */
  whole_word?: boolean;
}

/** editor::search: its structured result. */
export interface SearchResult {
  /** Files with matches, in byte order of path (a.txt before a/b.txt). */
  files: {
    /** With context_lines: the lines around the hits that are not hits themselves, in line order. */
    context: {
      /** 1-based line number. */
      line: number;
      /** The line without its line ending, cut to 500 bytes. */
      text: string;
    }[];
    /** For output count: matching lines in this file. */
    count: number;
    /** Matching lines, in line order (empty for output files and count). */
    hits: {
      /** 1-based byte column of the first match in the line. */
      column: number;
      /** 1-based line number. */
      line: number;
      /** Every match in the line as [start, end) byte offsets into text (clipped to it). */
      ranges: number[][];
      /** The line without its line ending, cut to 500 bytes on a UTF-8 boundary. */
      text: string;
    }[];
    /** Root-relative path of the file. */
    path: string;
  }[];
  /** Files considered, in path order, before the search ended (all of them unless truncated). */
  files_scanned: number;
  /** The workspace root the call used: relative paths are relative to it. */
  root: string;
  /** Files considered but not searched to their end, and why (binary, unreadable, a line over 8 MiB); the first 20 in path order. */
  skipped: {
    /** Root-relative path of the file. */
    path: string;
    /** Why: binary (a NUL byte; hits before it are kept), unreadable, not a regular file, or a line longer than 8 MiB. */
    reason: string;
  }[];
  /** How many files were skipped in all. */
  skipped_total: number;
  /** Matching lines found (at most max_matches); for output files, matching files. */
  total: number;
  /** True when more matches exist than max_matches; narrow the pattern or globs, or raise max_matches. */
  truncated: boolean;
}

/** editor::tree: its arguments. */
export interface TreeRequest {
  /** Folders to mark collapsed, with all beneath them. */
  collapse?: string[];
  /** Folders to mark expanded (persisted, every surface). */
  expand?: string[];
  /** Levels to list; 1 = direct children. */
  max_depth?: number;
  /** Entries listed at most (up to 10,000). */
  max_entries?: number;
  /** Folder to list; default the root. */
  path?: string;
}

/** editor::tree: its structured result. */
export interface TreeResult {
  /** Folders first, then files, each sorted by name. Noise folders (.git, node_modules, ...) and deny-glob matches are left out. */
  entries: {
    /** Entries of a folder listed within max_depth. */
    children: TreeEntry[];
    /** file, dir, symlink (listed, not followed) or other (a FIFO, socket or device, never opened). */
    kind: "file" | "dir" | "symlink" | "other";
    /** Entries of this folder left out by max_entries. */
    more: number;
    /** Modification time, Unix seconds. */
    mtime: number;
    /** Base name. */
    name: string;
    /** Stored form of the path (root-relative). */
    path: string;
    /** Size in bytes. */
    size: number;
  }[];
  /** Folders expanded for every surface, after this call's expand/collapse. */
  expanded: string[];
  /** Entries within max_depth left out by max_entries (counted up to 10,000 scanned). */
  omitted: number;
  /** Stored form of the listed folder; empty for the root. */
  path: string;
  /** Absolute path of the workspace root. */
  root: string;
  /** Entries looked at; 10,000 means the count stopped there. */
  scanned: number;
  /** True when entries were left out: omitted counts them. */
  truncated: boolean;
}

/** editor::workspace::focus: its arguments. */
export interface WorkspaceFocusRequest {
  /** Cursor column, 1-based, in characters. */
  column: number;
  /** Cursor line, 1-based. */
  line: number;
  /** File of the active tab, root-relative. */
  path: string;
  /** The selected range, when something is selected. */
  selection?: {
    /** Column just after the selection, 1-based. */
    end_column: number;
    /** Last line, 1-based. */
    end_line: number;
    /** First column, 1-based. */
    start_column: number;
    /** First line, 1-based. */
    start_line: number;
  };
}

/** editor::workspace::focus: its structured result. */
export interface WorkspaceFocusResult {
  /** The focus now recorded. */
  focus?: {
    /** Who reported it (the page's client name and session). */
    by: string;
    /** Cursor column, 1-based, in characters. */
    column: number;
    /** Cursor line, 1-based. */
    line: number;
    /** File of the active tab, root-relative. */
    path: string;
    /** The selected range, when something is selected. */
    selection?: {
      /** Column just after the selection, 1-based. */
      end_column: number;
      /** Last line, 1-based. */
      end_line: number;
      /** First column, 1-based. */
      start_column: number;
      /** First line, 1-based. */
      start_line: number;
    } | null;
    /** When it was reported, RFC 3339. */
    time: string;
  } | null;
}

/** editor::workspace::get: its arguments. */
export interface WorkspaceGetRequest {
  /** At most this many buffers and this many expanded folders (default 100, at most 10,000). */
  limit?: number;
  /** Skip this many buffers and expanded folders (paging). */
  offset?: number;
}

/** editor::workspace::get: its structured result. */
export interface WorkspaceGetResult {
  /** Open files (the tab set), in the order they were opened; one page of them (offset, limit). */
  buffers: {
    /** True when an editor holds unsaved edits of this file (a draft): the person's view may differ from the disk. */
    dirty: boolean;
    /** The version the draft's edits were made over, when dirty. */
    draft_base: string;
    /** Monaco language id, e.g. go, typescript, plaintext. */
    language: string;
    /** Modification time at the last open or save, Unix seconds. */
    mtime: number;
    /** Root-relative path of the open file (absolute when outside the root). */
    path: string;
    /** Content version at the last open or save: hex byte length, '-', 16 hex digits of FNV-1a 64. Compare for equality only. */
    version: string;
  }[];
  /** How many buffers are open in all. */
  buffers_total: number;
  /** Unsaved drafts of files no longer open (closed elsewhere, or deleted), kept until their holder saves or discards them; open the file to see it dirty again. */
  detached: {
    /** True when an editor holds unsaved edits of this file (a draft): the person's view may differ from the disk. */
    dirty: boolean;
    /** The version the draft's edits were made over, when dirty. */
    draft_base: string;
    /** Monaco language id, e.g. go, typescript, plaintext. */
    language: string;
    /** Modification time at the last open or save, Unix seconds. */
    mtime: number;
    /** Root-relative path of the open file (absolute when outside the root). */
    path: string;
    /** Content version at the last open or save: hex byte length, '-', 16 hex digits of FNV-1a 64. Compare for equality only. */
    version: string;
  }[];
  /** Folders expanded in the tree, root-relative; one page of them (offset, limit). */
  expanded: string[];
  /** How many folders are expanded in all. */
  expanded_total: number;
  /** Where the person is (active tab and cursor), as their editor last reported; null when unknown. */
  focus?: {
    /** Who reported it (the page's client name and session). */
    by: string;
    /** Cursor column, 1-based, in characters. */
    column: number;
    /** Cursor line, 1-based. */
    line: number;
    /** File of the active tab, root-relative. */
    path: string;
    /** The selected range, when something is selected. */
    selection?: {
      /** Column just after the selection, 1-based. */
      end_column: number;
      /** Last line, 1-based. */
      end_line: number;
      /** First column, 1-based. */
      start_column: number;
      /** First line, 1-based. */
      start_line: number;
    } | null;
    /** When it was reported, RFC 3339. */
    time: string;
  } | null;
  /** Buffers or expanded folders past this page (the larger count); call again with offset raised by limit for them. */
  more: number;
  /** Absolute path of the workspace root. */
  root: string;
}

/** editor::workspace::open: its arguments. */
export interface WorkspaceOpenRequest {
  /** Folder to make the root: absolute, or relative to the current root. */
  root: string;
}

/** editor::workspace::open: its structured result. */
export interface WorkspaceOpenResult {
  /** Open files (the tab set), in the order they were opened; one page of them (offset, limit). */
  buffers: {
    /** True when an editor holds unsaved edits of this file (a draft): the person's view may differ from the disk. */
    dirty: boolean;
    /** The version the draft's edits were made over, when dirty. */
    draft_base: string;
    /** Monaco language id, e.g. go, typescript, plaintext. */
    language: string;
    /** Modification time at the last open or save, Unix seconds. */
    mtime: number;
    /** Root-relative path of the open file (absolute when outside the root). */
    path: string;
    /** Content version at the last open or save: hex byte length, '-', 16 hex digits of FNV-1a 64. Compare for equality only. */
    version: string;
  }[];
  /** How many buffers are open in all. */
  buffers_total: number;
  /** Unsaved drafts of files no longer open (closed elsewhere, or deleted), kept until their holder saves or discards them; open the file to see it dirty again. */
  detached: {
    /** True when an editor holds unsaved edits of this file (a draft): the person's view may differ from the disk. */
    dirty: boolean;
    /** The version the draft's edits were made over, when dirty. */
    draft_base: string;
    /** Monaco language id, e.g. go, typescript, plaintext. */
    language: string;
    /** Modification time at the last open or save, Unix seconds. */
    mtime: number;
    /** Root-relative path of the open file (absolute when outside the root). */
    path: string;
    /** Content version at the last open or save: hex byte length, '-', 16 hex digits of FNV-1a 64. Compare for equality only. */
    version: string;
  }[];
  /** Folders expanded in the tree, root-relative; one page of them (offset, limit). */
  expanded: string[];
  /** How many folders are expanded in all. */
  expanded_total: number;
  /** Where the person is (active tab and cursor), as their editor last reported; null when unknown. */
  focus?: {
    /** Who reported it (the page's client name and session). */
    by: string;
    /** Cursor column, 1-based, in characters. */
    column: number;
    /** Cursor line, 1-based. */
    line: number;
    /** File of the active tab, root-relative. */
    path: string;
    /** The selected range, when something is selected. */
    selection?: {
      /** Column just after the selection, 1-based. */
      end_column: number;
      /** Last line, 1-based. */
      end_line: number;
      /** First column, 1-based. */
      start_column: number;
      /** First line, 1-based. */
      start_line: number;
    } | null;
    /** When it was reported, RFC 3339. */
    time: string;
  } | null;
  /** Buffers or expanded folders past this page (the larger count); call again with offset raised by limit for them. */
  more: number;
  /** Absolute path of the workspace root. */
  root: string;
}
