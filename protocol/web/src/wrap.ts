// Word wrap (Alt+Z), as VS Code's: one setting for every editor, kept in
// this browser (localStorage), applied to each tab's state through a
// compartment, so the tabs not on screen wrap too when shown.

import { Compartment, type Extension } from "@codemirror/state";
import { EditorView } from "@codemirror/view";
import type { App } from "./app";

export const wrapSlot = new Compartment();
const key = "editord.wrap";

function stored(): boolean {
  try {
    return localStorage.getItem(key) === "on";
  } catch {
    return false;
  }
}

let wrapping = stored();

/** The wrap extension for a new tab's state. */
export function wrapExtension(): Extension {
  return wrapSlot.of(wrapping ? EditorView.lineWrapping : []);
}

export function isWrapping(): boolean {
  return wrapping;
}

export function toggleWrap(app: App): void {
  wrapping = !wrapping;
  try {
    localStorage.setItem(key, wrapping ? "on" : "off");
  } catch {
    /* kept for this page only */
  }
  for (const tab of app.model.tabs.values()) {
    if (tab.state) app.editor.apply(tab, { effects: wrapSlot.reconfigure(wrapping ? EditorView.lineWrapping : []) });
  }
  app.model.say(wrapping ? "Word wrap on (Alt+Z turns it off)." : "Word wrap off.", "wrap");
  app.model.changed("status");
}
