// Highlighting by the buffer's language id (the Monaco ids editor::open
// returns). Each language is its own chunk, loaded the first time a tab
// needs it, so the first paint does not wait for grammars it will not use.
// C, C++, Java and Rust use the small stream grammars of legacy-modes: the
// Lezer ones would double the bundle for highlighting alone.

import type { Extension } from "@codemirror/state";
import { StreamLanguage, type StreamParser } from "@codemirror/language";

type Loader = () => Promise<Extension>;

const legacy = (load: () => Promise<StreamParser<unknown>>): Loader => async () => StreamLanguage.define(await load());

const loaders: Record<string, Loader> = {
  javascript: async () => (await import("@codemirror/lang-javascript")).javascript({ jsx: true }),
  typescript: async () => (await import("@codemirror/lang-javascript")).javascript({ typescript: true, jsx: true }),
  python: async () => (await import("@codemirror/lang-python")).python(),
  go: async () => (await import("@codemirror/lang-go")).go(),
  rust: legacy(async () => (await import("@codemirror/legacy-modes/mode/rust")).rust),
  json: async () => (await import("@codemirror/lang-json")).json(),
  markdown: async () => (await import("@codemirror/lang-markdown")).markdown(),
  html: async () => (await import("@codemirror/lang-html")).html(),
  css: async () => (await import("@codemirror/lang-css")).css(),
  scss: async () => (await import("@codemirror/lang-css")).css(),
  less: async () => (await import("@codemirror/lang-css")).css(),
  yaml: async () => (await import("@codemirror/lang-yaml")).yaml(),
  c: legacy(async () => (await import("@codemirror/legacy-modes/mode/clike")).c),
  cpp: legacy(async () => (await import("@codemirror/legacy-modes/mode/clike")).cpp),
  java: legacy(async () => (await import("@codemirror/legacy-modes/mode/clike")).java),
  sql: async () => (await import("@codemirror/lang-sql")).sql(),
  xml: async () => (await import("@codemirror/lang-xml")).xml(),
  shell: legacy(async () => (await import("@codemirror/legacy-modes/mode/shell")).shell),
  ini: legacy(async () => (await import("@codemirror/legacy-modes/mode/properties")).properties),
  dockerfile: legacy(async () => (await import("@codemirror/legacy-modes/mode/dockerfile")).dockerFile),
  ruby: legacy(async () => (await import("@codemirror/legacy-modes/mode/ruby")).ruby),
  lua: legacy(async () => (await import("@codemirror/legacy-modes/mode/lua")).lua),
  perl: legacy(async () => (await import("@codemirror/legacy-modes/mode/perl")).perl),
  r: legacy(async () => (await import("@codemirror/legacy-modes/mode/r")).r),
  swift: legacy(async () => (await import("@codemirror/legacy-modes/mode/swift")).swift),
  powershell: legacy(async () => (await import("@codemirror/legacy-modes/mode/powershell")).powerShell),
  kotlin: legacy(async () => (await import("@codemirror/legacy-modes/mode/clike")).kotlin),
  scala: legacy(async () => (await import("@codemirror/legacy-modes/mode/clike")).scala),
  csharp: legacy(async () => (await import("@codemirror/legacy-modes/mode/clike")).csharp),
  dart: legacy(async () => (await import("@codemirror/legacy-modes/mode/clike")).dart),
  "objective-c": legacy(async () => (await import("@codemirror/legacy-modes/mode/clike")).objectiveC),
  protobuf: legacy(async () => (await import("@codemirror/legacy-modes/mode/protobuf")).protobuf),
  toml: legacy(async () => (await import("@codemirror/legacy-modes/mode/toml")).toml),
};

const cache = new Map<string, Promise<Extension>>();

/** The highlighting extension for a language id; [] for plaintext and ids
 * without a grammar here. */
export function language(id: string): Promise<Extension> {
  const load = loaders[id];
  if (!load) return Promise.resolve([]);
  let p = cache.get(id);
  if (!p) {
    p = load().catch(() => []);
    cache.set(id, p);
  }
  return p;
}
