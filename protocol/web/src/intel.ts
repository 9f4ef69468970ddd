// Code intelligence in the editor, from the language servers editord runs
// (editor_definition, editor_references, editor_hover, editor_symbols,
// editor_diagnostics, editor_rename): F12 and Ctrl/Cmd-click go to the
// definition, Shift+F12 lists references, a pause over a name shows its
// hover, F2 renames (preview, then apply), Ctrl/Cmd+Shift+O the file's
// outline, and the file's problems are underlined. The server reads the
// person's draft (kept by drafts.ts before every question), so what it
// says matches the screen.
//
// Positions travel as editord's: 1-based lines and 1-based columns in
// characters (code points); CodeMirror counts UTF-16 units, converted here.

import { EditorSelection, Prec, RangeSetBuilder, StateEffect, StateField, type Extension, type Text } from "@codemirror/state";
import { Decoration, EditorView, ViewPlugin, hoverTooltip, keymap, type DecorationSet } from "@codemirror/view";
import type { App } from "./app";
import { h } from "./dom";
import { syncDraft } from "./drafts";
import type { Tab } from "./model";
import { lineColumn, posOf, revealAt, type CodeDiagnostic, type CodeLocation, type DiagnosticsResult } from "./intelnav";
import { showLocations, showOutline, showRename } from "./views/intelviews";
import { mirrorEffect, shownTabs, tabOf } from "./views/split";

export type { CodeDiagnostic, CodeLocation, DiagnosticsResult };
export { lineColumn, posOf, revealAt };

/** The languages a server is configured for by default (editor/lsp). */
const served = new Set(["go", "typescript", "javascript", "python"]);

/** The request naming the tab's position pos, with the draft kept first so
 * the server reads what is on screen. */
async function at(app: App, tab: Tab, pos: number): Promise<{ path: string; line: number; column: number } | null> {
  if (!tab.state) return null;
  if (!served.has(tab.language)) {
    app.model.say(`No language server is configured for ${tab.language} files.`);
    return null;
  }
  const doc = tab.state.doc;
  if (tab.dirty) await syncDraft(app, tab);
  return { path: tab.path, ...lineColumn(doc, pos) };
}

export async function goToDefinition(app: App, tab: Tab, pos: number): Promise<void> {
  const req = await at(app, tab, pos);
  if (!req) return;
  const r = await app.link.call<{ definitions: CodeLocation[]; outside_jail: number }>("editor_definition", req);
  if (r.definitions.length === 1) {
    const d = r.definitions[0];
    await revealAt(app, d.path, d.line, d.column);
  } else if (r.definitions.length > 1) {
    showLocations(app, "Definitions", r.definitions, r.definitions.length);
  } else {
    app.model.say(r.outside_jail ? "Defined outside the workspace (a standard library or module cache)." : "No definition found.");
  }
}

export async function findReferences(app: App, tab: Tab, pos: number): Promise<void> {
  const req = await at(app, tab, pos);
  if (!req) return;
  const r = await app.link.call<{ references: CodeLocation[]; total: number }>("editor_references", { ...req, limit: 2000 });
  if (!r.total) {
    app.model.say("No references found.");
    return;
  }
  showLocations(app, "References", r.references, r.total);
}

export async function renameSymbol(app: App, tab: Tab, pos: number): Promise<void> {
  if (!tab.state) return;
  const word = tab.state.wordAt(pos);
  const req = await at(app, tab, word ? word.from : pos);
  if (!req) return;
  const name = await app.dialogs.prompt("Rename symbol", "New name", word ? tab.state.sliceDoc(word.from, word.to) : "");
  if (!name) return;
  await showRename(app, { ...req, new_name: name });
}

export async function outline(app: App, tab: Tab): Promise<void> {
  if (!served.has(tab.language)) {
    app.model.say(`No language server is configured for ${tab.language} files.`);
    return;
  }
  if (tab.dirty) await syncDraft(app, tab);
  showOutline(app, tab.path);
}

// The problems of the file on screen, underlined.

const setProblems = StateEffect.define<DecorationSet>();
// Underlined on the right too when the file is open on both sides.
mirrorEffect(setProblems);

const problemsField = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(deco, tr) {
    deco = deco.map(tr.changes);
    for (const e of tr.effects) if (e.is(setProblems)) deco = e.value;
    return deco;
  },
  provide: (f) => EditorView.decorations.from(f),
});

function decorations(doc: Text, list: CodeDiagnostic[]): DecorationSet {
  const marks = list.map((d) => {
    const from = posOf(doc, d.line, d.column);
    let to = posOf(doc, d.end_line, d.end_column);
    if (to <= from) to = Math.min(doc.length, from + 1);
    return { from, to, d };
  }).filter((m) => m.to > m.from).sort((a, b) => a.from - b.from || a.to - b.to);
  const b = new RangeSetBuilder<Decoration>();
  for (const { from, to, d } of marks) {
    b.add(from, to, Decoration.mark({ class: `cm-problem cm-problem-${d.severity}`, attributes: { title: `${d.severity}: ${d.message}` } }));
  }
  return b.finish();
}

/** The last problems each tab showed, for the Problems panel. */
export const fileProblems = new Map<string, CodeDiagnostic[]>();
const listeners = new Set<() => void>();
export function onProblems(f: () => void): void {
  listeners.add(f);
}

/** A file changed (anyone's write): the files on screen (either group:
 * a change to one file can break another's calls) and the Problems panel
 * may have other problems now. */
export function noteChange(app: App): void {
  for (const tab of shownTabs(app)) if (tab.loaded) scheduleProblems(app, tab, 800);
  for (const f of listeners) f();
}

const timers = new Map<Tab, ReturnType<typeof setTimeout>>();

/** Asks for the tab's problems a moment after the last edit. */
export function scheduleProblems(app: App, tab: Tab, delay = 600): void {
  if (!served.has(tab.language)) return;
  clearTimeout(timers.get(tab));
  timers.set(tab, setTimeout(() => void refreshProblems(app, tab), delay));
}

export async function refreshProblems(app: App, tab: Tab): Promise<void> {
  timers.delete(tab);
  if (!tab.state || !served.has(tab.language)) return;
  if (tab.dirty) await syncDraft(app, tab);
  const doc = tab.state.doc;
  let r: DiagnosticsResult;
  try {
    r = await app.link.call<DiagnosticsResult>("editor_diagnostics", { path: tab.path, wait_ms: 10000 });
  } catch {
    return; // no server for it, or it is not installed: nothing to underline
  }
  // Only for the text it was asked about; an edit since asked again.
  if (!tab.state || tab.state.doc !== doc) return;
  fileProblems.set(tab.path, r.diagnostics);
  app.editor.apply(tab, { effects: setProblems.of(decorations(doc, r.diagnostics)) });
  for (const f of listeners) f();
  // A server still loading the workspace answered before it was done.
  if (!r.settled) scheduleProblems(app, tab, 1000);
}

const hover = hoverTooltip(async (view, pos) => {
  // The tab of the view hovered: either side of a split.
  const tab = current && tabOf(current, view);
  if (!current || !tab || !served.has(tab.language)) return null;
  const word = view.state.wordAt(pos);
  if (!word) return null;
  let r: { contents: string };
  try {
    r = await current.link.call<{ contents: string }>("editor_hover", { path: tab.path, ...lineColumn(view.state.doc, pos) });
  } catch {
    return null;
  }
  if (!r.contents) return null;
  return {
    pos: word.from, end: word.to, above: true,
    create: () => ({ dom: hoverDom(r.contents) }),
  };
}, { hoverTime: 400 });

/** A hover's Markdown as text: fenced code as code, the rest as
 * paragraphs; links and emphasis are shown as written. */
function hoverDom(md: string): HTMLElement {
  const box = h("div", { class: "cm-hover", role: "tooltip" });
  const parts = md.split(/^```[a-z]*\n?/m);
  parts.forEach((part, i) => {
    const text = part.replace(/\n?```\s*$/, "").trim();
    if (!text || text === "---") return;
    if (i % 2 === 1) box.append(h("pre", {}, text));
    else for (const p of text.split(/\n\s*\n|^---$/m)) if (p.trim() && p.trim() !== "---") box.append(h("p", {}, p.trim()));
  });
  return box;
}

let current: App | null = null;

/** The editor extension of one tab. */
export function codeIntel(app: App, tab: Tab): Extension {
  current = app;
  const run = (f: (view: EditorView) => Promise<void>) => (view: EditorView) => {
    f(view).catch((e) => app.model.say(String((e as Error).message ?? e)));
    return true;
  };
  const head = (view: EditorView) => view.state.selection.main.head;
  return [
    problemsField,
    hover,
    Prec.high(keymap.of([
      { key: "F12", preventDefault: true, run: run((v) => goToDefinition(app, tab, head(v))) },
      { key: "Shift-F12", preventDefault: true, run: run((v) => findReferences(app, tab, head(v))) },
      { key: "F2", preventDefault: true, run: run((v) => renameSymbol(app, tab, head(v))) },
      { key: "Mod-Shift-o", preventDefault: true, run: run(() => outline(app, tab)) },
    ])),
    EditorView.domEventHandlers({
      mousedown(ev, view) {
        if (!(ev.ctrlKey || ev.metaKey) || ev.button !== 0 || ev.altKey || ev.shiftKey) return false;
        const pos = view.posAtCoords({ x: ev.clientX, y: ev.clientY });
        if (pos === null) return false;
        ev.preventDefault();
        view.dispatch({ selection: EditorSelection.cursor(pos) });
        void goToDefinition(app, tab, pos).catch((e) => app.model.say(String((e as Error).message ?? e)));
        return true;
      },
    }),
    EditorView.updateListener.of((u) => {
      if (u.docChanged) scheduleProblems(app, tab);
    }),
    // Made again each time the tab is put on screen (EditorView.setState):
    // its text may have followed a change while it was hidden.
    ViewPlugin.define(() => (scheduleProblems(app, tab, 50), {})),
  ];
}
