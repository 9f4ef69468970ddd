// The change journal as the person sees it: who changed what, newest
// first. Seeded from editor_changes, then fed by the notifications.

import type { App } from "./app";
import type { ChangeEvent } from "./mcp";

const keep = 500;

/** An agent's write: not a person's page, not another program. */
export function byAgent(ev: ChangeEvent): boolean {
  return !!ev.by && ev.by !== "external" && !ev.by.startsWith("editord-page#") && ev.by !== "cli";
}

export async function seedActivity(app: App): Promise<void> {
  try {
    const r = await app.link.call<{ changes: ChangeEvent[] }>("editor_changes", {});
    const seen = new Set(app.model.activity.map((e) => e.seq));
    const older = r.changes.filter((e) => !seen.has(e.seq) && e.root === app.model.root).reverse();
    app.model.activity = [...app.model.activity, ...older].sort((a, b) => b.seq - a.seq).slice(0, keep);
    app.model.changed("activity", "tabs");
  } catch {
    /* the journal is a nicety here */
  }
}

export function addActivity(app: App, ev: ChangeEvent): void {
  const m = app.model;
  if (ev.root !== m.root || m.activity.some((e) => e.seq === ev.seq)) return;
  m.activity = [ev, ...m.activity].slice(0, keep);
  m.changed("activity", "tabs");
}

/** Paths an agent changed in the last minute. */
export function recentlyByAgents(app: App, now = Date.now()): Set<string> {
  const out = new Set<string>();
  for (const ev of app.model.activity) {
    const t = Date.parse(ev.time);
    if (now - t > 60_000) break;
    if (byAgent(ev)) out.add(ev.path);
  }
  return out;
}
