// One CodeMirror EditorState per tab: the text, selection and undo history
// live there (CodeMirror's own model), built with the file's line separator
// so that its bytes come back unchanged.

import { Compartment, EditorState, Prec, type Extension, type Text } from "@codemirror/state";
import {
  EditorView, keymap, lineNumbers, highlightActiveLineGutter, highlightSpecialChars, drawSelection,
  dropCursor, rectangularSelection, crosshairCursor, highlightActiveLine,
} from "@codemirror/view";
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { bracketMatching, foldGutter, foldKeymap, indentOnInput, syntaxHighlighting } from "@codemirror/language";
import { gotoLine, highlightSelectionMatches, searchKeymap } from "@codemirror/search";
import { closeBrackets, closeBracketsKeymap } from "@codemirror/autocomplete";
import { highlight } from "./highlight";
import { theme } from "./theme";
import { gitGutter } from "./gutter";
import { normalizePaste } from "./text";
import { cutMarker } from "./cut";
import { diffSlot } from "./inlinediff";
import { wrapExtension } from "./wrap";
import { coeditFor } from "./coedit";

export const languageSlot = new Compartment();

/** CodeMirror's basic setup without completion and lint, which this page
 * has nothing to feed. */
const setup: Extension = [
  lineNumbers(),
  // Right of the numbers, as VS Code puts its change bars.
  gitGutter,
  highlightActiveLineGutter(),
  highlightSpecialChars(),
  history(),
  foldGutter(),
  drawSelection(),
  dropCursor(),
  EditorState.allowMultipleSelections.of(true),
  indentOnInput(),
  bracketMatching(),
  closeBrackets(),
  rectangularSelection(),
  crosshairCursor(),
  highlightActiveLine(),
  highlightSelectionMatches(),
  keymap.of([...closeBracketsKeymap, ...defaultKeymap, ...searchKeymap, ...historyKeymap, ...foldKeymap]),
];

export interface Hooks {
  save(): void;
}

export function makeState(doc: string | Text, separator: string, opts: { readOnly: boolean; hooks: Hooks; language?: Extension; clean?: boolean; extra?: Extension; cut?: string }): EditorState {
  return EditorState.create({
    doc,
    extensions: [
      EditorState.lineSeparator.of(separator),
      Prec.highest(keymap.of([
        { key: "Mod-s", preventDefault: true, run: () => (opts.hooks.save(), true) },
        // Go to line, as in VS Code (CodeMirror's own key is Mod-Alt-g).
        { key: "Mod-g", preventDefault: true, run: gotoLine },
      ])),
      setup,
      keymap.of([indentWithTab]),
      syntaxHighlighting(highlight),
      theme,
      EditorView.clipboardInputFilter.of((text) => normalizePaste(text, separator)),
      EditorView.contentAttributes.of({ "aria-label": "File content" }),
      languageSlot.of(opts.language ?? []),
      diffSlot.of([]),
      wrapExtension(),
      coeditFor(opts.clean ?? true),
      opts.extra ?? [],
      // Read-only, yet focusable: the keys that move and select still work
      // (Ctrl+End, Ctrl+F), and the status bar follows the cursor.
      opts.readOnly ? EditorState.readOnly.of(true) : [],
      opts.cut ? cutMarker(opts.cut) : [],
    ],
  });
}
