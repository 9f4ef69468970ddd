// A tiny element builder: attributes, event handlers (on*) and children.

type Child = Node | string | null | undefined | false;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, unknown> = {},
  ...children: (Child | Child[])[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") {
      el.addEventListener(k.slice(2).toLowerCase(), v as EventListener);
    } else if (k === "class") {
      el.className = String(v);
    } else {
      el.setAttribute(k, v === true ? "" : String(v));
    }
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c);
  }
  return el;
}

/** Where the focus goes back to: the element itself, or, when a re-render
 * replaced it while a dialog or menu was open (the tree and the tab list redraw on
 * every event), the element now standing for the same item. */
export function refind(el: HTMLElement | null): HTMLElement | null {
  if (!el || el.isConnected) return el;
  const role = el.getAttribute("role");
  const path = el.dataset.path;
  if (!role || path === undefined) return null;
  return document.querySelector<HTMLElement>(`[role="${CSS.escape(role)}"][data-path="${CSS.escape(path)}"]`);
}

/** A path that, when it does not fit, is cut in the middle (the folders
 * give way, the file name stays whole), with the whole path on hover. */
export function midPath(path: string, cls = ""): HTMLElement {
  const i = path.lastIndexOf("/");
  return h("span", { class: `midpath ${cls}`, title: path },
    i > 0 ? h("span", { class: "head" }, path.slice(0, i + 1)) : null,
    h("span", { class: "tail" }, path.slice(i + 1)));
}
