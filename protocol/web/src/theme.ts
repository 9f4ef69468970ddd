// The editor's colours as CSS variables (style.css sets a light and a dark
// set from prefers-color-scheme), so one theme serves both.

import { EditorView } from "@codemirror/view";

export const theme = EditorView.theme({
  "&": { color: "var(--fg)", backgroundColor: "var(--bg)", height: "100%" },
  "&.cm-focused": { outline: "none" },
  ".cm-scroller": { fontFamily: "var(--mono)", fontSize: "13px", lineHeight: "1.5" },
  ".cm-content": { caretColor: "var(--fg)" },
  ".cm-cursor, .cm-dropCursor": { borderLeftColor: "var(--fg)" },
  ".cm-gutters": { backgroundColor: "var(--bg-side)", color: "var(--fg-dim)", borderRight: "1px solid var(--line)" },
  ".cm-activeLine": { backgroundColor: "var(--active-line)" },
  ".cm-activeLineGutter": { backgroundColor: "var(--active-line)", color: "var(--fg)" },
  "&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground, .cm-content ::selection": { backgroundColor: "var(--selection)" },
  ".cm-selectionMatch": { backgroundColor: "var(--match)" },
  ".cm-searchMatch": { backgroundColor: "var(--match)", outline: "1px solid var(--accent)" },
  ".cm-searchMatch.cm-searchMatch-selected": { backgroundColor: "var(--selection)" },
  ".cm-panels": { backgroundColor: "var(--bg-side)", color: "var(--fg)" },
  ".cm-panels.cm-panels-top": { borderBottom: "1px solid var(--line)" },
  ".cm-panels.cm-panels-bottom": { borderTop: "1px solid var(--line)" },
  ".cm-textfield": { backgroundColor: "var(--bg)", color: "var(--fg)", border: "1px solid var(--line)" },
  ".cm-button": { backgroundImage: "none", backgroundColor: "var(--bg-button)", color: "var(--fg)", border: "1px solid var(--line)" },
  ".cm-foldPlaceholder": { backgroundColor: "var(--bg-button)", color: "var(--fg-dim)", border: "none" },
  ".cm-tooltip": { backgroundColor: "var(--bg-side)", color: "var(--fg)", border: "1px solid var(--line)" },
  ".cm-matchingBracket": { backgroundColor: "var(--match)", outline: "1px solid var(--fg-dim)" },
  ".cm-specialChar": { color: "var(--invalid)" },
  // Diffs in colour, as strong as VS Code's: added and changed lines
  // green, the old side red (inline, and in the side-by-side views).
  "&.cm-merge-b .cm-changedLine, .cm-inlineChangedLine": { backgroundColor: "var(--diff-add-line)" },
  "&.cm-merge-b .cm-changedText": { background: "var(--diff-add-text)" },
  "&.cm-merge-a .cm-changedLine, .cm-deletedChunk": { backgroundColor: "var(--diff-del-line)" },
  "&.cm-merge-a .cm-changedText, .cm-deletedChunk .cm-deletedText": { background: "var(--diff-del-text)" },
  ".cm-deletedChunk .cm-deletedLine del": { textDecoration: "none" },
  ".cm-deletedChunk .cm-chunkButtons button[name=reject]": { background: "var(--bg-button)", color: "var(--fg)", border: "1px solid var(--line)", font: "11px var(--sans)" },
  ".cm-changedLineGutter": { backgroundColor: "var(--git-add)" },
  "&.cm-merge-a .cm-changedLineGutter, .cm-deletedLineGutter": { backgroundColor: "var(--danger)" },
});
