// The Activity panel: the change journal live, newest first, grouped by
// turn (turns.ts): each turn's writer with Review (views/review.ts) and
// Undo, then its changes: which file, what kind, lines added and removed;
// a click shows the patch. Filters: agents only, and one file.

import type { App } from "../app";
import { byAgent } from "../activity";
import { h, midPath } from "../dom";
import type { ChangeEvent } from "../mcp";
import { patchView } from "./patch";
import { byTurn, clock, mine, undo } from "../turns";
import { openReview } from "./review";
import { openUndoRecent } from "./undorecent";
import { addCommand } from "../commands";

export function activityPanel(parent: HTMLElement, app: App): void {
  const m = app.model;
  const agentsOnly = h("input", { type: "checkbox" });
  const file = h("input", { type: "text", "aria-label": "Only this file", placeholder: "only this file…", spellcheck: "false", "data-autofocus": true });
  const list = h("ol", { class: "activity", "aria-label": "Changes, newest first" });
  // Undo the person's own recent work, across files (views/undorecent.ts).
  const undoRecent = h("button", { type: "button", class: "undo-recent", title: "Your own saves of the last minutes, undone newest first", onclick: () => void openUndoRecent(app) }, "Undo my last 5 minutes…");
  addCommand({ id: "activity.undoRecent", title: "Activity: Undo what I did in the last 5 minutes…", run: () => openUndoRecent(app) });
  addCommand({
    id: "activity.reviewNewest", title: "Activity: Review the newest turn not reviewed", when: (a) => a.model.unreviewed.size > 0,
    run: () => {
      const turns = [...m.unreviewed.values()].flat().map((t) => t.turn);
      const newest = turns.reduce((a, b) => (+b.slice(1) > +a.slice(1) ? b : a));
      return openReview(app, newest);
    },
  });
  parent.append(
    h("h2", { class: "panel-title" }, "Activity"),
    h("div", { class: "search-form" }, h("label", { class: "check" }, agentsOnly, "Agents only"), file, undoRecent),
    list,
  );
  function render(): void {
    list.replaceChildren();
    const f = file.value.trim();
    const shown = m.activity.filter((ev) => (!agentsOnly.checked || byAgent(ev)) && (!f || ev.path.includes(f) || ev.from?.includes(f)));
    if (!shown.length) list.append(h("li", { class: "panel-note" }, m.activity.length ? "No change matches the filters." : "No changes yet."));
    for (const g of byTurn(shown.slice(0, 200))) {
      if (g.turn) list.append(turnHead(app, g.turn, g.by, g.events.length));
      for (const ev of g.events) list.append(item(ev, !!g.turn));
    }
  }
  function item(ev: ChangeEvent, inTurn: boolean): HTMLElement {
    const what = ev.kind === "moved" ? `${ev.from} → ${ev.path}` : ev.path;
    return h("li", {}, h("button", {
      type: "button", class: `change ${inTurn ? "in-turn" : ""}`, title: `${ev.cause} at ${ev.time}`, onclick: () => showPatch(app, ev),
    },
    h("span", { class: "who" }, ev.by ?? ev.cause),
    ev.kind === "moved" ? h("span", { class: "what", title: what }, `${ev.kind} ${what}`) : h("span", { class: "what" }, `${ev.kind} `, midPath(ev.path)),
    // A change seen without the file's earlier text (not open, a folder's
    // event) has no line counts: say nothing rather than +0 −0.
    ev.patch || ev.added || ev.removed
      ? h("span", { class: "delta" }, h("span", { class: "add" }, `+${ev.added}`), " ", h("span", { class: "del" }, `−${ev.removed}`))
      : h("span", { class: "delta" }),
    h("span", { class: "when" }, clock(ev.time))));
  }
  m.on("activity", render);
  agentsOnly.addEventListener("change", render);
  file.addEventListener("input", render);
  render();
}

/** A turn's heading in the list: whose it is, and its actions. */
function turnHead(app: App, turn: string, by: string, n: number): HTMLElement {
  const who = mine(by) ? "you" : by;
  const pending = [...app.model.unreviewed.values()].flat().find((t) => t.turn === turn);
  return h("li", { class: `turn-head ${pending ? "pending" : ""}`, "aria-label": `turn ${turn} by ${who}` },
    h("span", { class: "who" }, who),
    h("span", { class: "what" }, `${turn} · ${n} ${n === 1 ? "change" : "changes"}${pending ? " · not reviewed" : ""}${pending?.title ? ` · “${pending.title}”` : ""}`),
    h("button", { type: "button", "aria-label": `Review ${turn}`, onclick: () => void openReview(app, turn) }, "Review"),
    h("button", { type: "button", class: "danger", "aria-label": `Undo ${turn}`, title: "Undo this turn (a turn of its own: undo that to redo)",
      onclick: () => void undo(app, turn).then((r) => app.model.say(r.refused.length ? `Undid ${turn} in part: ${r.refused.length} changed since, left as they are (Review shows them).` : r.undone.length ? `Undid ${turn}.` : `Nothing of ${turn} is left to undo.`))
        .catch((e) => app.model.say(`Not undone: ${(e as Error).message}`)) }, "Undo"));
}

function showPatch(app: App, ev: ChangeEvent): void {
  const text = ev.patch ? ev.patch + (ev.truncated ? "\n… cut here; editor_git_hunks has the rest\n" : "") : "(no patch recorded for this change)";
  const done = h("button", { type: "button", class: "primary", onclick: () => close() }, "Close");
  const close = app.dialogs.open(`${ev.by ?? ev.cause} ${ev.kind} ${ev.path}`, [ev.patch ? patchView(text) : h("pre", { class: "patch" }, text)], [done], { wide: true });
}
