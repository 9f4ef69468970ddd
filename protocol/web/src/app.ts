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

/** Results of the tools the page calls (docs/contract.md §4, §9; wire.ts). */
export type { OpenResult, SaveResult, BuffersDraftResult as DraftResult } from "./wire";
