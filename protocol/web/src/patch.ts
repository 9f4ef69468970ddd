// Applying a unified patch (an editor::changed event's, or a merged save's
// merged_patch) to a file's content, so the page has another writer's new
// text without asking for the file again. The caller checks the result's
// version against the one the server named: a patch that does not fit
// (an event missed, a patch cut at its size cap) is never trusted.

/** The content's lines, each with its "\n" (the last may have none). */
function linesOf(content: string): string[] {
  const out: string[] = [];
  let at = 0;
  for (;;) {
    const i = content.indexOf("\n", at);
    if (i < 0) {
      if (at < content.length) out.push(content.slice(at));
      return out;
    }
    out.push(content.slice(at, i + 1));
    at = i + 1;
  }
}

const hunkHead = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/** content with patch applied, or null when the patch does not apply. */
export function applyPatch(content: string, patch: string): string | null {
  const src = linesOf(content);
  const lines = patch.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  const out: string[] = [];
  let at = 0;
  let i = 0;
  while (i < lines.length && !lines[i].startsWith("@@ ")) i++;
  if (i === lines.length) return null;
  const same = (have: string | undefined, line: string) => have === line + "\n" || (at === src.length - 1 && have === line);
  while (i < lines.length) {
    const m = hunkHead.exec(lines[i]);
    if (!m) return null;
    const oldStart = Number(m[1]);
    const oldLines = m[2] === undefined ? 1 : Number(m[2]);
    const start = oldLines === 0 ? oldStart : oldStart - 1;
    if (start < at || start > src.length) return null;
    while (at < start) out.push(src[at++]);
    let last = "";
    for (i++; i < lines.length && !lines[i].startsWith("@@ "); i++) {
      const l = lines[i];
      const kind = l[0];
      const text = l.slice(1);
      switch (kind) {
        case " ":
          if (!same(src[at], text)) return null;
          out.push(src[at++]);
          break;
        case "-":
          if (!same(src[at], text)) return null;
          at++;
          break;
        case "+":
          out.push(text + "\n");
          break;
        case "\\":
          // "\ No newline at end of file": the line before it has none.
          if (last === "+") out[out.length - 1] = out[out.length - 1].slice(0, -1);
          continue;
        default:
          return null;
      }
      last = kind;
    }
  }
  while (at < src.length) out.push(src[at++]);
  return out.join("");
}
