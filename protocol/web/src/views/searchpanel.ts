// The Search panel (Ctrl/Cmd-Shift-F): editor_search with its options,
// results grouped by file with the matches marked; a click opens the file
// at the line. Replace across files is editor_replace: a dry run shows every
// change as a diff (computed by the server with the search's own RE2
// matches), then the write of each file is guarded by the version its
// preview was made on: a file changed since is reported, never overwritten.

import { EditorSelection } from "@codemirror/state";
import type { App } from "../app";
import { h, midPath } from "../dom";
import { load, openFile } from "../docs";
import { reveal } from "../files";
import { byteToIndex, marked } from "./palette";
import type { ReplaceResult, SearchResult } from "../wire";
import { patchView } from "./patch";



type Hit = SearchResult["files"][number]["hits"][number];

const globs = (s: string) => s.split(",").map((x) => x.trim()).filter(Boolean);

export function searchPanel(parent: HTMLElement, app: App): void {
  const m = app.model;
  const pattern = h("input", { type: "search", "aria-label": "Search", placeholder: "Search", "data-autofocus": true, spellcheck: "false" });
  const regex = h("input", { type: "checkbox" });
  const matchCase = h("input", { type: "checkbox" });
  const word = h("input", { type: "checkbox" });
  const include = h("input", { type: "text", "aria-label": "Files to include", placeholder: "include, e.g. *.go, src/**", spellcheck: "false" });
  const exclude = h("input", { type: "text", "aria-label": "Files to exclude", placeholder: "exclude, e.g. *_test.go", spellcheck: "false" });
  const replace = h("input", { type: "text", "aria-label": "Replace", placeholder: "Replace with", spellcheck: "false" });
  // VS Code's AB toggle: each match keeps its case (FOO → BAR, Foo → Bar).
  const keepCase = h("input", { type: "checkbox" });
  const preview = h("button", { type: "button", onclick: () => void previewReplace() }, "Replace all…");
  const summary = h("p", { class: "panel-note", role: "status" });
  const results = h("div", { class: "search-results" });
  const box = (el: HTMLInputElement, label: string) => h("label", { class: "check" }, el, label);
  parent.append(
    h("h2", { class: "panel-title" }, "Search"),
    h("div", { class: "search-form" }, pattern, h("div", { class: "search-opts" }, box(regex, "Regex"), box(matchCase, "Match case"), box(word, "Whole word")),
      include, exclude, h("div", { class: "search-replace" }, replace, preview), h("div", { class: "search-opts" }, box(keepCase, "Preserve case"))),
    summary, results,
  );

  let seq = 0;
  let last: SearchResult | null = null;
  const args = () => ({
    pattern: pattern.value, literal: !regex.checked, ignore_case: !matchCase.checked, whole_word: word.checked,
    include_glob: globs(include.value), exclude_glob: globs(exclude.value),
  });

  async function run(): Promise<void> {
    const mine = ++seq;
    if (!pattern.value) {
      results.replaceChildren();
      summary.textContent = "";
      last = null;
      return;
    }
    summary.textContent = "Searching…";
    try {
      const r = await app.link.call<SearchResult>("editor_search", args());
      if (mine !== seq) return;
      last = r;
      render(r);
    } catch (e) {
      if (mine === seq) summary.textContent = (e as Error).message;
    }
  }

  function render(r: SearchResult): void {
    results.replaceChildren();
    const files = r.files.length;
    summary.textContent = r.total
      ? `${r.total} ${r.total === 1 ? "match" : "matches"} in ${files} ${files === 1 ? "file" : "files"}${r.truncated ? " (more not shown: narrow the search)" : ""}`
      : `No matches in ${r.files_scanned} files.`;
    for (const f of r.files) {
      const list = h("ul", { class: "hits" });
      for (const hit of f.hits) {
        const at = new Set<number>();
        for (const [a, b] of hit.ranges) {
          const bytes = [];
          for (let i = a; i < b; i++) bytes.push(i);
          for (const i of byteToIndex(hit.text, bytes)) at.add(i);
        }
        // Leading indentation is dropped from the line shown, marks moved
        // along; a match far into the line is brought into view, as in VS
        // Code, with an ellipsis for what is left out before it.
        let lead = hit.text.length - hit.text.trimStart().length;
        const first = Math.min(...at);
        let dots = "";
        if (first - lead > 24) {
          lead = first - 12;
          dots = "…";
        }
        const shifted = new Set([...at].map((i) => i - lead + dots.length).filter((i) => i >= dots.length));
        list.append(h("li", {}, h("button", {
          type: "button", class: "hit", title: `${f.path}:${hit.line}:${hit.column}`,
          onclick: () => void goTo(f.path, hit).catch((e) => m.say(String(e.message ?? e))),
        }, h("span", { class: "ln" }, `${hit.line}`), h("span", { class: "tx" }, ...marked(dots + hit.text.slice(lead), shifted)))));
      }
      results.append(h("section", { class: "hit-file", "aria-label": f.path }, h("h3", {}, midPath(f.path), h("span", { class: "count" }, ` ${f.hits.length}`)), list));
    }
  }

  async function goTo(path: string, hit: Hit): Promise<void> {
    void reveal(app, path).catch(() => {});
    await openFile(app, path);
    const tab = m.tabs.get(path);
    if (!tab) return;
    await load(app, tab);
    if (!tab.state) return;
    const line = tab.state.doc.line(Math.min(hit.line, tab.state.doc.lines));
    const [col] = [...byteToIndex(line.text, [hit.column - 1])];
    const pos = line.from + (col ?? 0);
    app.editor.apply(tab, { selection: EditorSelection.cursor(pos), scrollIntoView: true });
    app.editor.focus();
  }

  async function previewReplace(): Promise<void> {
    if (!last || !last.files.length) {
      m.say("Search first: replace works on the files the search found.", "replace");
      return;
    }
    // Every file with a match (the hits shown may stop at max_matches),
    // then the server's own replacement of each: the same RE2 matches as
    // the hits, never a JavaScript regexp's idea of them.
    const a = args();
    const found = await app.link.call<SearchResult>("editor_search", { ...a, output: "files", max_matches: 20000 });
    if (found.truncated || found.files.length > 2000) {
      m.say("Too many files to replace in at once: narrow the search with include or exclude.", "replace");
      return;
    }
    const { include_glob: _i, exclude_glob: _e, ...rest } = a;
    const match = keepCase.checked ? { ...rest, preserve_case: true } : rest;
    const dry = await app.link.call<ReplaceResult>("editor_replace", { ...match, with: replace.value, paths: found.files.map((f) => f.path) });
    const plans = dry.files.filter((f) => f.replaced > 0);
    if (!plans.length) {
      m.say("Nothing to replace.", "replace");
      return;
    }
    const unsaved = plans.filter((p) => m.tabs.get(p.path)?.dirty).map((p) => p.path);
    const count = plans.reduce((n, p) => n + p.replaced, 0);
    const apply = h("button", { type: "button", class: "primary", onclick: () => void applyAll() }, `Replace in ${plans.length} ${plans.length === 1 ? "file" : "files"}`);
    const cancel = h("button", { type: "button", onclick: () => close() }, "Cancel");
    const notes: Node[] = unsaved.length ? [h("p", { class: "note" }, `You have unsaved edits in ${unsaved.join(", ")}: the replace changes the file on disk, and the tab then offers a merge.`)] : [];
    m.done("replace");
    const close = app.dialogs.open("Replace across files", [
      h("p", {}, `${count} ${count === 1 ? "match" : "matches"} in ${plans.length} ${plans.length === 1 ? "file" : "files"}. Each file is written only if it is still the version shown here.`),
      ...notes,
      h("div", { class: "patches" }, ...plans.map((p) => h("section", { "aria-label": p.path }, h("h3", {}, p.path, h("span", { class: "count" }, ` ${p.replaced}`)),
        p.patch ? patchView(p.patch) : h("pre", { class: "patch" }, "(the change is too large to show)")))),
    ], [apply, cancel], { wide: true });

    async function applyAll(): Promise<void> {
      close();
      const write: Record<string, string> = {};
      for (const p of plans) write[p.path] = p.version;
      let said: string;
      try {
        const r = await app.link.call<ReplaceResult>("editor_replace", { ...match, with: replace.value, write });
        const changed = r.files.filter((f) => f.conflict).map((f) => f.path);
        const skipped = r.files.filter((f) => f.skipped).map((f) => `${f.path} (${f.skipped})`);
        said = `Replaced in ${r.written} ${r.written === 1 ? "file" : "files"}.` +
          (changed.length ? ` Not written, changed since the search: ${changed.join(", ")}.` : "") +
          (skipped.length ? ` Not written: ${skipped.join(", ")}.` : "");
      } catch (e) {
        said = `Nothing replaced: ${(e as Error).message}`;
      }
      m.done("replace", said);
      await run();
      summary.textContent = said;
    }
  }

  let timer: ReturnType<typeof setTimeout> | undefined;
  const soon = () => {
    clearTimeout(timer);
    timer = setTimeout(() => void run(), 200);
  };
  pattern.addEventListener("input", soon);
  pattern.addEventListener("keydown", (ev) => ev.key === "Enter" && (ev.preventDefault(), void run()));
  for (const el of [regex, matchCase, word]) el.addEventListener("change", () => void run());
  for (const el of [include, exclude]) el.addEventListener("change", () => void run());
}
