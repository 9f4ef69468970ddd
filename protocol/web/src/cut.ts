// The marker at the end of a file shown cut short (bigfile.ts): a line
// across the editor saying where it stops and why, so a cut is never
// mistaken for the file's end.

import { StateField, type Extension } from "@codemirror/state";
import { Decoration, EditorView, WidgetType } from "@codemirror/view";

class CutWidget extends WidgetType {
  constructor(readonly text: string) {
    super();
  }
  eq(o: CutWidget) {
    return o.text === this.text;
  }
  toDOM() {
    const el = document.createElement("div");
    el.className = "cm-cut";
    el.setAttribute("role", "note");
    el.textContent = this.text;
    return el;
  }
}

export function cutMarker(text: string): Extension {
  const deco = (len: number) => Decoration.set([Decoration.widget({ widget: new CutWidget(text), block: true, side: 1 }).range(len)]);
  return StateField.define({
    create: (st) => deco(st.doc.length),
    update: (v, tr) => (tr.docChanged ? deco(tr.state.doc.length) : v),
    provide: (f) => EditorView.decorations.from(f),
  });
}
