// A context menu (role=menu): the tree's actions for a mouse, as VS Code's
// right-click menu. Arrows move, Enter picks, Escape or a click elsewhere
// closes it, and the focus goes back to where it was.

import { h, refind } from "../dom";

export interface MenuItem {
  label: string;
  run: () => unknown;
}

export function openMenu(label: string, items: MenuItem[], x: number, y: number): void {
  const back = document.activeElement as HTMLElement | null;
  const menu = h("ul", { role: "menu", "aria-label": label, class: "menu" });
  const close = (refocus: boolean) => {
    menu.remove();
    removeEventListener("mousedown", outside, true);
    if (refocus) refind(back)?.focus?.();
  };
  const outside = (ev: MouseEvent) => {
    if (!menu.contains(ev.target as Node)) close(false);
  };
  const entries = items.map((it) =>
    h("li", { role: "menuitem", tabindex: -1, onclick: () => (close(true), void it.run()) }, it.label),
  );
  menu.append(...entries);
  menu.addEventListener("keydown", (ev) => {
    const i = entries.indexOf(document.activeElement as HTMLLIElement);
    let j = -1;
    if (ev.key === "ArrowDown") j = (i + 1) % entries.length;
    else if (ev.key === "ArrowUp") j = (i - 1 + entries.length) % entries.length;
    else if (ev.key === "Home") j = 0;
    else if (ev.key === "End") j = entries.length - 1;
    else if (ev.key === "Enter" || ev.key === " ") {
      ev.preventDefault();
      if (i >= 0) entries[i].click();
      return;
    } else if (ev.key === "Escape" || ev.key === "Tab") {
      ev.preventDefault();
      close(true);
      return;
    }
    if (j < 0) return;
    ev.preventDefault();
    entries[j].focus();
  });
  document.body.append(menu);
  // Inside the window, right and below the point when it fits.
  const r = menu.getBoundingClientRect();
  menu.style.left = `${Math.max(0, Math.min(x, innerWidth - r.width - 4))}px`;
  menu.style.top = `${Math.max(0, Math.min(y, innerHeight - r.height - 4))}px`;
  addEventListener("mousedown", outside, true);
  entries[0]?.focus();
}
