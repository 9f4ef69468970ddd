// What the page's actions share: the model, the link to editord, the
// editor pane and the dialogs. Actions live in their own modules (docs,
// sync, tree, drafts, focus) and take this.

import type { Link } from "./mcp";
import type { Model } from "./model";
import type { EditorHost } from "./views/editor";
import type { Dialogs } from "./views/dialog";

export interface App {
  model: Model;
  link: Link;
  editor: EditorHost;
  dialogs: Dialogs;
  /** Called after a tab's text or selection changed (drafts, focus). */
  touched(path: string, docChanged: boolean): void;
}

/** Results of the tools the page calls (CONTRACT §4, §9). */
export interface OpenResult {
  path: string;
  content: string;
  language: string;
  size: number;
  mtime: number;
  version: string;
  truncated: boolean;
  eol: "lf" | "crlf" | "mixed" | "none";
}

export interface SaveResult {
  path: string;
  saved: boolean;
  conflict: boolean;
  created: boolean;
  version: string;
  mtime: number;
  disk_version?: string;
  /** The file had changed since expected_version; what was written is
   * this content merged with that change (merged_patch: content -> it). */
  merged?: boolean;
  merged_patch?: string;
  base_version?: string;
}

export interface DraftResult {
  path: string;
  dirty: boolean;
  draft_base?: string;
  by?: string;
  content?: string;
  /** The content of draft_base, while the server holds it. */
  base_content?: string;
}
