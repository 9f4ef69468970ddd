// The dialogs of code intelligence: a list of locations (references, or
// several definitions), a file's outline with a filter (Ctrl/Cmd+Shift+O),
// and a rename's preview (every file's patch) with its apply.

import type { App } from "../app";
import { h } from "../dom";
import { revealAt, type CodeLocation } from "../intelnav";

/** Locations grouped by file; a click opens one. */
export function showLocations(app: App, title: string, locs: CodeLocation[], total: number): void {
  const files = new Map<string, CodeLocation[]>();
  for (const l of locs) files.set(l.path, [...(files.get(l.path) ?? []), l]);
  const done = h("button", { type: "button", onclick: () => close() }, "Close");
  const list = h("div", { class: "search-results locations" });
  for (const [path, ls] of files) {
    list.append(h("section", { class: "hit-file", "aria-label": path }, h("h3", {}, path, h("span", { class: "count" }, ` ${ls.length}`)),
      h("ul", { class: "hits" }, ...ls.map((l) => h("li", {}, h("button", {
        type: "button", class: "hit", title: `${l.path}:${l.line}:${l.column}`,
        onclick: () => {
          close();
          void revealAt(app, l.path, l.line, l.column).catch((e) => app.model.say(String(e.message ?? e)));
        },
      }, h("span", { class: "ln" }, `${l.line}`), h("span", { class: "tx" }, l.text.trim())))))));
  }
  const more = total > locs.length ? ` (${total - locs.length} more not shown)` : "";
  const close = app.dialogs.open(title, [
    h("p", { role: "status" }, `${total} in ${files.size} ${files.size === 1 ? "file" : "files"}${more}`), list,
  ], [done], { wide: true });
  list.querySelector<HTMLElement>("button.hit")?.focus();
}

interface Symbol {
  name: string;
  kind: string;
  detail?: string;
  depth: number;
  line: number;
  column: number;
}

/** The file's symbols, nested, filtered as you type; Enter or a click goes. */
export function showOutline(app: App, path: string): void {
  const input = h("input", { type: "search", "aria-label": "Filter symbols", placeholder: "Go to symbol", spellcheck: "false" });
  const list = h("ul", { class: "palette-list outline", role: "listbox", "aria-label": "Symbols" });
  const note = h("p", { class: "panel-note", role: "status" }, "Asking the language server…");
  let symbols: Symbol[] = [];
  let shown: Symbol[] = [];
  let sel = 0;
  const go = (s: Symbol) => {
    close();
    void revealAt(app, path, s.line, s.column).catch((e) => app.model.say(String(e.message ?? e)));
  };
  const render = () => {
    const q = input.value.toLowerCase();
    shown = symbols.filter((s) => !q || s.name.toLowerCase().includes(q));
    sel = Math.min(sel, Math.max(0, shown.length - 1));
    list.replaceChildren(...shown.map((s, i) => h("li", {
      role: "option", "aria-selected": String(i === sel), class: `symbol kind-${s.kind} depth-${q ? 0 : Math.min(s.depth, 6)}`,
      onmousedown: (ev: MouseEvent) => (ev.preventDefault(), go(s)),
    }, h("span", { class: "kind" }, s.kind), " ", h("span", { class: "name" }, s.name), h("span", { class: "ln" }, ` ${s.line}`))));
    list.querySelector("[aria-selected=true]")?.scrollIntoView({ block: "nearest" });
  };
  input.addEventListener("input", () => ((sel = 0), render()));
  input.addEventListener("keydown", (ev) => {
    if (ev.key === "ArrowDown" || ev.key === "ArrowUp") {
      ev.preventDefault();
      sel = Math.max(0, Math.min(shown.length - 1, sel + (ev.key === "ArrowDown" ? 1 : -1)));
      render();
    } else if (ev.key === "Enter" && shown[sel]) {
      ev.preventDefault();
      go(shown[sel]);
    }
  });
  const close = app.dialogs.open(`Symbols in ${path}`, [input, note, list], [], { palette: true });
  input.focus();
  app.link.call<{ symbols: Symbol[]; total: number }>("editor_symbols", { path, limit: 5000 })
    .then((r) => {
      symbols = r.symbols;
      note.textContent = r.total ? "" : "No symbols.";
      note.hidden = !!r.total;
      render();
    })
    .catch((e) => (note.textContent = (e as Error).message));
}

interface RenameResult {
  files: { path: string; version: string; edits: number; patch: string; draft?: boolean; conflict?: boolean }[];
  edits: number;
  applied: boolean;
  conflict: boolean;
  reason?: string;
}

/** A rename's dry run shown as patches; Apply writes them all, or none. */
export async function showRename(app: App, req: { path: string; line: number; column: number; new_name: string }): Promise<void> {
  const dry = await app.link.call<RenameResult>("editor_rename", req);
  if (!dry.files.length) {
    app.model.say("Nothing to rename.");
    return;
  }
  const drafts = dry.files.filter((f) => f.draft).map((f) => f.path);
  const apply = h("button", { type: "button", class: "primary", onclick: () => void applyAll() },
    `Rename in ${dry.files.length} ${dry.files.length === 1 ? "file" : "files"}`);
  apply.disabled = drafts.length > 0;
  const cancel = h("button", { type: "button", onclick: () => close() }, "Cancel");
  const notes: Node[] = drafts.length
    ? [h("p", { class: "note", role: "alert" }, `Unsaved edits in ${drafts.join(", ")}: save or discard them first; a rename writes the files on disk.`)]
    : [];
  const close = app.dialogs.open(`Rename to ${req.new_name}`, [
    h("p", {}, `${dry.edits} ${dry.edits === 1 ? "occurrence" : "occurrences"} in ${dry.files.length} ${dry.files.length === 1 ? "file" : "files"}. All files are written, or none if any changed since this preview.`),
    ...notes,
    h("div", { class: "patches" }, ...dry.files.map((f) => h("section", { "aria-label": f.path },
      h("h3", {}, f.path, h("span", { class: "count" }, ` ${f.edits}`)),
      h("pre", { class: "patch" }, f.patch || "(the change is too large to show)")))),
  ], [apply, cancel], { wide: true });

  async function applyAll(): Promise<void> {
    close();
    const versions: Record<string, string> = {};
    for (const f of dry.files) versions[f.path] = f.version;
    try {
      const r = await app.link.call<RenameResult>("editor_rename", { ...req, versions });
      app.model.say(r.applied
        ? `Renamed ${r.edits} ${r.edits === 1 ? "occurrence" : "occurrences"} in ${r.files.length} ${r.files.length === 1 ? "file" : "files"}.`
        : `Nothing renamed: ${r.reason ?? "a file changed"}`);
    } catch (e) {
      app.model.say(`Nothing renamed: ${(e as Error).message}`);
    }
  }
}
