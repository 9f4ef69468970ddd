// Go to file (Ctrl/Cmd-P): a combobox over editor_find. Results come as
// the person types (one find in flight; an answer overtaken by typing is
// dropped for one of the newest text), the
// matched characters marked from the result's positions; Enter opens the
// file as a shared tab.

import type { App } from "../app";
import { h } from "../dom";
import { openFile } from "../docs";
import { reveal } from "../files";

interface FindResult {
  matches: { path: string; score: number; positions: number[] }[];
  truncated: boolean;
}

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

export function openPalette(app: App): void {
  const input = h("input", {
    type: "text", role: "combobox", "aria-label": "File name", "aria-expanded": "true", "aria-controls": "palette-list",
    "aria-autocomplete": "list", spellcheck: "false", placeholder: "Type part of a file's name",
  });
  const list = h("ul", { role: "listbox", id: "palette-list", "aria-label": "Files", class: "palette-list" });
  const note = h("p", { class: "palette-note", role: "status" });
  let paths: string[] = [];
  let active = 0;
  const render = (r: FindResult) => {
    list.replaceChildren();
    paths = r.matches.map((x) => x.path);
    active = 0;
    r.matches.forEach((x, i) => {
      list.append(h("li", {
        role: "option", id: `palette-opt-${i}`, "aria-selected": String(i === 0), "data-path": x.path,
        onmousedown: (ev: Event) => { ev.preventDefault(); pick(i); },
      }, ...marked(x.path, byteToIndex(x.path, x.positions))));
    });
    note.textContent = r.matches.length ? (r.truncated ? "More candidates than were ranked; type more." : "") : input.value ? "No file matches." : "";
    mark();
  };
  const mark = () => {
    list.querySelectorAll("[role=option]").forEach((el, i) => el.setAttribute("aria-selected", String(i === active)));
    if (paths.length) input.setAttribute("aria-activedescendant", `palette-opt-${active}`);
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
        if (!q) {
          render({ matches: [], truncated: false });
          break;
        }
        try {
          const r = await app.link.call<FindResult>("editor_find", { query: q, limit: 50 });
          if (!changed) render(r);
        } catch (e) {
          if (!changed) note.textContent = (e as Error).message;
        }
      } while (changed);
    } finally {
      inFlight = false;
    }
  };
  const pick = (i: number) => {
    const p = paths[i];
    if (!p) return;
    close();
    void openFile(app, p).then(() => app.editor.focus()).catch((e) => app.model.say(String(e.message ?? e), `open:${p}`));
    void reveal(app, p).catch(() => {});
  };
  input.addEventListener("input", () => void query());
  input.addEventListener("keydown", (ev) => {
    if (ev.key === "ArrowDown" || ev.key === "ArrowUp") {
      ev.preventDefault();
      if (paths.length) active = (active + (ev.key === "ArrowDown" ? 1 : paths.length - 1)) % paths.length;
      mark();
    } else if (ev.key === "Enter") {
      ev.preventDefault();
      pick(active);
    }
  });
  const close = app.dialogs.open("Go to file", [input, note, list], [], { palette: true });
  input.focus();
}
