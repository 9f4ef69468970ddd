// The Run panel's terminal: an editor_run job started with terminal: true
// shown in xterm.js, live, and typed on (editor_run_input) by the person
// while an agent may type on it too. Loaded only when a terminal job is
// shown: xterm is most of this chunk and no first load needs it.

import { Terminal } from "@xterm/xterm";
import xtermCSS from "@xterm/xterm/css/xterm.css";

/** A terminal job's view: write output in, and dispose of it. */
export interface TermView {
  write(text: string): void;
  dispose(): void;
}

let sheet: CSSStyleSheet | null = null;

/** xterm's own style sheet, adopted (the page's CSP allows no inline style). */
function adoptCSS(): void {
  if (sheet) return;
  sheet = new CSSStyleSheet();
  sheet.replaceSync(xtermCSS);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}

function cssVar(name: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim();
}

const fontSize = 12;

function fontFamily(): string {
  return cssVar("--mono") || "monospace";
}

/** The columns that fit in parent's width with the terminal's font. */
export function fitCols(parent: HTMLElement): number {
  const c = document.createElement("canvas").getContext("2d");
  let cell = fontSize * 0.6;
  if (c) {
    c.font = `${fontSize}px ${fontFamily()}`;
    cell = c.measureText("0".repeat(100)).width / 100;
  }
  return Math.max(20, Math.floor(((parent.clientWidth || 640) - 16) / cell));
}

/**
 * Opens a terminal of rows and cols in parent; type is called with what
 * the person types there (keys, pastes), as bytes for the job's pty.
 */
export function openTerminal(parent: HTMLElement, rows: number, cols: number, type: (text: string) => void): TermView {
  adoptCSS();
  const term = new Terminal({
    rows, cols, fontFamily: fontFamily(), fontSize, scrollback: 5000,
    theme: { background: cssVar("--bg-side") || undefined, foreground: cssVar("--fg") || undefined, cursor: cssVar("--fg") || undefined },
  });
  term.open(parent);
  // xterm answers a program's queries (cursor position, device attributes)
  // as it parses output: output replayed to a later viewer, or seen by
  // several, would type old or doubled answers on the job. Only what the
  // person types goes on: an escape sequence while output is being parsed,
  // and not from a key just pressed (an arrow key's), is xterm's answer.
  let parsing = 0, keying = false;
  term.attachCustomKeyEventHandler(() => {
    keying = true;
    setTimeout(() => (keying = false));
    return true;
  });
  term.onData((data) => {
    if (parsing > 0 && !keying && data.startsWith("\x1b")) return;
    type(data);
  });
  return {
    write: (text) => {
      parsing++;
      term.write(text, () => parsing--);
    },
    dispose: () => term.dispose(),
  };
}
