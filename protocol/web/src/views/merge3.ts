// The three-way merge view, for when another writer's change overlaps the
// person's unsaved edits (rebase.ts) or a save comes back as a conflict:
// base | theirs | mine, read-only, each with its changes from the base
// marked, and the result below, editable. The result starts merged where
// the two sides do not touch (diff3.ts); each place where they do is a
// conflict between git's markers, with buttons to take mine, theirs or
// both. Saving sends the result guarded by theirs' version; writing the
// person's own text over the disk is a separate, labelled button.

import { Chunk } from "@codemirror/merge";
import { EditorState, RangeSetBuilder, StateField, Text, type Extension } from "@codemirror/state";
import { Decoration, EditorView, WidgetType, drawSelection, highlightSpecialChars, keymap, lineNumbers, type DecorationSet } from "@codemirror/view";
import { defaultKeymap, history, historyKeymap } from "@codemirror/commands";
import { syntaxHighlighting } from "@codemirror/language";
import type { App } from "../app";
import { merge3, type Block } from "../diff3";
import { h } from "../dom";
import { saveMerged } from "../docs";
import { highlight } from "../highlight";
import { language } from "../languages";
import type { Tab } from "../model";
import { theme } from "../theme";
import type { Dialogs } from "./dialog";

const OPEN = "<<<<<<< mine";
const MID = "=======";
const CLOSE = ">>>>>>> theirs";

/** The result's first text: merged blocks as they are, conflicts between
 * markers. */
export function resultLines(blocks: Block[]): string[] {
  const out: string[] = [];
  for (const b of blocks) {
    if (b.kind === "same") out.push(...b.lines);
    else out.push(OPEN, ...b.mine, MID, ...b.theirs, CLOSE);
  }
  return out;
}

interface Conflict {
  open: number; // line numbers, 1-based
  mid: number;
  close: number;
}

/** The conflicts still marked in doc. */
function conflictsIn(doc: Text): Conflict[] {
  const out: Conflict[] = [];
  let open = 0;
  let mid = 0;
  for (let n = 1; n <= doc.lines; n++) {
    const t = doc.line(n).text;
    if (t === OPEN) (open = n), (mid = 0);
    else if (t === MID && open) mid = n;
    else if (t.startsWith(CLOSE) && open && mid) {
      out.push({ open, mid, close: n });
      open = mid = 0;
    }
  }
  return out;
}

/** Replaces conflict k with mine, theirs or both. */
function resolve(view: EditorView, k: number, take: "mine" | "theirs" | "both"): void {
  const doc = view.state.doc;
  const c = conflictsIn(doc)[k];
  if (!c) return;
  const part = (from: number, to: number) => {
    const lines: string[] = [];
    for (let n = from; n <= to; n++) lines.push(doc.line(n).text);
    return lines;
  };
  const mine = part(c.open + 1, c.mid - 1);
  const theirs = part(c.mid + 1, c.close - 1);
  const lines = take === "mine" ? mine : take === "theirs" ? theirs : [...mine, ...theirs];
  const from = doc.line(c.open).from;
  const last = doc.line(c.close);
  if (lines.length) {
    view.dispatch({ changes: { from, to: last.to, insert: lines.join("\n") } });
  } else if (last.to < doc.length) {
    view.dispatch({ changes: { from, to: last.to + 1 } }); // with the break after it
  } else {
    view.dispatch({ changes: { from: Math.max(from - 1, 0), to: last.to } }); // with the break before it
  }
}

class ConflictButtons extends WidgetType {
  constructor(readonly k: number, readonly total: number) {
    super();
  }
  eq(o: ConflictButtons): boolean {
    return o.k === this.k && o.total === this.total;
  }
  toDOM(view: EditorView): HTMLElement {
    const n = `conflict ${this.k + 1} of ${this.total}`;
    const b = (label: string, take: "mine" | "theirs" | "both") =>
      h("button", { type: "button", "aria-label": `${label} (${n})`, onclick: () => resolve(view, this.k, take) }, label);
    return h("div", { class: "conflict-bar", role: "group", "aria-label": n },
      h("span", {}, `Conflict ${this.k + 1} of ${this.total}:`), b("Take mine", "mine"), b("Take theirs", "theirs"), b("Take both", "both"));
  }
  ignoreEvent(): boolean {
    return true;
  }
}

const mineLine = Decoration.line({ class: "cm-conflict-mine" });
const theirsLine = Decoration.line({ class: "cm-conflict-theirs" });
const markerLine = Decoration.line({ class: "cm-conflict-marker" });

function conflictDecorations(doc: Text): DecorationSet {
  const cs = conflictsIn(doc);
  const b = new RangeSetBuilder<Decoration>();
  cs.forEach((c, k) => {
    const open = doc.line(c.open);
    b.add(open.from, open.from, Decoration.widget({ widget: new ConflictButtons(k, cs.length), block: true, side: -1 }));
    for (let n = c.open; n <= c.close; n++) {
      const l = doc.line(n);
      b.add(l.from, l.from, n === c.open || n === c.mid || n === c.close ? markerLine : n < c.mid ? mineLine : theirsLine);
    }
  });
  return b.finish();
}

const conflictField = StateField.define<DecorationSet>({
  create: (s) => conflictDecorations(s.doc),
  update: (d, tr) => (tr.docChanged ? conflictDecorations(tr.state.doc) : d),
  provide: (f) => EditorView.decorations.from(f),
});

/** Line decorations on what side changed from base. */
function changedFrom(base: Text, side: Text): Extension {
  const b = new RangeSetBuilder<Decoration>();
  const changed = Decoration.line({ class: "cm-side-changed" });
  for (const c of Chunk.build(base, side)) {
    for (let pos = c.fromB; pos < Math.min(c.toB, side.length + 1); ) {
      const l = side.lineAt(Math.min(pos, side.length));
      b.add(l.from, l.from, changed);
      if (l.to + 1 > side.length) break;
      pos = l.to + 1;
    }
  }
  const set = b.finish();
  return EditorView.decorations.of(set);
}

export async function merge3Dialog(app: App, dialogs: Dialogs, tab: Tab): Promise<void> {
  if (!tab.state || !tab.disk || !tab.theirs) return;
  const base = tab.disk.text;
  const theirs = tab.theirs;
  const mine = tab.state.doc;
  const sep = tab.state.lineBreak;
  const lang = await language(tab.language);
  const common = (label: string, editable: boolean, extra: Extension = []): Extension[] => [
    EditorState.lineSeparator.of(sep),
    lineNumbers(),
    highlightSpecialChars(),
    drawSelection(),
    syntaxHighlighting(highlight),
    theme,
    lang,
    EditorView.contentAttributes.of({ "aria-label": label }),
    editable ? [history(), keymap.of([...defaultKeymap, ...historyKeymap])] : [EditorState.readOnly.of(true), EditorView.editable.of(false)],
    extra,
  ];
  const views: EditorView[] = [];
  const pane = (title: string, label: string, doc: Text, extra: Extension) => {
    const parent = h("div", { class: "merge3-pane" }, h("div", { class: "merge3-title" }, title));
    views.push(new EditorView({ parent, state: EditorState.create({ doc, extensions: common(label, false, extra) }) }));
    return parent;
  };
  const blocks = merge3(base.toJSON(), mine.toJSON(), theirs.text.toJSON());
  const total = blocks.filter((b) => b.kind === "conflict").length;
  const resultParent = h("div", { class: "merge3-result" });
  const result = new EditorView({
    parent: resultParent,
    state: EditorState.create({ doc: Text.of(resultLines(blocks)), extensions: common("Result", true, conflictField) }),
  });
  views.push(result);
  const destroy = () => views.forEach((v) => v.destroy());
  const note = h("p", { class: "merge3-note", role: "status" },
    total
      ? `${total === 1 ? "1 place where" : `${total} places where`} your edits and ${theirs.by}'s change overlap: choose for each, or edit the result.`
      : `Your edits and ${theirs.by}'s change no longer overlap: the result holds both.`);
  let busy = false;
  let close = () => {};
  const finish = () => {
    close();
    app.editor.focus();
  };
  const run = async (text: Text, force: boolean) => {
    if (busy) return;
    busy = true;
    const out = await saveMerged(app, tab, text, { text: theirs.text, version: theirs.version }, force);
    busy = false;
    if (out === "saved") finish();
    // On another conflict, save() has opened a fresh merge over the new disk text.
  };
  const saveBtn = h("button", {
    type: "button", class: "primary",
    onclick: () => {
      const left = conflictsIn(result.state.doc).length;
      if (left) {
        note.textContent = `${left === 1 ? "1 conflict is" : `${left} conflicts are`} still marked in the result: choose a side for each (or edit the lines), then save.`;
        return;
      }
      void run(result.state.doc, false);
    },
  }, "Save merged");
  const force = h("button", { type: "button", class: "danger", title: "Write your own text over the file on disk, without their change", onclick: () => void run(mine, true) }, "Overwrite disk with mine");
  const cancel = h("button", { type: "button", onclick: () => finish() }, "Cancel");
  close = dialogs.open(
    `Merge ${tab.name}`,
    [
      h("div", { class: "merge3-sides" },
        pane("Base: the text both started from", "Base", base, []),
        pane(`Theirs: on disk now, by ${theirs.by}`, "Theirs", theirs.text, changedFrom(base, theirs.text)),
        pane("Mine: your unsaved text", "Mine", mine, changedFrom(base, mine)),
      ),
      note,
      resultParent,
    ],
    [saveBtn, force, cancel],
    { wide: true, onClose: destroy },
  );
  result.focus();
}
