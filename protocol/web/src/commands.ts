// Every action of the page, in one registry: the command palette
// (Ctrl+Shift+P, F1) lists them with their shortcuts, the keyboard
// shortcuts list (?) shows them, and one key handler runs them. A feature
// adds its actions with addCommand, in its own module:
//
//   addCommand({ id: "review.open", title: "Review: Open", keys: ["Ctrl+Alt+R"], run: (app) => openReview(app) });
//
// Keys are written "Ctrl+Shift+P" (Ctrl is Ctrl or Cmd), "Alt+Z", "F1",
// "Alt+PageDown", "?"; a letter key is matched by its place on the
// keyboard, so Alt+Z is Alt+Z on a Mac too.

import type { App } from "./app";

export interface Command {
  /** Stable id, "area.action". */
  id: string;
  /** What the palette shows: "Git: Commit all". */
  title: string;
  /** Shortcuts, the first one shown. */
  keys?: string[];
  /** Shortcuts the editor's own keymap handles, where they mean this
   * command (F2 renames a symbol there and a file in the tree): shown
   * beside the command and in the shortcuts list, not bound page-wide. */
  editorKeys?: string[];
  /** Whether it applies now (the palette greys out, keys skip, the rest). */
  when?(app: App): boolean;
  /** Runs in a modal dialog too (most commands wait until it is closed). */
  inDialog?: boolean;
  run(app: App, ev?: KeyboardEvent): unknown;
}

const registry = new Map<string, Command>();
const listeners = new Set<() => void>();

/** Adds (or replaces, by id) a command. */
export function addCommand(c: Command): void {
  registry.set(c.id, c);
  bindings = null;
  for (const fn of listeners) fn();
}

/** Every command, in the order they were added. */
export function commands(): Command[] {
  return [...registry.values()];
}

export function command(id: string): Command | undefined {
  return registry.get(id);
}

/** Calls fn when a command is added later. */
export function onCommands(fn: () => void): void {
  listeners.add(fn);
}

/** Runs a command by id when it applies; reports whether it ran. */
export function runCommand(app: App, id: string, ev?: KeyboardEvent): boolean {
  const c = registry.get(id);
  if (!c || (c.when && !c.when(app))) return false;
  Promise.resolve()
    .then(() => c.run(app, ev))
    .catch((e) => app.model.say(String(e?.message ?? e), `command:${id}`));
  return true;
}

interface Binding {
  mod: boolean;
  shift: boolean | null; // null: either (a key whose character needs Shift)
  alt: boolean;
  key: string; // KeyboardEvent.key, lower case
  code: string | null; // KeyboardEvent.code, for letters, digits and punctuation
  plain: boolean; // no modifier, not a function key: only outside text
  command: Command;
}

const codes: Record<string, string> = { "\\": "Backslash", "/": "Slash", ",": "Comma", ".": "Period", ";": "Semicolon", "[": "BracketLeft", "]": "BracketRight", "`": "Backquote", "-": "Minus", "=": "Equal" };

function parse(spec: string, c: Command): Binding {
  const parts = spec.split("+");
  // "Ctrl++" ends in an empty part: the key is "+".
  let key = parts.pop()!;
  if (key === "" && parts[parts.length - 1] === "") {
    parts.pop();
    key = "+";
  }
  const has = (m: string) => parts.includes(m);
  const letter = /^[a-z0-9]$/i.test(key);
  const code = letter ? (/\d/.test(key) ? `Digit${key}` : `Key${key.toUpperCase()}`) : codes[key] ?? null;
  const named = key.length > 1;
  return {
    mod: has("Ctrl"),
    shift: letter || named || code ? has("Shift") : null,
    alt: has("Alt"),
    key: key.toLowerCase(),
    code,
    plain: !has("Ctrl") && !has("Alt") && !/^F\d+$/.test(key) && key !== "Escape",
    command: c,
  };
}

let bindings: Binding[] | null = null;

function matches(b: Binding, ev: KeyboardEvent): boolean {
  if (b.mod !== (ev.ctrlKey || ev.metaKey) || b.alt !== ev.altKey) return false;
  if (b.shift !== null && b.shift !== ev.shiftKey) return false;
  return ev.key.toLowerCase() === b.key || (b.code !== null && ev.code === b.code);
}

/** The command a key event is a shortcut of, if any. */
function lookup(ev: KeyboardEvent): Binding | undefined {
  bindings ??= commands().flatMap((c) => (c.keys ?? []).map((k) => parse(k, c)));
  return bindings.find((b) => matches(b, ev));
}

/** Runs the page's shortcuts, before the editor or the browser sees them
 * (the capture phase): CodeMirror's Ctrl+Shift+F would open its find
 * panel, the browser's Ctrl+S a Save as. */
export function listenForShortcuts(app: App): void {
  document.addEventListener("keydown", (ev) => {
    const b = lookup(ev);
    if (!b) return;
    const target = ev.target as HTMLElement;
    const inDialog = !!target.closest?.("[role=dialog]");
    if (b.plain && target.closest?.("input, textarea, select, .cm-editor, [contenteditable=true]")) return;
    // A terminal (the Run panel's) takes Ctrl+letter and Escape as a shell needs them
    // (^B, ^F, ^H, ^P…); the page keeps Ctrl+Shift and the function keys.
    if (target.closest?.(".xterm") && !(b.mod && b.shift) && !/^f\d+$/.test(b.key)) return;
    if (b.plain && inDialog) return;
    if (inDialog && !b.command.inDialog) {
      // Not the browser's either (Ctrl+S is no Save as in a dialog).
      if (b.mod) ev.preventDefault();
      return;
    }
    if (b.command.when && !b.command.when(app)) return;
    ev.preventDefault();
    ev.stopPropagation();
    runCommand(app, b.command.id, ev);
  }, true);
}

const mac = /Mac|iPhone|iPad/.test(navigator.platform);

/** A shortcut as this computer's keyboard names it. */
export function keyLabel(spec: string): string {
  return mac ? spec.replace(/\bCtrl\+/g, "⌘").replace(/\bAlt\+/g, "⌥").replace(/\bShift\+/g, "⇧") : spec;
}
