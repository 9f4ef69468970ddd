// The Review view of a turn: every file it changed as one scrollable
// diff, each hunk in a read-only editor (the file's highlighting, added
// lines green, removed lines red), with Keep and Undo per hunk, per file and
// for the whole turn. Undo is editor_revert: three-way, so a hunk someone
// changed since is refused (the refusal says why) and nothing of theirs is
// lost; Keep marks the hunk reviewed (editor_turn keep). What the view
// shows is re-read from editor_history after each action.

import { EditorState, RangeSetBuilder, Text, type Extension } from "@codemirror/state";
import { Decoration, EditorView, lineNumbers } from "@codemirror/view";
import { syntaxHighlighting } from "@codemirror/language";
import type { App } from "../app";
import { h } from "../dom";
import { openFile } from "../docs";
import { highlight } from "../highlight";
import { language } from "../languages";
import { theme } from "../theme";
import { clockSpan, detail, keep, undo, type RevertResult, type TurnFile, type TurnHunk, type TurnSummary } from "../turns";
import { refusalsNotice } from "./refusals";

/** One hunk's lines, as its patch gives them. */
interface Line {
  sign: " " | "-" | "+";
  text: string;
  no: number; // the line's number: before the turn for "-", after it otherwise
}

/** splitPatch cuts a file's patch into its hunks' lines, in order (the
 * ids of TurnHunk), counting by the @@ headers so that a removed line
 * which itself starts with "--" is never taken for a header. */
export function splitPatch(patch: string): Line[][] {
  const out: Line[][] = [];
  let cur: Line[] | null = null;
  let oldLeft = 0, newLeft = 0, o = 0, n = 0;
  for (const l of patch.split("\n")) {
    if (cur && (oldLeft > 0 || newLeft > 0)) {
      const sign = l[0];
      if (sign === "\\") continue;
      const text = l.slice(1);
      if (sign === "-") {
        cur.push({ sign, text, no: o++ });
        oldLeft--;
      } else if (sign === "+") {
        cur.push({ sign, text, no: n++ });
        newLeft--;
      } else {
        cur.push({ sign: " ", text, no: n++ });
        o++;
        oldLeft--;
        newLeft--;
      }
      continue;
    }
    const m = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(l);
    if (!m) continue; // a file header, or "\ No newline at end of file"
    oldLeft = m[2] === undefined ? 1 : +m[2];
    newLeft = m[4] === undefined ? 1 : +m[4];
    o = oldLeft ? +m[1] : +m[1] + 1;
    n = newLeft ? +m[3] : +m[3] + 1;
    out.push((cur = []));
  }
  return out;
}

const added = Decoration.line({ class: "rv-add" });
const removed = Decoration.line({ class: "rv-del" });

/** A read-only editor holding one hunk's lines. */
function hunkView(parent: HTMLElement, lines: Line[], lang: Extension, label: string): EditorView {
  const doc = Text.of(lines.map((l) => l.text));
  const deco = new RangeSetBuilder<Decoration>();
  lines.forEach((l, i) => {
    if (l.sign !== " ") deco.add(doc.line(i + 1).from, doc.line(i + 1).from, l.sign === "+" ? added : removed);
  });
  const gutter = (k: number) => {
    const l = lines[k - 1];
    return l ? `${l.sign === "+" ? "+" : l.sign === "-" ? "−" : " "}${l.no}` : "";
  };
  return new EditorView({
    parent,
    doc,
    extensions: [
      EditorState.readOnly.of(true),
      EditorView.editable.of(false),
      lineNumbers({ formatNumber: gutter }),
      syntaxHighlighting(highlight),
      theme,
      lang,
      EditorView.decorations.of(deco.finish()),
      EditorView.contentAttributes.of({ "aria-label": label }),
    ],
  });
}

/** How a hunk's state reads: what happened to it since the turn. */
function hunkState(hk: TurnHunk): string {
  if (hk.status === "undone") return hk.reverted_in ? `undone (${hk.reverted_in})` : "undone";
  if (hk.status === "changed") return `changed since${hk.changed_by?.length ? ` by ${hk.changed_by.join(", ")}` : ""}: Undo would be refused`;
  return hk.kept ? "kept" : "";
}

/** Opens the Review view of turn. */
export async function openReview(app: App, turn: string): Promise<void> {
  const m = app.model;
  let data: { turns: TurnSummary[]; files: TurnFile[] };
  try {
    data = await detail(app, turn);
  } catch (e) {
    m.say(`Cannot review ${turn}: ${(e as Error).message}`);
    return;
  }
  const head = h("p", { class: "rv-summary" });
  const notice = h("div", { class: "rv-notice" });
  const files = h("div", { class: "rv-files" });
  let views: EditorView[] = [];
  let busy = false;
  const drop = () => {
    for (const v of views) v.destroy();
    views = [];
  };

  // Runs an action, then shows the turn as it is now; the focus goes back
  // to the control of the same name, or the next one still enabled.
  const act = async (label: string, f: () => Promise<RevertResult | void>) => {
    if (busy) return;
    busy = true;
    const focusName = (document.activeElement as HTMLElement | null)?.getAttribute("aria-label");
    notice.replaceChildren();
    try {
      const r = await f();
      if (r && r.refused.length) {
        notice.append(refusalsNotice(label, r.refused));
      } else {
        notice.append(h("p", { role: "status" }, r && !r.undone.length ? `${label}: nothing left to undo.` : `${label}: done.`));
      }
      data = await detail(app, turn);
    } catch (e) {
      notice.append(h("p", { role: "alert" }, `${label}: ${(e as Error).message}`));
    } finally {
      busy = false;
    }
    await render();
    const again = focusName ? dlgButton(focusName) : null;
    (again && !again.disabled ? again : dlgButton("Close"))?.focus();
  };
  const dlgButton = (name: string) =>
    [...document.querySelectorAll<HTMLButtonElement>(".dialog.review button")].find((b) => (b.getAttribute("aria-label") ?? b.textContent) === name) ?? null;

  async function render(): Promise<void> {
    drop();
    const t = data.turns[0];
    head.replaceChildren(
      h("strong", {}, t.by), ` · ${t.turn}`, t.title ? ` · “${t.title}”` : "",
      ` · ${t.files} ${t.files === 1 ? "file" : "files"} `, h("span", { class: "add" }, `+${t.added}`), " ", h("span", { class: "del" }, `−${t.removed}`),
      ` · ${clockSpan(t.start, t.end)}`,
      t.open ? " · still going on" : "", t.reviewed ? " · reviewed" : "",
      t.reverts ? ` · undoes ${t.reverts}` : "",
    );
    files.replaceChildren();
    if (!data.files.length) files.append(h("p", { class: "panel-note" }, "Nothing of this turn is left to review."));
    let budget = 300; // hunks shown at most; the rest by opening the files
    for (const f of data.files) {
      const shown = f.now ?? f.path;
      const standing = f.hunks.some((hk) => hk.status === "stands") || (f.kind === "moved" && !f.hunks.length && f.status === "stands");
      const sec = h("section", { class: "rv-file", "aria-label": f.path },
        h("div", { class: "rv-file-head" },
          h("button", { type: "button", class: "link", title: `Open ${shown}`, onclick: () => void openFile(app, shown).catch(() => {}) }, f.path),
          h("span", { class: "rv-kind" }, f.from ? `${f.kind} from ${f.from}` : f.kind),
          h("span", { class: "delta" }, h("span", { class: "add" }, `+${f.added}`), " ", h("span", { class: "del" }, `−${f.removed}`)),
          f.external ? h("span", { class: "rv-ext", title: "made by another program while this writer was at work" }, "external") : null,
          f.now ? h("span", { class: "rv-now" }, `now at ${f.now}`) : null,
          h("span", { class: "rv-state" }, f.reviewed ? "reviewed" : ""),
          h("span", { class: "rv-actions" },
            h("button", { type: "button", "aria-label": `Keep ${f.path}`, disabled: f.reviewed && f.hunks.every((x) => x.kept || x.status === "undone"), onclick: () => void act(`Keep ${f.path}`, () => keep(app, turn, f.path)) }, "Keep file"),
            h("button", { type: "button", class: "danger", "aria-label": `Undo ${f.path}`, disabled: !standing, onclick: () => void act(`Undo ${f.path}`, () => undo(app, turn, f.path)) }, "Undo file"))),
        f.note ? h("p", { class: "rv-note" }, f.note) : null);
      files.append(sec);
      const parts = splitPatch(f.patch);
      const lang = await language(f.language);
      for (const hk of f.hunks) {
        if (budget-- <= 0) break;
        const box = h("div", { class: `rv-hunk ${hk.status} ${hk.kept ? "kept" : ""}`, role: "group", "aria-label": `hunk ${hk.id} of ${f.path}` },
          h("div", { class: "rv-hunk-head" },
            h("code", {}, hk.header),
            h("span", { class: "rv-state" }, hunkState(hk)),
            h("span", { class: "rv-actions" },
              h("button", { type: "button", "aria-label": `Keep hunk ${hk.id} of ${f.path}`, disabled: hk.kept || hk.status === "undone", onclick: () => void act(`Keep hunk ${hk.id} of ${f.path}`, () => keep(app, turn, f.path, [hk.id])) }, "Keep"),
              h("button", { type: "button", class: "danger", "aria-label": `Undo hunk ${hk.id} of ${f.path}`, disabled: hk.status !== "stands", onclick: () => void act(`Undo hunk ${hk.id} of ${f.path}`, () => undo(app, turn, f.path, [hk.id])) }, "Undo"))));
        sec.append(box);
        const lines = parts[hk.id - 1];
        if (lines?.length) views.push(hunkView(box, lines, lang, `hunk ${hk.id} of ${f.path}, read-only`));
      }
    }
    if (budget < 0) files.append(h("p", { class: "panel-note" }, "More hunks than shown here: open the files to see the rest."));
    keepAll.disabled = !!t.reviewed;
    undoAll.disabled = !data.files.some((f) => f.hunks.some((hk) => hk.status === "stands") || (f.kind === "moved" && f.status === "stands"));
  }

  const keepAll = h("button", { type: "button", onclick: () => void act("Keep all", () => keep(app, turn)) }, "Keep all");
  const undoAll = h("button", { type: "button", class: "danger", onclick: () => void act("Undo all", () => undo(app, turn)) }, "Undo all");
  const done = h("button", { type: "button", class: "primary", onclick: () => (close(), drop()) }, "Close");
  await render();
  const close = app.dialogs.open(`Review ${turn}`, [head, notice, files], [keepAll, undoAll, done], { wide: true, onCancel: drop });
  done.closest(".dialog")?.classList.add("review");
}
