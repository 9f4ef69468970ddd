#!/usr/bin/env node
// Drives editord with the official MCP TypeScript SDK client, the way a
// third-party host would, over stdio or Streamable HTTP:
//
//   node sdk-client.mjs --editord BIN --root DIR --state-dir DIR --transport stdio
//   node sdk-client.mjs --editord BIN --root DIR --state-dir DIR --transport http \
//        --url http://127.0.0.1:PORT/mcp --token TOKEN
//
// With --transport stdio it spawns `BIN serve --root DIR --state-dir DIR`
// itself; with http it connects to a server someone else started on the same
// root and state dir. Writes made by "another process" are `BIN call
// editor::save ...` on the same state dir. Exits 0 with "ok: ..." on success,
// 1 with "FAIL: ..." on the first failed check.
import { execFile, execFileSync } from "node:child_process";
import { readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isDeepStrictEqual, parseArgs, promisify } from "node:util";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { LATEST_PROTOCOL_VERSION, ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";

const { values: opt } = parseArgs({
  options: {
    editord: { type: "string" },
    root: { type: "string" },
    "state-dir": { type: "string" },
    transport: { type: "string", default: "stdio" },
    url: { type: "string" },
    token: { type: "string" },
    "wait-ms": { type: "string", default: "5000" },
  },
});
for (const k of ["editord", "root", "state-dir"]) {
  if (!opt[k]) usage(`--${k} is required`);
}
if (!["stdio", "http"].includes(opt.transport)) usage(`--transport must be stdio or http`);
if (opt.transport === "http" && (!opt.url || !opt.token)) usage("--transport http needs --url and --token");
const root = realpathSync(opt.root);
const stateDir = opt["state-dir"];
const waitMs = Number(opt["wait-ms"]);
const tag = `[sdk ${opt.transport}]`;

function usage(msg) {
  console.error(`sdk-client: ${msg}`);
  process.exit(2);
}

class CheckFailed extends Error {}
function check(cond, what, detail) {
  if (!cond) {
    const extra = detail === undefined ? "" : `\n  got: ${typeof detail === "string" ? detail : JSON.stringify(detail, null, 2)}`;
    throw new CheckFailed(`${what}${extra}`);
  }
}
function step(msg) {
  console.log(`${tag} ${msg}`);
}

// Another process on the same state dir: `editord call FUNCTION JSON`. Run
// asynchronously, so notifications are timestamped as they arrive.
async function otherProcess(fn, req) {
  const { stdout } = await promisify(execFile)(opt.editord, ["call", fn, JSON.stringify(req), "--root", root, "--state-dir", stateDir], {
    encoding: "utf8",
    timeout: 30_000,
  });
  return { resp: JSON.parse(stdout), done: Date.now() };
}

// Everything the server sends, seen below the SDK: the initialize result and
// every notification, for the checks and for the failure report.
const incoming = [];
let initResult;
function tap(transport) {
  return new Proxy(transport, {
    set(target, prop, value) {
      if (prop === "onmessage" && typeof value === "function") {
        target.onmessage = (msg, extra) => {
          if (msg && msg.result && msg.result.protocolVersion && !initResult) initResult = msg.result;
          if (msg && msg.method) incoming.push({ at: Date.now(), method: msg.method, params: msg.params });
          value(msg, extra);
        };
        return true;
      }
      target[prop] = value;
      return true;
    },
  });
}

async function waitFor(what, pred) {
  const start = Date.now();
  while (Date.now() - start < waitMs) {
    const hit = incoming.find(pred);
    if (hit) return hit;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new CheckFailed(
    `${what}: nothing within ${waitMs} ms\n  notifications received: ${JSON.stringify(incoming.map((n) => ({ method: n.method, params: n.params })), null, 2)}`,
  );
}

// callTool through the SDK (which validates structuredContent against the
// tool's outputSchema) and the contract's result shape: one text block
// written for a model (CONTRACT.md §8: a refusal's text is its message),
// and the exact response object as structuredContent.
async function call(client, name, args) {
  const res = await client.callTool({ name, arguments: args });
  check(Array.isArray(res.content) && res.content.length === 1 && res.content[0].type === "text", `${name}: want one text block`, res);
  check(typeof res.content[0].text === "string" && res.content[0].text.length > 0, `${name}: empty text block`, res);
  check(res.structuredContent && typeof res.structuredContent === "object", `${name}: no structuredContent`, res);
  if (res.isError) {
    check(res.structuredContent.error && res.content[0].text === res.structuredContent.error.message, `${name}: a refusal's text block should be its message`, res);
  }
  return res;
}

// text is a result's text block.
const text = (res) => res.content[0].text;

async function main() {
  const file = `sdk-${opt.transport}.txt`;
  const abs = join(root, file);
  const c1 = "alpha\nbeta\n";
  writeFileSync(abs, c1);

  let transport;
  if (opt.transport === "stdio") {
    transport = new StdioClientTransport({
      command: opt.editord,
      args: ["serve", "--root", root, "--state-dir", stateDir],
      stderr: "inherit",
    });
  } else {
    transport = new StreamableHTTPClientTransport(new URL(opt.url), {
      requestInit: { headers: { Authorization: `Bearer ${opt.token}` } },
    });
  }
  const client = new Client({ name: "editord-interop-sdk", version: "1.0.0" }, { capabilities: {} });
  // notifications/editor/changed is editord's own method: the SDK has no
  // schema for it, so it reaches the fallback handler.
  const custom = [];
  client.fallbackNotificationHandler = async (n) => {
    custom.push(n);
  };
  const updates = [];
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
    updates.push(n.params.uri);
  });
  await client.connect(tap(transport));
  try {
    await run(client, file, abs, c1, custom, updates);
  } finally {
    await client.close().catch(() => {});
  }
}

async function run(client, file, abs, c1, custom, updates) {
  check(initResult, "initialize result not seen");
  step(`connected to ${JSON.stringify(client.getServerVersion())}, protocol ${initResult.protocolVersion}`);
  check(initResult.protocolVersion === LATEST_PROTOCOL_VERSION, `server should accept the SDK's protocol ${LATEST_PROTOCOL_VERSION}`, initResult);
  const caps = client.getServerCapabilities();
  check(caps && caps.tools, "server capabilities lack tools", caps);
  check(caps.resources && caps.resources.subscribe === true, "server capabilities lack resources.subscribe", caps);

  // tools/list: the core toolset by default; editor_tools adds the rest
  // (notifications/tools/list_changed), and then the list is the catalog.
  const catalog = JSON.parse(execFileSync(opt.editord, ["functions", "--json"], { encoding: "utf8", timeout: 30_000 }));
  const want = catalog.map((t) => t.name).sort();
  const core = (await client.listTools()).tools.map((t) => t.name).sort();
  for (const name of ["editor_open", "editor_save", "editor_edit", "editor_changes", "editor_workspace_get", "editor_git_commit", "editor_tools"]) {
    check(core.includes(name), `tool ${name} not listed by default`, core);
  }
  check(core.length < want.length && core.every((n) => want.includes(n)), "the default tool list should be part of the catalog", { core, want });
  check(client.getServerCapabilities().tools.listChanged === true, "tools.listChanged not declared", client.getServerCapabilities());
  const enabled = await call(client, "editor_tools", { enable: ["all"] });
  check(enabled.structuredContent.toolsets.every((ts) => ts.listed), "editor_tools enable all left a toolset unlisted", enabled.structuredContent);
  await waitFor("notifications/tools/list_changed after editor_tools", (n) => n.method === "notifications/tools/list_changed");
  const { tools } = await client.listTools();
  const got = tools.map((t) => t.name).sort();
  check(isDeepStrictEqual(got, want), "tools/list names after editor_tools enable all differ from `editord functions --json`", { got, want });
  for (const t of tools) {
    check(/^[a-zA-Z][a-zA-Z0-9_-]{0,47}$/.test(t.name), `tool name ${t.name} is not portable`);
    check(typeof t.description === "string" && t.description.length > 0, `${t.name}: no description`, t);
    check(t.title && t.title.startsWith("editor::"), `${t.name}: title is not the function id`, t.title);
    check(t._meta && t._meta.function_id === t.title, `${t.name}: _meta.function_id should equal the title`, t._meta);
    check(t.inputSchema && t.inputSchema.type === "object", `${t.name}: inputSchema is not an object schema`, t.inputSchema);
    check(t.outputSchema && t.outputSchema.type === "object", `${t.name}: no object outputSchema`, t.outputSchema);
    for (const [field, p] of Object.entries(t.inputSchema.properties || {})) {
      check(p.description, `${t.name}: input field ${field} has no description`, p);
    }
    check(t.annotations && typeof t.annotations.readOnlyHint === "boolean", `${t.name}: no readOnlyHint annotation`, t.annotations);
  }
  step(`tools/list: ${core.length} core tools by default, ${tools.length} after editor_tools, each with inputSchema and outputSchema`);

  // resources/list and resources/read.
  const { resources } = await client.listResources();
  const uris = resources.map((r) => r.uri);
  for (const u of ["editor://workspace", "editor://changes"]) check(uris.includes(u), `resource ${u} not listed`, uris);
  const ws = await client.readResource({ uri: "editor://workspace" });
  const view = JSON.parse(ws.contents[0].text);
  check(view.root === root, "editor://workspace root", view);

  // open, then save with the version open returned.
  const openRes = await call(client, "editor_open", { path: file });
  const opened = openRes.structuredContent;
  check(opened.content === c1 && opened.path === file, "editor_open content/path", opened);
  // The text block: a header line, then each line numbered (right-aligned to 6, a tab).
  const wantText = `${file} (version ${opened.version}, lines 1–2 of 2, ${opened.language}, eol lf)\n     1\talpha\n     2\tbeta`;
  check(text(openRes).replace(/\n$/, "") === wantText, "editor_open text block", { got: text(openRes), want: wantText });
  check(/^[0-9a-f]+-[0-9a-f]{16}$/.test(opened.version), "editor_open version format", opened.version);
  const c2 = "alpha\nBETA\n";
  const saveRes = await call(client, "editor_save", { path: file, content: c2, expected_version: opened.version });
  const saved = saveRes.structuredContent;
  check(saved.saved === true && saved.conflict === false, "editor_save with the opened version should save", saved);
  check(text(saveRes).startsWith(`saved ${file} (version ${saved.version}, +1 -1)`), "editor_save text block", text(saveRes));
  check(saved.version !== opened.version, "editor_save should return the new version", saved);
  check(readFileSync(abs, "utf8") === c2, "disk after editor_save", readFileSync(abs, "utf8"));
  step(`editor_open ${opened.version} -> editor_save ${saved.version}`);

  // Another process writes the file; our stale save must conflict.
  const c3 = "alpha\nBETA\ngamma (other process)\n";
  const { resp: other } = await otherProcess("editor::save", { path: file, content: c3, expected_version: saved.version });
  check(other.saved === true, "other process save", other);
  const c4 = "alpha\nBETA\ndelta (mine)\n";
  const conflictRes = await call(client, "editor_save", { path: file, content: c4, expected_version: saved.version });
  const conflict = conflictRes.structuredContent;
  check(conflict.conflict === true && conflict.saved === false, "a save with a stale version should be a conflict", conflict);
  check(text(conflictRes).startsWith(`conflict: ${file} changed on disk`) && text(conflictRes).includes("+delta (mine)"), "a conflict's text block names it and carries the patch", text(conflictRes));
  check(conflict.disk_version === other.version, "conflict disk_version should be the other process's version", { conflict, other });
  check(typeof conflict.conflict_patch === "string" && conflict.conflict_patch.includes(`--- a/${file}`) && conflict.conflict_patch.includes("+delta (mine)"), "conflict_patch", conflict.conflict_patch);
  check(readFileSync(abs, "utf8") === c3, "a conflict must not write", readFileSync(abs, "utf8"));
  step(`stale save -> conflict, disk_version ${conflict.disk_version}, conflict_patch ${conflict.conflict_patch.length} bytes`);

  // A refusal is an isError result with a stable code (and the SDK's output
  // validation must not turn it into an exception).
  const refused = await call(client, "editor_open", { path: "../outside.txt" });
  check(refused.isError === true && refused.structuredContent.error && refused.structuredContent.error.code === "outside_jail", "a path outside the jail should be isError with code outside_jail", refused);

  // The other process's write reaches us as notifications/editor/changed
  // (protocol 2025-11-25) without any subscription.
  const isEvent = (version) => (n) => n.method === "notifications/editor/changed" && n.params && n.params.version === version;
  await waitFor(`notifications/editor/changed for the other process's save (version ${other.version})`, isEvent(other.version));
  check(custom.some((n) => n.params && n.params.version === other.version), "the SDK's fallback handler did not get notifications/editor/changed", custom);

  // Subscribe to editor://changes, then another process writes.
  await client.subscribeResource({ uri: "editor://changes" });
  const mark = incoming.length;
  const seenUpdates = updates.length;
  const c5 = c3 + "epsilon (other process, after subscribe)\n";
  const t0 = Date.now();
  const { resp: other2, done: t1 } = await otherProcess("editor::save", { path: file, content: c5, expected_version: other.version });
  check(other2.saved === true, "second other-process save", other2);
  const upd = await waitFor("notifications/resources/updated for editor://changes after a write by another process", (n) => incoming.indexOf(n) >= mark && n.method === "notifications/resources/updated" && n.params && n.params.uri === "editor://changes");
  const ev = await waitFor(`notifications/editor/changed for the second save (version ${other2.version})`, isEvent(other2.version));
  check(updates.length > seenUpdates, "the SDK's ResourceUpdatedNotification handler did not fire", updates);
  const e = ev.params;
  check(e.path === file && e.kind === "modified" && e.cause === "editor::save" && typeof e.seq === "number" && e.root === root, "editor::changed event fields", e);
  check(e.added === 1 && e.removed === 0 && typeof e.patch === "string" && e.patch.includes("+epsilon (other process, after subscribe)"), "editor::changed event patch", e);
  const changes = JSON.parse((await client.readResource({ uri: "editor://changes" })).contents[0].text);
  check(Array.isArray(changes.changes) && changes.changes.some((c) => c.version === other2.version), "editor://changes should hold the event", changes);
  await client.unsubscribeResource({ uri: "editor://changes" });

  // editor://workspace: another process opening a file changes the shared
  // record (its buffers), which subscribers hear of.
  await client.subscribeResource({ uri: "editor://workspace" });
  const wsMark = incoming.length;
  const other3 = `sdk-${opt.transport}-other.txt`;
  writeFileSync(join(root, other3), "opened elsewhere\n");
  await otherProcess("editor::open", { path: other3 });
  await waitFor("notifications/resources/updated for editor://workspace after another process opened a file", (n) => incoming.indexOf(n) >= wsMark && n.method === "notifications/resources/updated" && n.params && n.params.uri === "editor://workspace");
  const view2 = JSON.parse((await client.readResource({ uri: "editor://workspace" })).contents[0].text);
  check(Array.isArray(view2.buffers) && view2.buffers.some((b) => b.path === other3), "editor://workspace should list the buffer another process opened", view2);
  await client.unsubscribeResource({ uri: "editor://workspace" });
  step(`subscribed: other process ran ${t1 - t0} ms; resources/updated at +${upd.at - t0} ms, editor/changed (seq ${e.seq}) at +${ev.at - t0} ms from its start`);
  console.log(`ok: ${tag} tools/list, open, save, conflict, isError, editor://changes and editor://workspace subscriptions, notifications/editor/changed`);
}

main().then(
  () => process.exit(0),
  (err) => {
    if (err instanceof CheckFailed) console.error(`FAIL: ${tag} ${err.message}`);
    else console.error(`FAIL: ${tag} ${err && err.stack ? err.stack : err}`);
    process.exit(1);
  },
);
