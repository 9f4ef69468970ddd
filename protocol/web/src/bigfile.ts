// A file over max_file_bytes: editor_open returns its first
// max_file_bytes, cut mid-line. The page reads the rest in ranges of whole
// lines (editor_open offset, which serves files up to max_read_bytes) and
// shows the whole file; past max_read_bytes it keeps the whole lines it
// has and says where and why it stopped.

import type { App, OpenResult } from "./app";
import { ToolError } from "./mcp";

interface RangeResult extends OpenResult {
  start_line: number;
  end_line: number;
  total_lines: number;
}

export interface Whole {
  content: string;
  version: string;
  eol: OpenResult["eol"];
  /** Why the content stops before the file's end; null when it is whole. */
  cut: string | null;
}

function newlines(s: string): number {
  let n = 0;
  for (let i = s.indexOf("\n"); i >= 0; i = s.indexOf("\n", i + 1)) n++;
  return n;
}

const utf8 = new TextEncoder();

/** The whole file, from a truncated first read. */
export async function readRest(app: App, path: string, first: OpenResult, tries = 2): Promise<Whole> {
  // The first read ends mid-line: keep its whole lines.
  const nl = first.content.lastIndexOf("\n");
  const pieces = [nl < 0 ? "" : first.content.slice(0, nl + 1)];
  let line = newlines(pieces[0]);
  let version = first.version;
  let eol = first.eol;
  let ranged = false;
  for (;;) {
    let r: RangeResult;
    try {
      r = await app.link.call<RangeResult>("editor_open", { path, tab: false, offset: line + 1 });
    } catch (e) {
      if (!(e instanceof ToolError) || e.code !== "too_large") throw e;
      return { content: pieces.join(""), version, eol, cut: cutNote(pieces, first.size, line, e.message) };
    }
    if (ranged && r.version !== version) {
      // Changed while being read: read it again from the start.
      if (tries > 0) return readRest(app, path, await app.link.call<OpenResult>("editor_open", { path, tab: false }), tries - 1);
      throw new ToolError("internal", `${path} kept changing while it was read; open it again.`, path);
    }
    ranged = true;
    version = r.version;
    eol = r.eol;
    if (r.end_line < r.start_line) break;
    if (r.truncated && r.end_line === r.start_line && !r.content.endsWith("\n")) {
      // One line alone over max_file_bytes: its beginning only.
      pieces.push(r.content);
      return { content: pieces.join(""), version, eol, cut: cutNote(pieces, r.size, r.end_line, `Line ${r.end_line.toLocaleString("en")} alone is over max_file_bytes; only its beginning is shown.`) };
    }
    pieces.push(r.content);
    line = r.end_line;
    if (line >= r.total_lines) break;
  }
  return { content: pieces.join(""), version, eol, cut: null };
}

function cutNote(pieces: string[], size: number, lines: number, why: string): string {
  const shown = pieces.reduce((n, p) => n + utf8.encode(p).length, 0);
  if (!/[.!?]$/.test(why)) why += ".";
  return `Cut here: the first ${shown.toLocaleString("en")} of ${size.toLocaleString("en")} bytes (lines 1–${lines.toLocaleString("en")}) are shown. ${why} ` +
    "To see the rest, raise [jail] max_read_bytes in editord's config and open the file again, or read it with another program.";
}
