// The request and result of every tool, as the server sends them.
// Generated from the golden schemas (testdata/schemas) by
// TestPageWireTypes in protocol; never edit it: make schemas rewrites it.
// A leaf: it imports nothing, so any module may take its types from here.
//
// A request field the schema does not require is optional; a result
// field the schema lets be null is optional and may be null.

export interface TreeEntry {
  children: TreeEntry[];
  kind: "file" | "dir" | "symlink" | "other";
  more: number;
  mtime: number;
  name: string;
  path: string;
  size: number;
}

/** editor::buffers::close: its arguments. */
export interface BuffersCloseRequest {
  /** Buffer to close. */
  path: string;
}

/** editor::buffers::close: its structured result. */
export interface BuffersCloseResult {
  buffers: {
    dirty: boolean;
    draft_base: string;
    draft_by: string;
    draft_lines: string;
    language: string;
    mtime: number;
    path: string;
    version: string;
  }[];
  closed: boolean;
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
  base_content?: string | null;
  by: string;
  content?: string | null;
  dirty: boolean;
  draft_base: string;
  path: string;
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
  buffers: {
    dirty: boolean;
    draft_base: string;
    draft_by: string;
    draft_lines: string;
    language: string;
    mtime: number;
    path: string;
    version: string;
  }[];
  buffers_total: number;
  more: number;
  root: string;
}

/** editor::changes: its arguments. */
export interface ChangesRequest {
  /** Events at most (up to 10,000); more counts the rest. */
  limit?: number;
  /** Only events at or under this path (moves from or to it too). */
  path?: string;
  /** Cursor from a previous call; omit for the oldest event kept. */
  since?: string;
}

/** editor::changes: its structured result. */
export interface ChangesResult {
  changes: {
    added: number;
    by: string;
    cause: string;
    from?: string | null;
    kind: "created" | "modified" | "deleted" | "moved";
    mode: string;
    patch: string;
    path: string;
    prev?: string | null;
    removed: number;
    root: string;
    seq: number;
    step: number;
    steps: number;
    time: string;
    truncated: boolean;
    turn: string;
    version?: string | null;
  }[];
  cursor: string;
  more: number;
  reset: boolean;
  you: string;
}

/** editor::create: its arguments. */
export interface CreateRequest {
  /** Initial text of a file. */
  content?: string;
  /** "file" or "folder". */
  kind: "file" | "folder";
  /** Path to create. */
  path: string;
}

/** editor::create: its structured result. */
export interface CreateResult {
  created: boolean;
  kind: string;
  path: string;
  root: string;
}

/** editor::definition: its arguments. */
export interface DefinitionRequest {
  /** 1-based column, in characters. */
  column: number;
  /** 1-based line. */
  line: number;
  /** File, root-relative. */
  path: string;
}

/** editor::definition: its structured result. */
export interface DefinitionResult {
  definitions: {
    column: number;
    end_column: number;
    end_line: number;
    line: number;
    path: string;
    text: string;
  }[];
  outside_jail: number;
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
  buffers: {
    dirty: boolean;
    draft_base: string;
    draft_by: string;
    draft_lines: string;
    language: string;
    mtime: number;
    path: string;
    version: string;
  }[];
  buffers_closed: string[];
  deleted: boolean;
  path: string;
  root: string;
}

/** editor::diagnostics: its arguments. */
export interface DiagnosticsRequest {
  /** Without path: go, typescript or python (default: guessed from the root). */
  language?: string;
  /** At most this many (up to 5000). */
  limit?: number;
  /** A file; omit for the workspace. */
  path?: string;
  /** Wait at most this long for the server's check (up to 120000). */
  wait_ms?: number;
}

/** editor::diagnostics: its structured result. */
export interface DiagnosticsResult {
  diagnostics: {
    code: string;
    column: number;
    end_column: number;
    end_line: number;
    line: number;
    message: string;
    path: string;
    severity: string;
    source: string;
    text: string;
  }[];
  errors: number;
  root: string;
  settled: boolean;
  total: number;
  truncated: boolean;
  warnings: number;
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
  added: number;
  hunks: {
    added: number;
    new_lines: number;
    new_start: number;
    old_lines: number;
    old_start: number;
    removed: number;
  }[];
  identical: boolean;
  patch: string;
  removed: number;
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
  /** The version you read: a later change is merged, or conflicts if it overlaps. */
  expected_version?: string;
  /** File path, root-relative or absolute. */
  path: string;
  /** No merge: any later change conflicts. */
  strict?: boolean;
}

/** editor::edit: its structured result. */
export interface EditResult {
  added: number;
  applied: boolean;
  base_version?: string | null;
  conflict: boolean;
  conflicts: {
    base: {
      lines: number;
      start_line: number;
    };
    theirs: {
      lines: number;
      start_line: number;
    };
    yours: {
      lines: number;
      start_line: number;
    };
  }[];
  disk_version?: string | null;
  draft?: {
    base_version: string;
    by: string;
    lines: string;
  } | null;
  held: boolean;
  merged: boolean;
  merged_patch?: string | null;
  mtime: number;
  patch: string;
  path: string;
  removed: number;
  replaced: number;
  root: string;
  theirs_lines: string;
  theirs_patch?: string | null;
  version: string;
  yours_patch?: string | null;
}

/** editor::find: its arguments. */
export interface FindRequest {
  /** Also untracked, not ignored files (default true). */
  include_untracked?: boolean;
  /** Matches to return (default 50, at most 10,000). */
  limit?: number;
  /** Letters in order, case-insensitive ("usrctl", "tree/mod.rs"); a space is anything between ("cluster autoscaler main.go"). */
  query: string;
}

/** editor::find: its structured result. */
export interface FindResult {
  from_git: boolean;
  matches: {
    path: string;
    positions: number[];
    score: number;
  }[];
  root: string;
  scanned: number;
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
  lines: {
    author: string;
    date: number;
    line: number;
    orig_line: number;
    orig_path: string;
    sha: string;
    summary: string;
    text: string;
  }[];
  path: string;
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
  action: string;
  branches: {
    ahead: number;
    behind: number;
    current: boolean;
    name: string;
    remote: boolean;
    sha: string;
    subject: string;
    upstream?: string | null;
  }[];
  ok: boolean;
  sha: string;
  summary: string;
}

/** editor::git::commit: its arguments. */
export interface GitCommitRequest {
  /** Commit message; may be empty only to finish a merge. */
  message: string;
  /** Commit just these files or folders. */
  paths?: string[];
  /** Stage every change first. */
  stage_all?: boolean;
}

/** editor::git::commit: its structured result. */
export interface GitCommitResult {
  committed: boolean;
  sha: string;
  summary: string;
}

/** editor::git::hunks: its arguments. */
export interface GitHunksRequest {
  /** worktree: index→file; index: HEAD→index; head: HEAD→file; upstream, rev: commit→file. */
  against: "worktree" | "index" | "head" | "upstream" | "rev";
  /** Unchanged lines around each hunk. */
  context_lines?: number;
  /** File (omit: all). */
  path?: string;
  /** Without path: under these. */
  paths?: string[];
  /** against rev: the revision. */
  rev?: string;
}

/** editor::git::hunks: its structured result. */
export interface GitHunksResult {
  added: number;
  against: string;
  files: {
    added: number;
    in_patch: boolean;
    path: string;
    removed: number;
    skipped: string;
    untracked: boolean;
  }[];
  hunks: {
    added: number;
    new_lines: number;
    new_start: number;
    old_lines: number;
    old_start: number;
    removed: number;
  }[];
  left_out: number;
  patch: string;
  path: string;
  removed: number;
  root: string;
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
  entries: {
    added: number;
    author: string;
    date: number;
    email: string;
    files: number;
    parents: string[];
    path: string;
    removed: number;
    sha: string;
    subject: string;
  }[];
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
  action: string;
  commit: string;
  conflicts: string[];
  fast_forward: boolean;
  ok: boolean;
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
  added: number;
  conflict: boolean;
  conflict_patch?: string | null;
  created: boolean;
  path: string;
  removed: number;
  restored: boolean;
  rev: string;
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
  content: string;
  end_line: number;
  exists: boolean;
  path: string;
  rev: string;
  root: string;
  start_line: number;
  total_lines: number;
}

/** editor::git::stage: its arguments. */
export interface GitStageRequest {
  /** Files or folders, root-relative; "." for the whole root. */
  paths: string[];
  /** Put HEAD's version back in the index instead, as git restore --staged does (the files on disk are not touched). */
  unstage?: boolean;
}

/** editor::git::stage: its structured result. */
export interface GitStageResult {
  changed: string[];
  summary: string;
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
  action: string;
  conflicts: string[];
  entries: {
    branch: string;
    date: number;
    index: number;
    message: string;
    name: string;
  }[];
  files: string[];
  ok: boolean;
  patch: string;
  summary: string;
}

/** editor::git::status: its arguments. */
export interface GitStatusRequest {}

/** editor::git::status: its structured result. */
export interface GitStatusResult {
  ahead: number;
  behind: number;
  branch?: string | null;
  clean: boolean;
  entries: {
    index: "modified" | "added" | "deleted" | "renamed" | "copied" | "typechange" | "untracked" | "ignored" | "conflicted" | "unchanged";
    path: string;
    renamed_from?: string | null;
    staged: boolean;
    worktree: "modified" | "added" | "deleted" | "renamed" | "copied" | "typechange" | "untracked" | "ignored" | "conflicted" | "unchanged";
  }[];
  root: string;
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
  action: string;
  ahead: number;
  behind: number;
  conflicts: string[];
  ok: boolean;
  stale: boolean;
  summary: string;
}

/** editor::git::undo-commit: its arguments. */
export interface GitUndoCommitRequest {}

/** editor::git::undo-commit: its structured result. */
export interface GitUndoCommitResult {
  message: string;
  undone_sha: string;
}

/** editor::history: its arguments. */
export interface HistoryRequest {
  /** Page on: turns older than this (next). */
  before?: string;
  /** Only this writer (claude-code#3f2a, or claude-code for all its sessions). */
  by?: string;
  /** At most this many (up to 1000). */
  limit?: number;
  /** Leave out this writer. */
  not_by?: string;
  /** Only turns that changed this path. */
  path?: string;
  /** Only turns active since: RFC 3339 or a span (5m). */
  since?: string;
  /** One turn in detail (t42). */
  turn?: string;
  /** Only turns not wholly kept or undone. */
  unreviewed?: boolean;
  /** Only turns begun by then (same forms). */
  until?: string;
}

/** editor::history: its structured result. */
export interface HistoryResult {
  files: {
    added: number;
    external: boolean;
    from?: string | null;
    hunks: {
      added: number;
      changed_by: string[];
      header: string;
      id: number;
      kept: boolean;
      new_lines: number;
      new_start: number;
      old_lines: number;
      old_start: number;
      removed: number;
      reverted_in: string;
      status: "stands" | "changed" | "undone";
    }[];
    kind: "created" | "modified" | "deleted" | "moved";
    language: string;
    note: string;
    now?: string | null;
    patch: string;
    path: string;
    removed: number;
    reviewed: boolean;
    status: "stands" | "changed" | "undone" | "partly" | "unknown";
  }[];
  more: number;
  next: string;
  root: string;
  turns: {
    added: number;
    by: string;
    changes: number;
    end: string;
    explicit: boolean;
    external: boolean;
    files: number;
    open: boolean;
    paths: string[];
    removed: number;
    reverted_in: string[];
    reverts: string;
    reviewed: boolean;
    root: string;
    start: string;
    title: string;
    turn: string;
  }[];
}

/** editor::hover: its arguments. */
export interface HoverRequest {
  /** 1-based column, in characters. */
  column: number;
  /** 1-based line. */
  line: number;
  /** File, root-relative. */
  path: string;
}

/** editor::hover: its structured result. */
export interface HoverResult {
  contents: string;
  range?: {
    column: number;
    end_column: number;
    end_line: number;
    line: number;
    path: string;
    text: string;
  } | null;
  root: string;
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
  buffers: {
    dirty: boolean;
    draft_base: string;
    draft_by: string;
    draft_lines: string;
    language: string;
    mtime: number;
    path: string;
    version: string;
  }[];
  from: string;
  remapped: number;
  root: string;
  to: string;
}

/** editor::open: its arguments. */
export interface OpenRequest {
  /** Lines to read (default: to the end). */
  limit?: number;
  /** First line to read, 1-based. */
  offset?: number;
  /** File path, root-relative or absolute. */
  path: string;
  /** false: read without adding a tab in the user's editor. */
  tab?: boolean;
}

/** editor::open: its structured result. */
export interface OpenResult {
  content: string;
  draft?: {
    base_version: string;
    by: string;
    lines: string;
  } | null;
  end_line: number;
  eol: "lf" | "crlf" | "mixed" | "none";
  language: string;
  mtime: number;
  path: string;
  root: string;
  size: number;
  start_line: number;
  total_lines: number;
  truncated: boolean;
  version: string;
}

/** editor::references: its arguments. */
export interface ReferencesRequest {
  /** 1-based column, in characters. */
  column: number;
  /** Include the declaration. */
  include_declaration?: boolean;
  /** At most this many (up to 5000). */
  limit?: number;
  /** 1-based line. */
  line: number;
  /** File, root-relative. */
  path: string;
}

/** editor::references: its structured result. */
export interface ReferencesResult {
  outside_jail: number;
  references: {
    column: number;
    end_column: number;
    end_line: number;
    line: number;
    path: string;
    text: string;
  }[];
  root: string;
  total: number;
  truncated: boolean;
}

/** editor::rename: its arguments. */
export interface RenameRequest {
  /** 1-based column, in characters. */
  column: number;
  /** 1-based line. */
  line: number;
  /** The new name. */
  new_name: string;
  /** File, root-relative. */
  path: string;
  /** Apply: {path: version} from the dry run; omit for the dry run. */
  versions?: Record<string, string>;
}

/** editor::rename: its structured result. */
export interface RenameResult {
  applied: boolean;
  conflict: boolean;
  edits: number;
  files: {
    conflict: boolean;
    draft: boolean;
    edits: number;
    patch: string;
    path: string;
    version: string;
  }[];
  reason: string;
  root: string;
}

/** editor::replace: its arguments. */
export interface ReplaceRequest {
  /** As in editor_search. */
  ignore_case?: boolean;
  /** As in editor_search. */
  literal?: boolean;
  /** Files to preview (a dry run); default: every match. */
  paths?: string[];
  /** As in editor_search. */
  pattern: string;
  /** Keep case. */
  preserve_case?: boolean;
  /** As in editor_search. */
  whole_word?: boolean;
  /** Replacement; $1, ${name} insert groups unless literal. */
  with: string;
  /** Files to write: path to version from the dry run. */
  write?: Record<string, string>;
}

/** editor::replace: its structured result. */
export interface ReplaceResult {
  files: {
    conflict: boolean;
    patch: string;
    path: string;
    replaced: number;
    skipped: string;
    version: string;
    written: boolean;
  }[];
  patches_omitted: number;
  root: string;
  written: number;
}

/** editor::revert: its arguments. */
export interface RevertRequest {
  /** Return the patch; write nothing. */
  dry_run?: boolean;
  /** Only these hunk ids of that file. */
  hunks?: number[];
  /** Only this file of it. */
  path?: string;
  /** The turn (t42). */
  turn: string;
}

/** editor::revert: its structured result. */
export interface RevertResult {
  dry_run: boolean;
  patch: string;
  refused: {
    as_made: string;
    as_now: string;
    as_was: string;
    changed_by: string[];
    hunk: number;
    path: string;
    reason: string;
  }[];
  root: string;
  turn: string;
  undone: {
    from?: string | null;
    hunks: number[];
    kind: "modified" | "deleted" | "restored" | "moved";
    patch: string;
    path: string;
  }[];
}

/** editor::run: its arguments. */
export interface RunRequest {
  /** Program and arguments; no shell (no globs, pipes, variables). The program must be in the config's run.programs. */
  argv?: string[];
  /** Return a job id at once; follow it with editor_run_status and editor_run_output. It ends with your session. */
  background?: boolean;
  /** The terminal's columns (default 80). */
  cols?: number;
  /** A shell line for /bin/sh -c instead of argv, if the config allows (run.shell). */
  command?: string;
  /** Folder to run in, root-relative (default the root). */
  cwd?: string;
  /** Variables to add; PATH, HOME, LD_*, GIT_*, GOFLAGS and the like are refused. */
  env?: Record<string, string>;
  /** The terminal's rows (default 24). */
  rows?: number;
  /** Text for standard input. */
  stdin?: string;
  /** Bytes of the end of stdout and of stderr in the reply (default 8192, at most 12288). */
  tail_bytes?: number;
  /** Run it on a terminal (colours, prompts, line editing): both streams come out as stdout, stdin is typed, editor_run_input types more. TERM is xterm-256color unless env sets it. */
  terminal?: boolean;
  /** Stop it (and all it started) after this many seconds (default 600). */
  timeout_seconds?: number;
}

/** editor::run: its structured result. */
export interface RunResult {
  argv: string[];
  changed?: {
    created: number;
    deleted: number;
    files: {
      added: number;
      kind: "created" | "modified" | "deleted";
      path: string;
      removed: number;
    }[];
    modified: number;
    more: number;
  } | null;
  cwd: string;
  duration_ms: number;
  exit_code?: number | null;
  job: string;
  root: string;
  signal: string;
  state: "running" | "exited" | "timeout" | "killed" | "lost";
  stderr: string;
  stderr_bytes: number;
  stdout: string;
  stdout_bytes: number;
  terminal: boolean;
}

/** editor::run::input: its arguments. */
export interface RunInputRequest {
  /** Resize the terminal first: its columns (with rows). */
  cols?: number;
  /** A running job started with terminal: true. */
  job: string;
  /** Resize the terminal first: its rows (with cols). */
  rows?: number;
  /** What to type, as on a keyboard: "\r" is Enter, "\u0003" ^C (interrupt), "\u0004" ^D (end of input at a line's start). */
  text?: string;
}

/** editor::run::input: its structured result. */
export interface RunInputResult {
  job: string;
  sent: number;
  state: string;
}

/** editor::run::kill: its arguments. */
export interface RunKillRequest {
  /** A job id from editor_run. */
  job: string;
}

/** editor::run::kill: its structured result. */
export interface RunKillResult {
  job: string;
  killed: boolean;
  state: string;
}

/** editor::run::output: its arguments. */
export interface RunOutputRequest {
  /** A job id from editor_run. */
  job: string;
  /** Bytes at most (default 16384, at most 24576). */
  limit?: number;
  /** Byte offset to read from; omit for the end (the last limit bytes). */
  offset?: number;
  /** Which output (default stdout). */
  stream?: "stdout" | "stderr";
  /** While the job runs and nothing is past offset yet, wait up to this many ms (at most 30000) for more. */
  wait_ms?: number;
}

/** editor::run::output: its structured result. */
export interface RunOutputResult {
  content: string;
  eof: boolean;
  first_offset: number;
  job: string;
  next_offset: number;
  offset: number;
  state: string;
  stream: string;
  total: number;
}

/** editor::run::status: its arguments. */
export interface RunStatusRequest {
  /** A job id from editor_run; omit to list every job kept, oldest first. */
  job?: string;
}

/** editor::run::status: its structured result. */
export interface RunStatusResult {
  jobs: {
    argv: string[];
    background: boolean;
    by: string;
    changed?: {
      created: number;
      deleted: number;
      files: {
        added: number;
        kind: "created" | "modified" | "deleted";
        path: string;
        removed: number;
      }[];
      modified: number;
      more: number;
    } | null;
    cols: number;
    cwd: string;
    duration_ms: number;
    error: string;
    exit_code?: number | null;
    job: string;
    root: string;
    rows: number;
    signal: string;
    started_ms: number;
    state: "running" | "exited" | "timeout" | "killed" | "failed" | "lost";
    stderr_bytes: number;
    stdout_bytes: number;
    terminal: boolean;
  }[];
}

/** editor::save: its arguments. */
export interface SaveRequest {
  /** The whole new content, written byte for byte. */
  content: string;
  /** Mtime guard (Unix seconds) if no expected_version. */
  expected_mtime?: number;
  /** The version you read; a later change is merged, or a conflict if it overlaps. */
  expected_version?: string;
  /** Overwrite with no guard (a deliberate clobber). */
  force?: boolean;
  /** File path, root-relative or absolute. */
  path: string;
  /** No merge: any later change conflicts. */
  strict?: boolean;
}

/** editor::save: its structured result. */
export interface SaveResult {
  added: number;
  base_version?: string | null;
  conflict: boolean;
  conflict_patch?: string | null;
  conflicts: {
    base: {
      lines: number;
      start_line: number;
    };
    theirs: {
      lines: number;
      start_line: number;
    };
    yours: {
      lines: number;
      start_line: number;
    };
  }[];
  created: boolean;
  disk_mtime?: number | null;
  disk_version?: string | null;
  draft?: {
    base_version: string;
    by: string;
    lines: string;
  } | null;
  held: boolean;
  merged: boolean;
  merged_patch?: string | null;
  mtime: number;
  path: string;
  removed: number;
  root: string;
  saved: boolean;
  theirs_lines: string;
  theirs_patch?: string | null;
  version: string;
  yours_patch?: string | null;
}

/** editor::search: its arguments. */
export interface SearchRequest {
  /** Lines shown around each match (at most 20). */
  context_lines?: number;
  /** Skip paths matching a glob (same syntax), e.g. "vendor". */
  exclude_glob?: string[];
  /** Ignore letter case. */
  ignore_case?: boolean;
  /** Only matching paths: "*.go" matches names at any depth, a glob with "/" the path, "**" any folders, "!" excludes. */
  include_glob?: string[];
  /** pattern is plain text. */
  literal?: boolean;
  /** Matches kept (files, for output files); at most 20,000. */
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
  context_omitted: number;
  files: {
    context: {
      line: number;
      text: string;
    }[];
    count: number;
    hits: {
      column: number;
      line: number;
      ranges: number[][];
      text: string;
    }[];
    path: string;
  }[];
  files_scanned: number;
  root: string;
  skipped: {
    path: string;
    reason: string;
  }[];
  skipped_total: number;
  total: number;
  truncated: boolean;
}

/** editor::symbols: its arguments. */
export interface SymbolsRequest {
  /** With query: go, typescript or python (default: guessed from the root). */
  language?: string;
  /** At most this many (up to 5000). */
  limit?: number;
  /** A file: its outline. */
  path?: string;
  /** Or: a workspace search by name (fuzzy). */
  query?: string;
}

/** editor::symbols: its structured result. */
export interface SymbolsResult {
  outside_jail: number;
  root: string;
  symbols: {
    column: number;
    container: string;
    depth: number;
    detail: string;
    end_line: number;
    kind: string;
    line: number;
    name: string;
    path: string;
  }[];
  total: number;
  truncated: boolean;
}

/** editor::tools: its arguments. */
export interface ToolsRequest {
  /** Toolsets to add to your tool list ("all" for every one). */
  enable?: string[];
}

/** editor::tools: its structured result. */
export interface ToolsResult {
  note: string;
  toolsets: {
    description: string;
    functions: string;
    listed: boolean;
    name: string;
  }[];
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
  entries: {
    children: TreeEntry[];
    kind: "file" | "dir" | "symlink" | "other";
    more: number;
    mtime: number;
    name: string;
    path: string;
    size: number;
  }[];
  expanded: string[];
  omitted: number;
  path: string;
  root: string;
  scanned: number;
  truncated: boolean;
}

/** editor::turn: its arguments. */
export interface TurnRequest {
  /** begin, end, or keep (mark reviewed). */
  action: "begin" | "end" | "keep";
  /** keep: hunk ids of that file. */
  hunks?: number[];
  /** keep: one file of it. */
  path?: string;
  /** begin: what the turn is for. */
  title?: string;
  /** keep: the turn (t42). */
  turn?: string;
}

/** editor::turn: its structured result. */
export interface TurnResult {
  turn?: {
    added: number;
    by: string;
    changes: number;
    end: string;
    explicit: boolean;
    external: boolean;
    files: number;
    open: boolean;
    paths: string[];
    removed: number;
    reverted_in: string[];
    reverts: string;
    reviewed: boolean;
    root: string;
    start: string;
    title: string;
    turn: string;
  } | null;
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
  focus?: {
    by: string;
    column: number;
    line: number;
    path: string;
    selection?: {
      end_column: number;
      end_line: number;
      start_column: number;
      start_line: number;
    } | null;
    time: string;
  } | null;
}

/** editor::workspace::get: its arguments. */
export interface WorkspaceGetRequest {
  /** Buffers and expanded folders at most (up to 10,000). */
  limit?: number;
  /** Paging: skip this many of each. */
  offset?: number;
}

/** editor::workspace::get: its structured result. */
export interface WorkspaceGetResult {
  buffers: {
    dirty: boolean;
    draft_base: string;
    draft_by: string;
    draft_lines: string;
    language: string;
    mtime: number;
    path: string;
    version: string;
  }[];
  buffers_total: number;
  detached: {
    dirty: boolean;
    draft_base: string;
    draft_by: string;
    draft_lines: string;
    language: string;
    mtime: number;
    path: string;
    version: string;
  }[];
  expanded: string[];
  expanded_total: number;
  focus?: {
    by: string;
    column: number;
    line: number;
    path: string;
    selection?: {
      end_column: number;
      end_line: number;
      start_column: number;
      start_line: number;
    } | null;
    time: string;
  } | null;
  more: number;
  root: string;
  you: string;
}

/** editor::workspace::open: its arguments. */
export interface WorkspaceOpenRequest {
  /** Folder to make the root: absolute, or relative to the current root. */
  root: string;
}

/** editor::workspace::open: its structured result. */
export interface WorkspaceOpenResult {
  buffers: {
    dirty: boolean;
    draft_base: string;
    draft_by: string;
    draft_lines: string;
    language: string;
    mtime: number;
    path: string;
    version: string;
  }[];
  buffers_total: number;
  detached: {
    dirty: boolean;
    draft_base: string;
    draft_by: string;
    draft_lines: string;
    language: string;
    mtime: number;
    path: string;
    version: string;
  }[];
  expanded: string[];
  expanded_total: number;
  focus?: {
    by: string;
    column: number;
    line: number;
    path: string;
    selection?: {
      end_column: number;
      end_line: number;
      start_column: number;
      start_line: number;
    } | null;
    time: string;
  } | null;
  more: number;
  root: string;
  you: string;
}
