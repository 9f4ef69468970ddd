// What an undo left as it is, and why: editor_revert refuses a hunk that
// someone changed after the turn, with its three sides (as it was, as the
// turn made it, as it is now), and overwrites nothing. The Review view and
// "undo what I did recently" show refusals the same way.

import { h } from "../dom";
import type { Refusal } from "../turns";

/** An alert naming each refused part, its three sides one click away. */
export function refusalsNotice(label: string, refused: Refusal[]): HTMLElement {
  return h("div", { role: "alert", class: "rv-refused" },
    h("p", {}, `${label}: ${refused.length === 1 ? "one part was" : `${refused.length} parts were`} left as they are, because someone changed them since.`),
    ...refused.map((x) => h("details", {},
      h("summary", {}, `${x.path}${x.hunk ? ` hunk ${x.hunk}` : ""}: ${x.reason}`),
      h("div", { class: "rv-sides" },
        h("div", {}, h("h4", {}, "As it was"), h("pre", {}, x.as_was)),
        h("div", {}, h("h4", {}, "As the turn made it"), h("pre", {}, x.as_made)),
        h("div", {}, h("h4", {}, "As it is now"), h("pre", {}, x.as_now))))));
}
