// Icons drawn in the page itself (no image files, no font, nothing from
// another host): line drawings for the activity bar and folders, and for
// files a coloured badge by kind, as VS Code's default icon theme marks
// them (GO, TS, {} ...).

const ns = "http://www.w3.org/2000/svg";

/** An SVG of 24×24 line drawings (each string a path's d). */
export function icon(paths: string[], cls = "icon"): SVGSVGElement {
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("class", cls);
  svg.setAttribute("aria-hidden", "true");
  for (const d of paths) {
    const p = document.createElementNS(ns, "path");
    p.setAttribute("d", d);
    svg.append(p);
  }
  return svg;
}

export const icons = {
  files: ["M14 3H6a1 1 0 0 0-1 1v13a1 1 0 0 0 1 1h11a1 1 0 0 0 1-1V7z", "M14 3v4h4", "M9 21h10a1 1 0 0 0 1-1V9"],
  search: ["M10.5 4a6.5 6.5 0 1 1 0 13 6.5 6.5 0 0 1 0-13z", "M15.5 15.5 21 21"],
  git: ["M7 5a2 2 0 1 1 0 4 2 2 0 0 1 0-4z", "M7 15a2 2 0 1 1 0 4 2 2 0 0 1 0-4z", "M17 7a2 2 0 1 1 0 4 2 2 0 0 1 0-4z", "M7 9v6", "M17 11c0 3-4 3-8.5 5"],
  activity: ["M3 12h4l3-7 4 14 3-7h4"],
  run: ["M7 4l12 8-12 8z"],
  review: ["M4 5h16v11H9l-5 4z", "M8 9h8", "M8 12h5"],
  problems: ["M12 3 2 20h20z", "M12 9v5", "M12 17v.5"],
  outline: ["M4 6h3", "M4 12h3", "M4 18h3", "M10 6h10", "M10 12h10", "M10 18h10"],
  split: ["M4 4h16v16H4z", "M12 4v16"],
  folder: ["M3 6a1 1 0 0 1 1-1h5l2 2h9a1 1 0 0 1 1 1v10a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1z"],
  folderOpen: ["M3 6a1 1 0 0 1 1-1h5l2 2h8a1 1 0 0 1 1 1v2", "M3 19 5.5 10.5h16L19 19z", "M3 6v13"],
};

/** Badges by file name: [pattern, text, kind] (kind picks the colour). */
const badges: [RegExp, string, string][] = [
  [/\.go$|^go\.(mod|sum|work)$/i, "GO", "go"],
  [/\.tsx?$|\.mts$|\.cts$/i, "TS", "ts"],
  [/\.jsx?$|\.mjs$|\.cjs$/i, "JS", "js"],
  [/\.json5?$|\.jsonc$/i, "{}", "json"],
  [/\.md$|\.markdown$/i, "M↓", "md"],
  [/\.py$/i, "PY", "py"],
  [/\.rs$/i, "RS", "rs"],
  [/\.html?$/i, "<>", "html"],
  [/\.(css|scss|less)$/i, "#", "css"],
  [/\.ya?ml$/i, "Y", "yaml"],
  [/\.toml$|\.ini$|\.cfg$|\.conf$/i, "⚙", "conf"],
  [/\.(sh|bash|zsh)$|^Makefile$|^Dockerfile$/i, "$", "sh"],
  [/\.(c|h)$/i, "C", "c"],
  [/\.(cc|cpp|cxx|hpp|hh)$/i, "C++", "c"],
  [/\.java$|\.kt$|\.scala$/i, "J", "java"],
  [/\.rb$/i, "RB", "rb"],
  [/\.sql$/i, "DB", "sql"],
  [/\.(xml|svg)$/i, "<>", "xml"],
  [/\.(png|jpe?g|gif|webp|ico|bmp)$/i, "▣", "img"],
  [/^\.git(ignore|attributes|modules)$/i, "⎇", "git"],
  [/\.(txt|log)$|^(LICENSE|README|COPYING)/i, "≡", "txt"],
];

/** The badge for a file, as an element (aria-hidden: the name says it). */
export function fileIcon(name: string): HTMLElement {
  const el = document.createElement("span");
  el.setAttribute("aria-hidden", "true");
  const b = badges.find(([re]) => re.test(name));
  el.className = `fi fi-${b ? b[2] : "other"}`;
  // Drawn by CSS (content: attr(data-badge)): not part of the name's text.
  el.dataset.badge = b ? b[1] : "·";
  return el;
}

/** A folder's icon, open or closed. */
export function folderIcon(open: boolean): SVGSVGElement {
  return icon(open ? icons.folderOpen : icons.folder, "fi-folder");
}
