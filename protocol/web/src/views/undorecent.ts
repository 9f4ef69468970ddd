// "Undo what I did in the last five minutes", across files (issue 21): the
// person's own turns (this page's writes, from every window of it) whose
// last change falls in the chosen span, each with its files and lines
// added and removed, undone newest first, one editor_revert per turn. Each
// revert is the server's: guarded and three-way, so a part someone changed
// since is refused with its three sides and nothing of theirs is
// overwritten; each is a turn of its own, listed here afterwards so that
// the undo can itself be undone.

import type { App } from "../app";
import { h, midPath } from "../dom";
import { clock, clockSpan, detail, mine, pageClient, undo, type Refusal, type TurnFile, type TurnSummary } from "../turns";
import type { HistoryResult } from "../wire";
import { refusalsNotice } from "./refusals";

/** The spans offered, in minutes; the first is the default. */
export const spans = [5, 15, 30, 60];

/** Turns listed at most; the dialog says when the span holds more. */
const most = 50;

interface Row {
  turn: TurnSummary;
  files: TurnFile[];
  /** Something of it is still on disk as it left it. */
  standing: boolean;
  /** Its parts someone changed since (an undo leaves them as they are). */
  changed: number;
}

type Hunk = TurnFile["hunks"][number];

/** A part of the turn someone else changed since: an undo leaves it. */
const byOthers = (hk: Hunk) => hk.status === "changed" && (hk.changed_by ?? []).some((b) => !mine(b));

/** A file of the turn that an undo would change: a part of it stands, or
 * the person changed it again in a later turn of theirs, which the undo
 * takes back first (newest first); not once the turn was undone. */
function undoable(f: TurnFile, t: TurnSummary): boolean {
  return f.hunks.some((hk) => hk.status === "stands") || (f.kind === "moved" && f.status === "stands") ||
    (!t.reverted_in?.length && f.hunks.some((hk) => hk.status === "changed" && !byOthers(hk)));
}

/** What became of a file of the turn since, in a few words. */
function fileState(f: TurnFile): string {
  const who = [...new Set(f.hunks.flatMap((hk) => hk.changed_by ?? []))].map((b) => (mine(b) ? "you" : b));
  switch (f.status) {
    case "changed": return `changed since${who.length ? ` by ${who.join(", ")}` : ""}`;
    case "undone": return "undone";
    case "partly": return "partly undone";
    case "unknown": return f.note ?? "its content was not kept";
    default: return "";
  }
}

/** The person's turns of the last minutes, newest first, in detail. */
async function recent(app: App, minutes: number): Promise<{ rows: Row[]; more: number }> {
  const r = await app.link.call<HistoryResult>("editor_history", { by: pageClient, since: `${minutes}m`, limit: most });
  const here = r.turns.filter((t) => (t.root || r.root) === app.model.root && t.changes > 0);
  const rows = await Promise.all(here.map(async (t): Promise<Row> => {
    const files = (await detail(app, t.turn)).files;
    return {
      turn: t,
      files,
      standing: files.some((f) => undoable(f, t)),
      changed: files.reduce((n, f) => n + f.hunks.filter(byOthers).length, 0),
    };
  }));
  return { rows, more: r.more };
}

const spanLabel = (m: number) => (m % 60 ? `${m} minutes` : m === 60 ? "hour" : `${m / 60} hours`);

/** Opens the list of the person's recent turns, to undo them. */
export async function openUndoRecent(app: App, minutes = spans[0]): Promise<void> {
  const m = app.model;
  const span = h("select", { "aria-label": "How far back" },
    ...spans.map((s) => h("option", { value: String(s), selected: s === minutes }, `the last ${spanLabel(s)}`)));
  const intro = h("p", { class: "ur-intro" }, "What you saved in ", span,
    ", newest first. Undo takes the checked turns back, newest first, across files; a part someone changed since is left as it is and shown here. Unsaved edits in tabs are not touched.");
  const notice = h("div", { class: "rv-notice" });
  const list = h("ol", { class: "ur-turns", "aria-label": "Your turns, newest first" });
  const go = h("button", { type: "button", class: "danger", onclick: () => void run() }, "Undo");
  const done = h("button", { type: "button", class: "primary", onclick: () => close() }, "Close");
  let rows: Row[] = [];
  let busy = false;
  const checks = new Map<string, HTMLInputElement>();

  const chosen = () => rows.filter((r) => checks.get(r.turn.turn)?.checked);
  function count(): void {
    const n = chosen().length;
    go.textContent = n === 1 ? "Undo 1 turn" : `Undo ${n} turns`;
    go.disabled = busy || n === 0;
  }

  function render(more: number): void {
    const since = Date.now() - +span.value * 60_000;
    list.replaceChildren();
    checks.clear();
    if (!rows.length) list.append(h("li", { class: "panel-note" }, `You saved nothing in the last ${spanLabel(+span.value)}.`));
    for (const r of rows) {
      const t = r.turn;
      // A revert is listed to be redone, not undone by default; a turn
      // with nothing left on disk cannot be undone again.
      const box = h("input", { type: "checkbox", "aria-label": `Undo ${t.turn}`, checked: r.standing && !t.reverts, disabled: !r.standing });
      box.addEventListener("change", count);
      checks.set(t.turn, box);
      const notes = [
        t.open ? "still going on" : "",
        Date.parse(t.start) < since ? `began ${clock(t.start)}, before the span: undo takes all of it back` : "",
        t.reverts ? `undoes ${t.reverts}: check it to redo that` : "",
        !r.standing ? "nothing of it is left to undo" : "",
        r.changed ? `${r.changed === 1 ? "one part" : `${r.changed} parts`} changed since by others: left as they are` : "",
      ].filter(Boolean);
      list.append(h("li", { class: `ur-turn ${r.standing ? "" : "gone"}`, "aria-label": `turn ${t.turn}` },
        h("label", { class: "check" }, box,
          h("strong", {}, t.turn), ` · ${clockSpan(t.start, t.end)} · ${t.files} ${t.files === 1 ? "file" : "files"} `,
          h("span", { class: "add" }, `+${t.added}`), " ", h("span", { class: "del" }, `−${t.removed}`),
          t.title ? ` · “${t.title}”` : ""),
        notes.length ? h("p", { class: "ur-note" }, notes.join("; ")) : null,
        h("ul", { class: "ur-files", "aria-label": `files of ${t.turn}` }, ...r.files.map((f) => h("li", {},
          midPath(f.now ?? f.path),
          h("span", { class: "rv-kind" }, f.from ? ` ${f.kind} from ${f.from}` : ` ${f.kind}`),
          h("span", { class: "delta" }, h("span", { class: "add" }, `+${f.added}`), " ", h("span", { class: "del" }, `−${f.removed}`)),
          h("span", { class: "rv-state" }, fileState(f)))))));
    }
    if (more > 0) list.append(h("li", { class: "panel-note" }, `And ${more} older turns in the span: undo these first, then open this again for the rest.`));
    count();
  }

  async function load(): Promise<void> {
    try {
      const r = await recent(app, +span.value);
      rows = r.rows;
      render(r.more);
    } catch (e) {
      rows = [];
      list.replaceChildren(h("li", { role: "alert" }, `Cannot list your turns: ${(e as Error).message}`));
      count();
    }
  }

  // Newest first: a later turn's change over an earlier one's goes back
  // first, so the earlier one then finds its own lines as it left them.
  async function run(): Promise<void> {
    const todo = chosen();
    if (busy || !todo.length) return;
    busy = true;
    count();
    notice.replaceChildren(h("p", { role: "status", class: "busy" }, `Undoing ${todo.map((r) => r.turn.turn).join(", ")}…`));
    const undone: string[] = [];
    const files = new Set<string>();
    const refused: Refusal[] = [];
    const failed: string[] = [];
    for (const r of todo) {
      try {
        const res = await undo(app, r.turn.turn);
        if (res.undone.length) undone.push(r.turn.turn);
        for (const u of res.undone) files.add(u.path);
        refused.push(...res.refused);
      } catch (e) {
        failed.push(`${r.turn.turn}: ${(e as Error).message}`);
      }
    }
    busy = false;
    const label = `Undo ${todo.map((r) => r.turn.turn).join(", ")}`;
    notice.replaceChildren(
      h("p", { role: "status" }, undone.length
        ? `Undid ${undone.join(", ")}: ${files.size} ${files.size === 1 ? "file" : "files"} back as ${undone.length === 1 ? "it was" : "they were"}.`
        : "Nothing was undone."),
      refused.length ? refusalsNotice(label, refused) : "",
      ...failed.map((f) => h("p", { role: "alert" }, `Not undone: ${f}`)));
    m.say(undone.length ? `Undid ${undone.join(", ")}.` : "Nothing was undone.", "undoRecent");
    await load();
    done.focus();
  }

  span.addEventListener("change", () => void load());
  await load();
  const close = app.dialogs.open("Undo what I did recently", [intro, notice, list], [go, done], { wide: true });
  done.closest(".dialog")?.classList.add("undo-recent");
}
