// The file tree (role=tree): the root's entries and the shared expanded
// folders, rendered from the model. Keys: arrows, Home and End move,
// Right/Left expand and collapse, Enter opens, F2 renames, Delete deletes;
// a right-click (or the menu key, Shift+F10) offers the same as a menu.

import type { App } from "../app";
import { h } from "../dom";
import { openFile } from "../docs";
import { collapse, create, expand, remove, rename } from "../files";
import type { Entry } from "../model";
import { openMenu, type MenuItem } from "./menu";
import { fileIcon, folderIcon } from "../icons";
import { unreviewedNote } from "../turns";

export function treeView(parent: HTMLElement, app: App): void {
  const m = app.model;
  const dirOf = () => {
    const sel = m.selected;
    if (!sel) return "";
    const e = find(sel);
    if (e?.kind === "dir") return sel;
    const i = sel.lastIndexOf("/");
    return i < 0 ? "" : sel.slice(0, i);
  };
  const toolbar = h(
    "div",
    { class: "tree-tools", role: "toolbar", "aria-label": "Files" },
    h("span", { class: "tree-title", id: "tree-title" }, "Files"),
    h("button", { type: "button", onclick: () => void create(app, dirOf(), "file"), title: "New file" }, "New file"),
    h("button", { type: "button", onclick: () => void create(app, dirOf(), "folder"), title: "New folder" }, "New folder"),
  );
  const tree = h("ul", { role: "tree", "aria-labelledby": "tree-title", class: "tree" });
  parent.append(toolbar, tree);

  const entries = new Map<string, Entry>();
  const find = (p: string) => entries.get(p);

  function item(e: Entry, level: number): HTMLElement {
    entries.set(e.path, e);
    const isDir = e.kind === "dir";
    const open = isDir && m.expanded.has(e.path);
    const review = isDir ? null : unreviewedNote(app, e.path);
    const li = h(
      "li",
      {
        role: "treeitem",
        "aria-level": level,
        "aria-expanded": isDir ? String(open) : undefined,
        "aria-selected": String(m.selected === e.path),
        tabindex: m.selected === e.path ? 0 : -1,
        "data-path": e.path,
        class: isDir ? "dir" : m.active === e.path ? "file open" : "file",
        title: review ?? undefined,
      },
      h("span", { class: "row" }, h("span", { class: "twisty", "aria-hidden": "true" }, isDir ? (open ? "▾" : "▸") : ""), isDir ? folderIcon(open) : fileIcon(e.name), h("span", { class: "label" }, e.name),
        review ? h("span", { class: "review-mark", "aria-hidden": "true" }, "◇") : null),
    );
    // CSSOM, not a style attribute: the CSP allows no inline styles.
    (li.firstElementChild as HTMLElement).style.paddingLeft = `${(level - 1) * 14 + 6}px`;
    if (open) {
      const kids = m.children.get(e.path);
      const group = h("ul", { role: "group" });
      for (const c of kids ?? []) group.append(item(c, level + 1));
      li.append(group);
    }
    return li;
  }

  function render(): void {
    const hadFocus = tree.contains(document.activeElement);
    entries.clear();
    tree.replaceChildren();
    for (const e of m.children.get("") ?? []) tree.append(item(e, 1));
    if (!tree.querySelector('[tabindex="0"]')) tree.querySelector<HTMLElement>("[role=treeitem]")?.setAttribute("tabindex", "0");
    if (hadFocus) focusPath(m.selected);
  }
  m.on("tree", render);
  // The active tab's file is marked in the tree.
  let active: string | null = null;
  m.on("tabs", () => {
    if (m.active === active) return;
    active = m.active;
    for (const el of tree.querySelectorAll<HTMLElement>("[role=treeitem].file")) el.classList.toggle("open", el.dataset.path === active);
  });

  const visible = () => [...tree.querySelectorAll<HTMLElement>("[role=treeitem]")];
  function focusPath(p: string | null): void {
    const el = p === null ? null : tree.querySelector<HTMLElement>(`[role=treeitem][data-path="${CSS.escape(p)}"]`);
    el?.focus();
  }
  function select(p: string): void {
    m.selected = p;
    for (const el of visible()) {
      const on = el.dataset.path === p;
      el.setAttribute("aria-selected", String(on));
      el.tabIndex = on ? 0 : -1;
    }
    focusPath(p);
  }
  function activate(p: string): void {
    const e = find(p);
    if (!e) return;
    if (e.kind === "dir") void (m.expanded.has(p) ? collapse(app, p) : expand(app, p)).catch((x) => m.say(String(x.message ?? x)));
    else void openFile(app, p).catch((x) => m.say(String(x.message ?? x)));
  }

  tree.addEventListener("click", (ev) => {
    const li = (ev.target as HTMLElement).closest<HTMLElement>("[role=treeitem]");
    if (!li?.dataset.path) return;
    ev.stopPropagation();
    select(li.dataset.path);
    activate(li.dataset.path);
  });
  // The actions on an item, for a mouse (right-click) or the menu key.
  function menuFor(p: string, x: number, y: number): void {
    const e = find(p);
    const isDir = e?.kind === "dir";
    const dir = isDir ? p : p.includes("/") ? p.slice(0, p.lastIndexOf("/")) : "";
    const items: MenuItem[] = [
      ...(isDir ? [] : [{ label: "Open", run: () => openFile(app, p) }]),
      { label: "New file…", run: () => create(app, dir, "file") },
      { label: "New folder…", run: () => create(app, dir, "folder") },
      { label: "Rename…", run: () => rename(app, p) },
      { label: "Delete…", run: () => remove(app, p, isDir) },
    ];
    openMenu(e?.name ?? p, items, x, y);
  }
  tree.addEventListener("contextmenu", (ev) => {
    const li = (ev.target as HTMLElement).closest<HTMLElement>("[role=treeitem]");
    if (!li?.dataset.path) return;
    ev.preventDefault();
    select(li.dataset.path);
    menuFor(li.dataset.path, ev.clientX, ev.clientY);
  });
  tree.addEventListener("keydown", (ev) => {
    const li = (ev.target as HTMLElement).closest<HTMLElement>("[role=treeitem]");
    const p = li?.dataset.path;
    if (!li || !p) return;
    if (ev.key === "ContextMenu" || (ev.key === "F10" && ev.shiftKey)) {
      ev.preventDefault();
      const r = (li.firstElementChild as HTMLElement).getBoundingClientRect();
      menuFor(p, r.left + 16, r.bottom);
      return;
    }
    const items = visible();
    const i = items.indexOf(li);
    const e = find(p);
    let handled = true;
    switch (ev.key) {
      case "ArrowDown":
        if (items[i + 1]) select(items[i + 1].dataset.path!);
        break;
      case "ArrowUp":
        if (items[i - 1]) select(items[i - 1].dataset.path!);
        break;
      case "ArrowRight":
        if (e?.kind === "dir" && !m.expanded.has(p)) void expand(app, p);
        // Into the open folder: its first child, once it is listed.
        else if (e?.kind === "dir" && items[i + 1] && li.contains(items[i + 1])) select(items[i + 1].dataset.path!);
        break;
      case "ArrowLeft":
        if (e?.kind === "dir" && m.expanded.has(p)) void collapse(app, p);
        else {
          const up = li.parentElement?.closest<HTMLElement>("[role=treeitem]");
          if (up?.dataset.path) select(up.dataset.path);
        }
        break;
      case "Home":
        if (items[0]) select(items[0].dataset.path!);
        break;
      case "End":
        if (items.length) select(items[items.length - 1].dataset.path!);
        break;
      case "Enter":
        activate(p);
        break;
      case "F2":
        void rename(app, p);
        break;
      case "Delete":
        void remove(app, p, e?.kind === "dir");
        break;
      default:
        handled = false;
    }
    if (handled) ev.preventDefault();
  });
}
