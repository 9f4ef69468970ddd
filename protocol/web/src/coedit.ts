// Co-editing, inside each tab's EditorState: the person's changes since
// the text their edits are made over (the base, tab.disk), kept as one
// CodeMirror ChangeSet so that another writer's change to the same file
// can be rebased under them (rebase.ts) the way a collaborative editor's
// authority does it: their change is mapped over the person's, the
// person's over theirs, and both land with the cursor and the undo
// history mapped through (the rebase is a transaction outside history).
// Also the quiet marker on the lines such a change brought in.

import { Annotation, ChangeSet, StateEffect, StateField, type EditorState, type Extension, type Text, type Transaction } from "@codemirror/state";
import { Decoration, EditorView, type DecorationSet } from "@codemirror/view";

interface Coedit {
  /** base -> doc, or null when not known (a draft restored over a base
   * this page did not hold): rebase.ts then diffs the base and the doc. */
  pending: ChangeSet | null;
  /** doc at the start of a save in flight -> doc, while one is. */
  since: ChangeSet | null;
}

/** Marks the transaction that rebases the doc onto another writer's
 * change: theirs and the person's (mine), both over the base. */
export const rebased = Annotation.define<{ theirs: ChangeSet; mine: ChangeSet }>();
/** The doc, after the transaction, is the base now (loaded, followed,
 * taken from the disk). */
export const resetBase = StateEffect.define<null>();
/** The person's changes are over a new base; null: not known. */
export const setPending = StateEffect.define<ChangeSet | null>();
/** A save of the doc as it is now begins. */
export const saveBegins = StateEffect.define<null>();
/** The save ended: true when the doc it sent is the base now. */
export const saveEnds = StateEffect.define<boolean>();

const coedit = StateField.define<Coedit>({
  create: () => ({ pending: null, since: null }),
  update(v, tr) {
    let { pending, since } = v;
    const over = tr.annotation(rebased);
    if (over) {
      // Theirs went in under ours: ours, mapped over theirs, is what the
      // doc holds beyond the new base. (A save in flight does not see
      // rebases: their events wait for its answer.)
      pending = over.mine.map(over.theirs, true);
      since = null;
    } else if (tr.docChanged) {
      pending = pending && pending.compose(tr.changes);
      since = since && since.compose(tr.changes);
    }
    for (const e of tr.effects) {
      if (e.is(resetBase)) {
        pending = ChangeSet.empty(tr.state.doc.length);
        since = null;
      } else if (e.is(setPending)) {
        pending = e.value;
        since = null;
      } else if (e.is(saveBegins)) {
        since = ChangeSet.empty(tr.state.doc.length);
      } else if (e.is(saveEnds)) {
        if (e.value) pending = since;
        since = null;
      }
    }
    return { pending, since };
  },
});

/** The person's changes from base to the doc, when known and consistent. */
export function pendingOf(state: EditorState, base: Text): ChangeSet | null {
  const p = state.field(coedit, false)?.pending ?? null;
  return p && p.length === base.length && p.newLength === state.doc.length ? p : null;
}

// The quiet marker: lines another writer's change brought into the
// person's unsaved text are tinted for a few seconds.
const markLines = StateEffect.define<readonly { from: number; to: number }[]>();
const clearMarks = StateEffect.define<null>();
const mergedLine = Decoration.line({ class: "cm-merged-in", attributes: { title: "Merged in from a change made elsewhere" } });

const marks = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(deco, tr) {
    deco = deco.map(tr.changes);
    for (const e of tr.effects) {
      if (e.is(clearMarks)) deco = Decoration.none;
      if (e.is(markLines)) {
        const doc = tr.state.doc;
        const starts = new Set<number>();
        for (const r of e.value) {
          // The lines the range writes on: not the line it only ends a
          // break of, nor the one it only starts a break at.
          let first = doc.lineAt(r.from);
          let last = doc.lineAt(r.to);
          if (r.to > r.from && r.from === first.to && first.number < doc.lines) first = doc.line(first.number + 1);
          if (r.to > r.from && r.to === last.from && last.number > first.number) last = doc.line(last.number - 1);
          for (let n = first.number; n <= last.number; n++) starts.add(doc.line(n).from);
        }
        deco = deco.update({ add: [...starts].sort((a, b) => a - b).map((p) => mergedLine.range(p)) });
      }
    }
    return deco;
  },
  provide: (f) => EditorView.decorations.from(f),
});

/** The effects that mark the ranges a rebase transaction wrote, in the
 * doc after it. */
export function markMerged(changes: ChangeSet): StateEffect<unknown>[] {
  const ranges: { from: number; to: number }[] = [];
  changes.iterChangedRanges((_fa, _ta, fb, tb) => ranges.push({ from: fb, to: tb }));
  return ranges.length ? [markLines.of(ranges)] : [];
}

export const unmark = clearMarks.of(null);

/** The fields of a tab's state; clean: the doc it starts with is its
 * base (otherwise the person's changes are found by a diff when needed). */
export function coeditFor(clean: boolean): Extension {
  return [clean ? coedit.init((s) => ({ pending: ChangeSet.empty(s.doc.length), since: null })) : coedit, marks];
}


/** Whether a transaction is a rebase (not the person's typing). */
export function isRebase(tr: Transaction): boolean {
  return tr.annotation(rebased) !== undefined;
}
