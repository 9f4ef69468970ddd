// Git markers in the editor's gutter: lines added, modified, and where
// lines were deleted, from editor_git_hunks (index → the file on disk, as
// `git diff -U0` shows it). The markers live in the tab's EditorState and
// move with the person's edits until the next refresh.

import { RangeSet, StateEffect, StateField, type Extension } from "@codemirror/state";
import { GutterMarker, gutter } from "@codemirror/view";
import type { GitHunksResult } from "./wire";

export type Hunk = GitHunksResult["hunks"][number];

class Mark extends GutterMarker {
  constructor(readonly kind: "added" | "modified" | "deleted") {
    super();
  }
  eq(o: Mark) {
    return o.kind === this.kind;
  }
  toDOM() {
    const el = document.createElement("span");
    el.className = `git-${this.kind}`;
    el.title = this.kind === "deleted" ? "lines deleted below" : `line ${this.kind}`;
    return el;
  }
}

const marks = { added: new Mark("added"), modified: new Mark("modified"), deleted: new Mark("deleted") };

export const setHunks = StateEffect.define<Hunk[]>();

/** The DOM event a click on a change bar sends from the editor. */
export const gutterClick = "editord-git-gutter-click";

const field = StateField.define<RangeSet<GutterMarker>>({
  create: () => RangeSet.empty,
  update(set, tr) {
    for (const e of tr.effects) {
      if (!e.is(setHunks)) continue;
      const doc = tr.state.doc;
      const ranges = [];
      for (const h of e.value) {
        const line = (n: number) => doc.line(Math.min(Math.max(n, 1), doc.lines)).from;
        if (h.new_lines === 0) {
          ranges.push(marks.deleted.range(line(h.new_start)));
        } else {
          const kind = h.old_lines === 0 ? marks.added : marks.modified;
          for (let n = h.new_start; n < h.new_start + h.new_lines && n <= doc.lines; n++) ranges.push(kind.range(line(n)));
        }
      }
      return RangeSet.of(ranges, true);
    }
    return tr.docChanged ? set.map(tr.changes) : set;
  },
});

export const gitGutter: Extension = [
  field,
  gutter({
    class: "cm-git-gutter",
    markers: (v) => v.state.field(field),
    // A click on a change bar asks for the changes inline; the editor
    // pane, which knows the tab, answers (EditorHost).
    domEventHandlers: {
      mousedown(view, line) {
        let marked = false;
        view.state.field(field).between(line.from, line.from, () => {
          marked = true;
        });
        if (marked) view.dom.dispatchEvent(new CustomEvent(gutterClick, { bubbles: true, detail: line.from }));
        return marked;
      },
    },
  }),
];
