// The palette, as VS Code's quick open: go to file (Ctrl/Cmd-P), a
// combobox over editor_find; with "#" first, go to a symbol of the
// workspace (editor_symbols' query: Go's from editord's own index); and
// with ">" first (Ctrl+Shift+P, F1) every command of the registry with its
// shortcut. Files and symbols come as the person types (one call in
// flight; an answer overtaken by typing is dropped for one of the newest
// text), a file's matched characters marked from the result's positions;
// Enter opens the file as a shared tab, at the symbol for a symbol.
// Commands are filtered here, at each key, with nothing asked of the
// server.

import type { App } from "../app";
import { h } from "../dom";
import { openFile } from "../docs";
import type { FindResult, SymbolsResult } from "../wire";
import { revealAt } from "../intelnav";
import { reveal } from "../files";
import { commands, keyLabel, runCommand, type Command } from "../commands";

/** Byte offsets into a UTF-8 string, as UTF-16 indexes into s. */
export function byteToIndex(s: string, bytes: number[]): Set<number> {
  const want = new Set(bytes);
  const out = new Set<number>();
  let b = 0;
  for (let i = 0; i < s.length; i++) {
    if (want.has(b)) out.add(i);
    const c = s.codePointAt(i)!;
    const n = c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
    b += n;
    if (c >= 0x10000) i++;
  }
  return out;
}

/** A path with the characters at the given indexes marked. */
export function marked(s: string, at: Set<number>): (Node | string)[] {
  const out: (Node | string)[] = [];
  let run = "";
  let inMark = false;
  const flush = () => {
    if (run) out.push(inMark ? h("mark", {}, run) : run);
    run = "";
  };
  for (let i = 0; i < s.length; i++) {
    const on = at.has(i);
    if (on !== inMark) {
      flush();
      inMark = on;
    }
    run += s[i];
  }
  flush();
  return out;
}

/** Ranks command titles for a query: every word of it must be in the
 * title, in order of appearance or not; a title that starts with the
 * query, or has it at a word's start, comes first. Returns the commands
 * with the indexes of the matched characters. */
export function rankCommands(list: Command[], query: string): { command: Command; at: Set<number> }[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const out: { command: Command; at: Set<number>; score: number }[] = [];
  for (const c of list) {
    const t = c.title.toLowerCase();
    const at = new Set<number>();
    let score = 0;
    let ok = true;
    for (const w of words) {
      let i = t.indexOf(w);
      // At a word's start beats inside a word.
      for (let j = i; j >= 0; j = t.indexOf(w, j + 1)) {
        if (j === 0 || /[\s:(]/.test(t[j - 1])) {
          i = j;
          score += j === 0 ? 30 : 20;
          break;
        }
      }
      if (i < 0) {
        // Letters in order (gtcm: Git: Commit).
        let k = 0;
        const pos: number[] = [];
        for (const ch of w) {
          k = t.indexOf(ch, k);
          if (k < 0) break;
          pos.push(k++);
        }
        if (pos.length !== w.length) {
          ok = false;
          break;
        }
        pos.forEach((p) => at.add(p));
        continue;
      }
      score += 10;
      for (let j = 0; j < w.length; j++) at.add(i + j);
    }
    if (ok) out.push({ command: c, at, score });
  }
  return out.sort((a, b) => b.score - a.score || a.command.title.localeCompare(b.command.title));
}

/** Each mode's dialog title, input label and list label. */
const modes: Record<string, [string, string, string]> = {
  files: ["Go to file", "File name", "Files"],
  symbols: ["Go to symbol in workspace", "Symbol name", "Symbols"],
  commands: ["Commands", "Command", "Commands"],
};

interface Item {
  id: string;
  label: (Node | string)[];
  keys?: string;
  run(): void;
}

/** Opens the palette: files, or commands when the text starts with ">". */
export function openPalette(app: App, text = ""): void {
  const input = h("input", {
    type: "text", role: "combobox", "aria-label": "File name", "aria-expanded": "true", "aria-controls": "palette-list",
    "aria-autocomplete": "list", spellcheck: "false", placeholder: "Type part of a file's name, # for symbols, or > for commands",
  });
  input.value = text;
  const list = h("ul", { role: "listbox", id: "palette-list", "aria-label": "Files", class: "palette-list" });
  const note = h("p", { class: "palette-note", role: "status" });
  let items: Item[] = [];
  let active = 0;
  const isCommands = () => input.value.startsWith(">");
  const isSymbols = () => input.value.startsWith("#");
  const show = (next: Item[], empty: string) => {
    list.replaceChildren();
    items = next;
    active = 0;
    next.forEach((it, i) => {
      list.append(h("li", {
        role: "option", id: `palette-opt-${i}`, "aria-selected": String(i === 0), "data-path": it.id,
        onmousedown: (ev: Event) => { ev.preventDefault(); pick(i); },
      }, h("span", { class: "label" }, ...it.label), it.keys ? h("kbd", {}, keyLabel(it.keys)) : null));
    });
    note.textContent = next.length ? "" : empty;
    mark();
  };
  const renderFiles = (r: Pick<FindResult, "matches" | "truncated">) => {
    show(r.matches.map((x) => ({
      id: x.path,
      label: marked(x.path, byteToIndex(x.path, x.positions)),
      run: () => {
        void openFile(app, x.path).then(() => app.editor.focus()).catch((e) => app.model.say(String(e.message ?? e), `open:${x.path}`));
        void reveal(app, x.path).catch(() => {});
      },
    })), input.value ? "No file matches." : "");
    if (r.matches.length && r.truncated) note.textContent = "More candidates than were ranked; type more.";
  };
  const renderSymbols = (r: Pick<SymbolsResult, "symbols" | "total">) => {
    show(r.symbols.map((s) => ({
      id: `${s.path}:${s.line}:${s.column}`,
      label: [h("span", { class: "kind" }, s.kind), " ", h("span", { class: "name" }, s.name), " ",
        h("span", { class: "where" }, `${s.container ? s.container + " · " : ""}${s.path}:${s.line}`)],
      run: () => void revealAt(app, s.path, s.line, s.column).catch((e) => app.model.say(String(e.message ?? e), `open:${s.path}`)),
    })), input.value.slice(1).trim() ? "No symbol matches." : "Type part of a symbol's name.");
    if (r.total > r.symbols.length) note.textContent = `${r.total.toLocaleString("en")} match; the best ${r.symbols.length} are shown.`;
  };
  const renderCommands = () => {
    const q = input.value.slice(1).trim();
    const ranked = q ? rankCommands(commands().filter((c) => !c.when || c.when(app)), q) : commands().filter((c) => !c.when || c.when(app)).map((c) => ({ command: c, at: new Set<number>() }));
    show(ranked.map(({ command: c, at }) => ({
      id: c.id,
      label: marked(c.title, at),
      keys: c.keys?.[0] ?? c.editorKeys?.[0],
      run: () => void runCommand(app, c.id),
    })), "No command matches.");
  };
  const mark = () => {
    list.querySelectorAll("[role=option]").forEach((el, i) => el.setAttribute("aria-selected", String(i === active)));
    if (items.length) input.setAttribute("aria-activedescendant", `palette-opt-${active}`);
    else input.removeAttribute("aria-activedescendant");
    list.querySelector(`#palette-opt-${active}`)?.scrollIntoView({ block: "nearest" });
  };
  // One editor_find in flight at a time: keys typed while it runs only
  // mark the input changed, and when its answer comes it is dropped for a
  // stale one and the newest text is asked for instead. Fast typing then
  // costs the server one find per answer shown, not one per key (which on
  // a loaded server made every answer later), with no fixed delay added to
  // a key typed alone.
  let inFlight = false;
  let changed = false;
  // Enter pressed while the answer for the text typed is on its way: it
  // picks from that answer, not from the one shown for fewer letters
  // (typing "greeting" fast then Enter opened go.mod, the best match of
  // "g").
  let pickWhenAnswered = false;
  const query = async () => {
    if (inFlight) {
      changed = true;
      return;
    }
    inFlight = true;
    try {
      do {
        changed = false;
        const q = input.value.trim();
        if (!q || isCommands()) break;
        try {
          if (isSymbols()) {
            const r = await app.link.call<SymbolsResult>("editor_symbols", { query: q.slice(1).trim(), limit: 50 });
            if (!changed && isSymbols()) renderSymbols(r);
          } else {
            const r = await app.link.call<FindResult>("editor_find", { query: q, limit: 50 });
            if (!changed && !isCommands() && !isSymbols()) renderFiles(r);
          }
        } catch (e) {
          if (!changed) note.textContent = (e as Error).message;
        }
      } while (changed);
    } finally {
      inFlight = false;
      if (pickWhenAnswered) {
        pickWhenAnswered = false;
        pick(active);
      }
    }
  };
  let mode = "";
  const update = () => {
    const now = isCommands() ? "commands" : isSymbols() ? "symbols" : "files";
    if (now !== mode) {
      mode = now;
      const [heading, label, listLabel] = modes[now];
      title.textContent = heading;
      input.setAttribute("aria-label", label);
      list.setAttribute("aria-label", listLabel);
      list.classList.toggle("commands", now === "commands");
      list.classList.toggle("symbols", now === "symbols");
    }
    if (now === "commands") renderCommands();
    else if (now === "symbols" && !input.value.slice(1).trim()) renderSymbols({ symbols: [], total: 0 });
    else if (!input.value.trim()) renderFiles({ matches: [], truncated: false });
    else void query();
  };
  const pick = (i: number) => {
    const it = items[i];
    if (!it) return;
    close();
    it.run();
  };
  input.addEventListener("input", update);
  input.addEventListener("keydown", (ev) => {
    if (ev.key === "ArrowDown" || ev.key === "ArrowUp") {
      ev.preventDefault();
      if (items.length) active = (active + (ev.key === "ArrowDown" ? 1 : items.length - 1)) % items.length;
      mark();
    } else if (ev.key === "Enter") {
      ev.preventDefault();
      if (inFlight && !isCommands()) pickWhenAnswered = true;
      else pick(active);
    }
  });
  const close = app.dialogs.open(modes[text.startsWith(">") ? "commands" : text.startsWith("#") ? "symbols" : "files"][0], [input, note, list], [], { palette: true });
  const title = document.querySelector<HTMLElement>("[role=dialog].palette h2")!;
  update();
  input.focus();
}
