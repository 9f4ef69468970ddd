// Turns (editor_history, editor_turn, editor_revert): each writer's changes
// between boundaries, which a person reviews as a whole, keeping part and
// undoing the rest. Here: the page's knowledge of which paths hold another
// writer's unreviewed changes (marked on tabs and in the tree), and the
// actions of the Review view, all through the tools any agent could call.

import type { App } from "./app";
import type { ChangeEvent } from "./mcp";
import type { HistoryResult } from "./wire";

/** A turn in a listing; false flags and empty lists are left out. */
/** One turn as editor_history lists it (wire.ts, from the golden schemas). */
export type TurnSummary = HistoryResult["turns"][number];

export interface TurnHunk {
  id: number;
  old_start: number;
  old_lines: number;
  new_start: number;
  new_lines: number;
  added: number;
  removed: number;
  header: string;
  status: "stands" | "changed" | "undone";
  changed_by?: string[];
  reverted_in?: string;
  kept: boolean;
}

export interface TurnFile {
  path: string;
  from?: string;
  kind: "created" | "modified" | "deleted" | "moved";
  language: string;
  added: number;
  removed: number;
  external: boolean;
  status: "stands" | "changed" | "undone" | "partly" | "unknown";
  now: string | null;
  hunks: TurnHunk[];
  patch: string;
  reviewed: boolean;
  note?: string;
}

export interface Refusal {
  path: string;
  hunk: number;
  reason: string;
  as_was: string;
  as_made: string;
  as_now: string;
  changed_by: string[];
}

export interface RevertResult {
  turn: string;
  undone: { path: string; from?: string; kind: string; hunks: number[]; patch: string }[];
  refused: Refusal[];
  patch: string;
  dry_run: boolean;
}

/** The name this page's writes carry (its by, before the session's '#'). */
export const pageClient = "editord-page";

/** A time of day as the page shows a change's: 10:30:09 PM. */
export const clock = (t: string): string =>
  new Date(t).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" });

/** A turn's span: one time when it began and ended within the same second. */
export function clockSpan(start: string, end: string): string {
  const a = clock(start), b = clock(end);
  return a === b ? a : `${a}–${b}`;
}

/** A change by this page (any of its sessions). */
export function mine(by: string | undefined): boolean {
  return !!by && by.startsWith(pageClient + "#");
}

/** Re-reads which paths hold unreviewed turns of other writers. */
export async function refreshReview(app: App): Promise<void> {
  const m = app.model;
  try {
    const r = await app.link.call<{ turns: TurnSummary[]; root: string }>("editor_history", { unreviewed: true, not_by: pageClient, limit: 100 });
    const next = new Map<string, TurnSummary[]>();
    for (const t of r.turns) {
      if ((t.root ?? r.root) !== m.root) continue;
      for (const p of t.paths) next.set(p, [...(next.get(p) ?? []), t]);
    }
    m.unreviewed = next;
    m.changed("tabs", "tree", "activity");
  } catch {
    /* turns are a nicety of the marks; the Review view says what is wrong */
  }
}

let timer: ReturnType<typeof setTimeout> | undefined;

/** refreshReview soon: a burst of changes reads it once. */
export function refreshReviewSoon(app: App): void {
  clearTimeout(timer);
  timer = setTimeout(() => void refreshReview(app), 300);
}

/** Whose unreviewed turns changed path, for a tab's or a tree item's mark. */
export function unreviewedNote(app: App, path: string): string | null {
  const ts = app.model.unreviewed.get(path);
  if (!ts?.length) return null;
  return `changed by ${[...new Set(ts.map((t) => t.by))].join(", ")} (turn ${ts.map((t) => t.turn).join(", ")}), not reviewed yet`;
}

export function detail(app: App, turn: string): Promise<{ turns: TurnSummary[]; files: TurnFile[] }> {
  return app.link.call("editor_history", { turn });
}

/** Marks the turn, a file of it or hunks of that file reviewed and kept. */
export async function keep(app: App, turn: string, path?: string, hunks?: number[]): Promise<void> {
  await app.link.call("editor_turn", { action: "keep", turn, ...(path ? { path } : {}), ...(hunks?.length ? { hunks } : {}) });
  refreshReviewSoon(app);
}

/** Undoes the turn, a file of it or hunks of that file (a turn of its own). */
export async function undo(app: App, turn: string, path?: string, hunks?: number[]): Promise<RevertResult> {
  const r = await app.link.call<RevertResult>("editor_revert", { turn, ...(path ? { path } : {}), ...(hunks?.length ? { hunks } : {}) });
  refreshReviewSoon(app);
  return r;
}

/** The turns of the Activity panel's events, newest first: each with its
 * events (newest first), in the order of their newest event. */
export function byTurn(events: ChangeEvent[]): { turn: string; by: string; events: ChangeEvent[] }[] {
  const groups = new Map<string, { turn: string; by: string; events: ChangeEvent[] }>();
  for (const ev of events) {
    const key = ev.turn ?? "";
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { turn: key, by: ev.by ?? ev.cause, events: [] }));
    g.events.push(ev);
    // A turn's writer, not the other program whose change joined it.
    if (ev.by && ev.by !== "external") g.by = ev.by;
  }
  return [...groups.values()];
}
