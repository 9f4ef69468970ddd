// A unified diff as a person reads one: added lines green, removed lines
// red, hunk headers dim. The text stays the patch's, byte for byte.

import { h } from "../dom";

export function patchView(text: string): HTMLPreElement {
  const pre = h("pre", { class: "patch" });
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  for (const line of lines) {
    const c = line[0];
    const cls = line.startsWith("+++") || line.startsWith("---") ? "file" : c === "+" ? "add" : c === "-" ? "del" : c === "@" ? "hunk" : c === "\\" ? "note" : "";
    pre.append(cls ? h("span", { class: cls }, line) : line, "\n");
  }
  return pre;
}
