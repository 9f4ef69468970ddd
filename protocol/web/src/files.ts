// The tree's actions: expanding and collapsing (shared with every surface
// through editor_tree), and creating, renaming and deleting through the
// same tools an agent uses.

import type { App } from "./app";
import { openFile } from "./docs";
import { list, relistParent } from "./sync";

export async function expand(app: App, path: string): Promise<void> {
  const m = app.model;
  m.expanded.add(path);
  m.changed("tree");
  const r = await app.link.call<{ entries: never[] }>("editor_tree", { path, max_depth: 1, expand: [path] });
  m.children.set(path, r.entries);
  m.changed("tree");
}

export async function collapse(app: App, path: string): Promise<void> {
  const m = app.model;
  for (const p of [...m.expanded]) if (p === path || p.startsWith(path + "/")) m.expanded.delete(p);
  m.changed("tree");
  await app.link.call("editor_tree", { path, max_depth: 1, collapse: [path] });
}

function join(dir: string, name: string): string {
  return dir ? `${dir}/${name}` : name;
}

export async function create(app: App, dir: string, kind: "file" | "folder"): Promise<void> {
  const name = await app.dialogs.prompt(kind === "file" ? "New file" : "New folder", `Name, inside ${dir || "the workspace root"}`, "");
  if (!name) return;
  const path = join(dir, name);
  try {
    await app.link.call("editor_create", { path, kind });
  } catch (e) {
    app.model.say(`Not created: ${(e as Error).message}`, "create");
    return;
  }
  app.model.done("create");
  if (dir && !app.model.expanded.has(dir)) await expand(app, dir);
  else await list(app, dir);
  if (kind === "file") {
    await openFile(app, path);
    app.editor.focus();
  }
}

export async function rename(app: App, path: string): Promise<void> {
  const to = await app.dialogs.prompt("Rename", `New path for ${path}`, path);
  if (!to || to === path) return;
  try {
    await app.link.call("editor_move", { from: path, to });
  } catch (e) {
    app.model.say(`Not renamed: ${(e as Error).message}`, "rename");
    return;
  }
  app.model.done("rename");
  relistParent(app, path);
  relistParent(app, to);
}

export async function remove(app: App, path: string, isDir: boolean): Promise<void> {
  const ok = await app.dialogs.confirm(`Delete ${path}?`, isDir ? `${path} and everything in it will be deleted from disk.` : `${path} will be deleted from disk.`, "Delete");
  if (!ok) return;
  try {
    await app.link.call("editor_delete", { path, recursive: isDir });
  } catch (e) {
    app.model.say(`Not deleted: ${(e as Error).message}`, "delete");
    return;
  }
  app.model.done("delete");
  relistParent(app, path);
}

/** Shows a file in the tree, as VS Code's reveal: its folders expanded
 * (for every surface, as an expand in the tree is), the file selected and
 * scrolled into view. */
export async function reveal(app: App, path: string): Promise<void> {
  const m = app.model;
  const folders: string[] = [];
  for (let i = path.indexOf("/"); i > 0; i = path.indexOf("/", i + 1)) folders.push(path.slice(0, i));
  const closed = folders.filter((f) => !m.expanded.has(f));
  if (closed.length) {
    for (const f of closed) m.expanded.add(f);
    await app.link.call("editor_tree", { path: folders[0], max_depth: 1, expand: closed });
  }
  await Promise.all(["", ...folders].filter((f) => !m.children.has(f)).map((f) => list(app, f)));
  m.selected = path;
  m.changed("tree");
  requestAnimationFrame(() => document.querySelector(`.tree [role=treeitem][data-path="${CSS.escape(path)}"] > .row`)?.scrollIntoView({ block: "nearest" }));
}
