// The merge view as an MCP App (ui://editord/merge.html): a host that
// shows it beside editor_save's result gets, for a save refused as a
// conflict, the file as it is on disk now on the left (read-only) and the
// text the agent tried to write on the right, to merge and save guarded by
// the disk's version, or to leave as it is. A save that went through shows
// one line. Everything goes through the server's tools, called through the
// host: editor_open for the disk's text, editor_save for the merge.

import { MergeView } from "@codemirror/merge";
import { EditorState } from "@codemirror/state";
import { EditorView, lineNumbers, drawSelection } from "@codemirror/view";
import { Bridge, type ToolResult } from "./bridge";

const bridge = new Bridge();
let args: Record<string, unknown> = {};
let view: MergeView | null = null;

const main = document.createElement("main");
document.body.append(main);

function show(...nodes: (Node | string)[]): void {
  view?.destroy();
  view = null;
  main.replaceChildren(...nodes);
  bridge.sized();
}

function el(tag: string, attrs: Record<string, string>, ...kids: (Node | string)[]): HTMLElement {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  e.append(...kids);
  return e;
}

function textOf(res: ToolResult): string {
  return res.content?.find((c) => c.type === "text")?.text ?? "";
}

async function conflict(path: string, mine: string): Promise<void> {
  const disk = await bridge.callTool("editor_open", { path, tab: false });
  if (disk.isError) {
    show(el("p", { role: "alert" }, `Could not read ${path}: ${textOf(disk)}`));
    return;
  }
  const theirs = disk.structuredContent as { content: string; version: string };
  const parent = el("div", { class: "merge" });
  const status = el("p", { role: "status" });
  const save = el("button", { type: "button" }, "Save merged");
  const keep = el("button", { type: "button" }, "Keep the disk's");
  show(
    el("h1", {}, `Merge ${path}`),
    el("p", {}, "Left: the file on disk now, read-only. Right: the text that was to be saved; edit it, or take the disk's lines with the arrows."),
    parent,
    el("p", {}, save, " ", keep),
    status,
  );
  const common = [lineNumbers(), drawSelection(), EditorView.lineWrapping];
  view = new MergeView({
    a: { doc: theirs.content, extensions: [...common, EditorState.readOnly.of(true), EditorView.editable.of(false), EditorView.contentAttributes.of({ "aria-label": "On disk" })] },
    b: { doc: mine, extensions: [...common, EditorView.contentAttributes.of({ "aria-label": "To save (merged result)" })] },
    parent,
    revertControls: "a-to-b",
    highlightChanges: true,
    gutter: true,
  });
  bridge.sized();
  save.addEventListener("click", async () => {
    const merged = view!.b.state.doc.toString();
    const res = await bridge.callTool("editor_save", { path, content: merged, expected_version: theirs.version });
    const sc = res.structuredContent ?? {};
    if (res.isError) status.textContent = textOf(res);
    else if (sc.conflict) void conflict(path, merged); // changed again meanwhile: merge over the new disk text
    else show(el("p", { role: "status" }, `Saved ${path} (${sc.version}).`));
  });
  keep.addEventListener("click", () => show(el("p", { role: "status" }, `Left ${path} as it is on disk (${theirs.version}).`)));
}

bridge.onToolInput = (a) => {
  args = a;
};
bridge.onToolResult = (res) => {
  const sc = res.structuredContent ?? {};
  const path = String(sc.path ?? args.path ?? "");
  if (res.isError) show(el("p", { role: "alert" }, textOf(res)));
  else if (sc.conflict && typeof args.content === "string") void conflict(path, args.content);
  else if (sc.conflict) show(el("p", { role: "alert" }, `${path} changed on disk since it was read; nothing was written.`));
  else show(el("p", { role: "status" }, `Saved ${path} (${sc.version}).`));
};

void bridge.connect("editord-merge");
