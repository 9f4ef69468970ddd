// Bytes in, the same bytes out (docs/contract.md §3): the editor component shows
// lines, but a file is bytes. A file's BOM is taken off before the editor
// sees it and put back on save; its line separator is given to CodeMirror
// (EditorState.lineSeparator), which then joins lines with exactly that, so
// a CRLF file stays CRLF. A file with mixed endings keeps "\n" as the
// separator and its "\r"s inside the lines, so nothing is rewritten.

export type EOL = "lf" | "crlf" | "mixed" | "none";

const BOM = "\uFEFF";

export interface Split {
  bom: boolean;
  text: string;
  separator: string;
}

/** What the editor holds for a file's content. */
export function fromDisk(content: string, eol: EOL): Split {
  const bom = content.startsWith(BOM);
  return { bom, text: bom ? content.slice(1) : content, separator: eol === "crlf" ? "\r\n" : "\n" };
}

/** The line endings of a text (a draft whose file is gone). */
export function eolOf(text: string): EOL {
  const crlf = text.split("\r\n").length - 1;
  const lf = text.split("\n").length - 1;
  if (lf === 0) return "none";
  return crlf === lf ? "crlf" : crlf === 0 ? "lf" : "mixed";
}

/** The file's content for an editor text. */
export function toDisk(text: string, bom: boolean): string {
  return bom ? BOM + text : text;
}

/** Pasted text takes the document's line separator. */
export function normalizePaste(text: string, separator: string): string {
  return text.replace(/\r\n|\r|\n/g, separator);
}

const enc = new TextEncoder();

/** docs/contract.md §3's version: hex byte length, "-", FNV-1a 64 in 16 hex digits. */
export function version(content: string): string {
  const bytes = enc.encode(content);
  // 64-bit FNV-1a in two 32-bit halves: BigInt per byte is slow on MBs.
  let hi = 0xcbf29ce4;
  let lo = 0x84222325;
  for (let i = 0; i < bytes.length; i++) {
    lo = (lo ^ bytes[i]) >>> 0;
    // (hi:lo) * 0x100000001b3 = (hi:lo) * 0x1b3 + (lo << 40)
    const loMul = lo * 0x1b3;
    const carry = Math.floor(loMul / 0x100000000);
    const newLo = loMul >>> 0;
    hi = (Math.imul(hi, 0x1b3) + carry + ((lo << 8) >>> 0)) >>> 0;
    lo = newLo;
  }
  return bytes.length.toString(16) + "-" + hi.toString(16).padStart(8, "0") + lo.toString(16).padStart(8, "0");
}
