// Where a language server's answer leads: its locations and problems, and
// the move to one (open the file, put the cursor there). Apart from
// intel.ts so that the views that list locations need not import it.
//
// Positions travel as editord's: 1-based lines and 1-based columns in
// characters (code points); CodeMirror counts UTF-16 units, converted here.

import { EditorSelection, type Text } from "@codemirror/state";
import type { App } from "./app";
import { load, openFile } from "./docs";

export interface CodeLocation {
  path: string;
  line: number;
  column: number;
  end_line: number;
  end_column: number;
  text: string;
}

export interface CodeDiagnostic extends CodeLocation {
  severity: "error" | "warning" | "information" | "hint";
  message: string;
  source?: string;
}

export interface DiagnosticsResult {
  diagnostics: CodeDiagnostic[];
  errors: number;
  warnings: number;
  total: number;
  settled: boolean;
}

/** The CodeMirror position of an editord line and character column. */
export function posOf(doc: Text, line: number, column: number): number {
  const l = doc.line(Math.max(1, Math.min(line, doc.lines)));
  let off = 0;
  let col = 1;
  for (const ch of l.text) {
    if (col >= column) break;
    off += ch.length;
    col++;
  }
  return l.from + off;
}

/** The editord line and character column of a CodeMirror position. */
export function lineColumn(doc: Text, pos: number): { line: number; column: number } {
  const l = doc.lineAt(pos);
  return { line: l.number, column: [...l.text.slice(0, pos - l.from)].length + 1 };
}

/** Opens path at line:column (editord's numbering) and puts the cursor there. */
export async function revealAt(app: App, path: string, line: number, column: number): Promise<void> {
  await openFile(app, path);
  const tab = app.model.tabs.get(path);
  if (!tab) return;
  await load(app, tab);
  if (!tab.state) return;
  const pos = posOf(tab.state.doc, line, column);
  app.editor.apply(tab, { selection: EditorSelection.cursor(pos), scrollIntoView: true });
  app.editor.focus();
}

