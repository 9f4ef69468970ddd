// The merge view (@codemirror/merge): the disk's text on the left,
// read-only; the person's on the right, editable, with arrows that take
// the disk's side of a chunk. Saving sends the right side guarded by the
// disk version shown; overwriting without a guard is a separate, labelled
// button.

import { MergeView } from "@codemirror/merge";
import { EditorState, type Extension } from "@codemirror/state";
import { EditorView, lineNumbers, highlightSpecialChars, drawSelection, keymap } from "@codemirror/view";
import { history, defaultKeymap, historyKeymap } from "@codemirror/commands";
import { syntaxHighlighting } from "@codemirror/language";
import type { App } from "../app";
import { h } from "../dom";
import { saveMerged } from "../docs";
import { highlight } from "../highlight";
import { theme } from "../theme";
import { language } from "../languages";
import type { Tab } from "../model";
import type { Dialogs } from "./dialog";

export async function mergeDialog(app: App, dialogs: Dialogs, tab: Tab): Promise<void> {
  const disk = tab.theirs ?? tab.disk;
  if (!tab.state || !disk) return;
  const sep = tab.state.lineBreak;
  const against = disk.version;
  const lang = await language(tab.language);
  const common = (editable: boolean): Extension[] => [
    EditorState.lineSeparator.of(sep),
    lineNumbers(),
    highlightSpecialChars(),
    drawSelection(),
    history(),
    keymap.of([...defaultKeymap, ...historyKeymap]),
    syntaxHighlighting(highlight),
    theme,
    EditorView.lineWrapping,
    lang,
    editable ? [] : [EditorState.readOnly.of(true), EditorView.editable.of(false)],
  ];
  const parent = h("div", { class: "merge" });
  const by = tab.remote?.by ? ` (changed by ${tab.remote.by})` : "";
  const view = new MergeView({
    a: {
      doc: disk.text,
      extensions: [
        ...common(false),
        EditorView.contentAttributes.of({ "aria-label": "On disk (theirs)" }),
        EditorState.phrases.of({ "Revert this chunk": "Take this chunk from disk" }),
      ],
    },
    b: { doc: tab.state.doc, extensions: [...common(true), EditorView.contentAttributes.of({ "aria-label": "Yours (merged result)" })] },
    parent,
    revertControls: "a-to-b",
    highlightChanges: true,
    gutter: true,
  });
  let busy = false;
  const run = async (force: boolean) => {
    if (busy) return;
    busy = true;
    const out = await saveMerged(app, tab, view.b.state.doc, { text: disk.text, version: against }, force);
    busy = false;
    if (out === "saved") {
      close();
      view.destroy();
      app.editor.focus();
    }
    // On another conflict, save() has opened a fresh merge over the new disk text.
  };
  const saveBtn = h("button", { type: "button", class: "primary", onclick: () => void run(false) }, "Save merged");
  const force = h("button", { type: "button", class: "danger", onclick: () => void run(true), title: "Write your side over the file on disk without checking its version" }, "Overwrite disk with mine");
  const cancel = h("button", { type: "button", onclick: () => (close(), view.destroy()) }, "Cancel");
  const close = dialogs.open(
    `Merge ${tab.name}`,
    [
      h("p", { class: "legend" },
        h("span", {}, `Left: the file on disk now${by}, read-only.`), " ",
        h("span", {}, "Right: your text, the result. Edit it, or use the arrows to take the disk's lines."),
      ),
      parent,
    ],
    [saveBtn, force, cancel],
    { wide: true, onCancel: () => view.destroy() },
  );
  view.b.focus();
}
