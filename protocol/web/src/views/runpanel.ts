// The Run panel: run a command in the workspace (editor_run, in the
// background) and watch its output stream in; every job of the workspace
// is listed, an agent's too, and any of them can be watched live or
// stopped. Output comes from editor_run_output, followed with wait_ms, so
// the page sees what any process runs, as agents do.

import type { App } from "../app";
import { h } from "../dom";
import { ToolError } from "../mcp";
import { addCommand } from "../commands";
import type { TermView } from "./terminal";

interface RunJob {
  job: string;
  by: string;
  cwd: string;
  argv: string[];
  state: string;
  exit_code: number | null;
  signal?: string;
  duration_ms: number;
  changed: { created: number; modified: number; deleted: number } | null;
  error?: string;
  terminal?: boolean;
  rows?: number;
  cols?: number;
}

interface OutputPage {
  content: string;
  next_offset: number;
  first_offset: number;
  eof: boolean;
  state: string;
}

/** A terminal's rows: the page's own terminal jobs, and how it shows any. */
const termRows = 20;

/** The most text the log keeps; older output is dropped from the view
 * (editor_run_output still pages it). */
const logMax = 256 << 10;

/** Splits a command line into argv as a shell would split words: quotes
 * ('…' and "…") and backslashes, nothing else (no variables, globs or
 * pipes: editor_run runs no shell). */
export function splitArgs(line: string): string[] {
  const out: string[] = [];
  let cur = "", has = false, q: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (q) {
      if (c === q) q = null;
      else if (c === "\\" && q === '"' && i + 1 < line.length) cur += line[++i];
      else cur += c;
    } else if (c === "'" || c === '"') {
      q = c;
      has = true;
    } else if (c === "\\" && i + 1 < line.length) {
      cur += line[++i];
      has = true;
    } else if (/\s/.test(c)) {
      if (has) out.push(cur);
      cur = "";
      has = false;
    } else {
      cur += c;
      has = true;
    }
  }
  if (has) out.push(cur);
  return out;
}

function outcome(j: RunJob): string {
  const secs = (j.duration_ms / 1000).toFixed(1) + " s";
  let s = j.state === "running" ? `running for ${secs}`
    : j.state === "exited" && j.exit_code !== null ? `exit ${j.exit_code} after ${secs}`
    : `${j.state}${j.signal ? ` (${j.signal})` : ""} after ${secs}`;
  const c = j.changed;
  if (c && c.created + c.modified + c.deleted) s += ` · changed ${c.created + c.modified + c.deleted} file${c.created + c.modified + c.deleted === 1 ? "" : "s"}`;
  if (j.error) s += ` · ${j.error}`;
  return s;
}

export function runPanel(parent: HTMLElement, app: App): void {
  const m = app.model;
  const command = h("input", { type: "text", "aria-label": "Command", placeholder: "go test ./...", spellcheck: "false", "data-autofocus": true });
  const folder = h("input", { type: "text", "aria-label": "Folder", placeholder: "folder (default: the root)", spellcheck: "false" });
  const onTerm = h("input", { type: "checkbox" });
  const runBtn = h("button", { type: "submit", class: "primary" }, "Run");
  const stopBtn = h("button", { type: "button", disabled: true, onclick: () => void stop() }, "Stop");
  const form = h("form", { class: "search-form run-form", "aria-label": "Run a command" }, command, folder,
    h("label", { class: "run-term-check", title: "Run it on a terminal (a pty): type on it here, as an agent can with editor_run_input" }, onTerm, " On a terminal"),
    h("div", { class: "run-buttons" }, runBtn, stopBtn));
  const state = h("p", { class: "run-state", role: "status" });
  const title = h("h3", { class: "git-group run-title" });
  const log = h("pre", { class: "run-log", role: "log", "aria-label": "Output", tabindex: "0" });
  // A terminal job shows in xterm.js (views/terminal.ts, loaded on first use) here instead of the log.
  const termHost = h("div", { class: "run-term", hidden: true });
  const jobs = h("ul", { class: "run-jobs", "aria-label": "Jobs" });
  parent.append(h("h2", { class: "panel-title" }, "Run"), form, state, title, log, termHost, h("h3", { class: "git-group" }, "Jobs"), jobs);

  let shown: string | null = null; // the job whose output the log shows
  let gen = 0; // bumped when the log starts following another job
  let list: RunJob[] = [];
  let off = false; // editor_run is off in this server
  let term: TermView | null = null; // the shown terminal job's

  function say(text: string, alert = false): void {
    state.textContent = text;
    state.setAttribute("role", alert ? "alert" : "status");
  }

  function renderJobs(): void {
    jobs.replaceChildren();
    if (!list.length) jobs.append(h("li", { class: "panel-note" }, "No jobs yet."));
    for (const j of [...list].reverse()) {
      jobs.append(h("li", {}, h("button", {
        type: "button", class: "run-job", "aria-current": j.job === shown ? "true" : undefined,
        title: `${j.job}${j.cwd ? " in " + j.cwd : ""}`, onclick: () => watch(j.job),
      }, h("span", { class: "who" }, j.by), h("span", { class: "what" }, j.argv.join(" ")), h("span", { class: "when" }, outcome(j)))));
    }
    const cur = list.find((j) => j.job === shown);
    stopBtn.disabled = !cur || cur.state !== "running";
    if (cur) {
      title.textContent = `$ ${cur.argv.join(" ")}`;
      if (cur.state !== "running" || !state.textContent) say(outcome(cur));
    }
  }

  function failed(e: unknown): void {
    const msg = e instanceof ToolError ? e.message : String((e as Error)?.message ?? e);
    // The tool is not served (its call names the config that turns it on).
    off = off || /is off in this server|\[run\] enabled = true/.test(msg);
    say(off ? "Commands are off in this server: start editord with --allow-run, or set [run] enabled = true in its config." : msg, true);
    runBtn.disabled = off;
  }

  async function refresh(): Promise<void> {
    if (off) return;
    try {
      list = (await app.link.call<{ jobs: RunJob[] }>("editor_run_status")).jobs;
      renderJobs();
    } catch (e) {
      failed(e);
    }
  }

  function append(text: string, err: boolean): void {
    const atEnd = log.scrollTop + log.clientHeight >= log.scrollHeight - 4;
    log.append(err ? h("span", { class: "stderr" }, text) : text);
    if ((log.textContent?.length ?? 0) > logMax) {
      while (log.firstChild && (log.textContent?.length ?? 0) > logMax / 2) log.firstChild.remove();
      log.prepend(h("span", { class: "run-cut" }, "… earlier output not shown (editor_run_output pages it)\n"));
    }
    if (atEnd) log.scrollTop = log.scrollHeight;
  }

  /** Follows one stream of job from its first kept byte to its end. */
  async function follow(job: string, stream: "stdout" | "stderr", g: number): Promise<void> {
    let offset = 0;
    for (;;) {
      const p = await app.link.call<OutputPage>("editor_run_output", { job, stream, offset, wait_ms: 10000, limit: 24576 });
      if (g !== gen) return;
      if (p.first_offset > offset) append(`… ${p.first_offset - offset} bytes of ${stream} dropped\n`, true);
      if (p.content) append(p.content, stream === "stderr");
      offset = p.next_offset;
      if (p.eof) return;
    }
  }

  /** Follows a terminal job's output (both streams are its stdout) into its terminal. */
  async function followTerm(job: string, g: number, cols?: number): Promise<void> {
    const t = await import("./terminal");
    if (g !== gen) return;
    termHost.replaceChildren();
    let pending = "", sending = false; // typed while a send is on its way: sent next, in order
    const send = async (): Promise<void> => {
      sending = true;
      while (pending && g === gen) {
        const text = pending;
        pending = "";
        try {
          const r = await app.link.call<{ state: string }>("editor_run_input", { job, text });
          if (r.state !== "running") break;
        } catch (e) {
          failed(e);
          break;
        }
      }
      sending = false;
    };
    // Shown at the job's own size (the panel scrolls): its program draws for that.
    const j = list.find((x) => x.job === job);
    term = t.openTerminal(termHost, j?.rows ?? termRows, cols ?? j?.cols ?? t.fitCols(termHost), (text) => {
      pending += text;
      if (!sending) void send();
    });
    const view = term;
    let offset = 0;
    for (;;) {
      const p = await app.link.call<OutputPage>("editor_run_output", { job, offset, wait_ms: 10000, limit: 24576 });
      if (g !== gen) return;
      if (p.content) view.write(p.content);
      offset = p.next_offset;
      if (p.eof) return;
    }
  }

  function watch(job: string, cols?: number): void {
    const g = ++gen;
    shown = job;
    term?.dispose();
    term = null;
    log.replaceChildren();
    const onTerminal = cols !== undefined || !!list.find((j) => j.job === job)?.terminal;
    log.hidden = onTerminal;
    termHost.hidden = !onTerminal;
    termHost.replaceChildren();
    say("");
    renderJobs();
    void (onTerminal ? followTerm(job, g, cols) : Promise.all([follow(job, "stdout", g), follow(job, "stderr", g)]))
      .then(() => (g === gen ? refresh() : undefined))
      .catch((e) => g === gen && failed(e));
  }

  async function stop(): Promise<void> {
    if (!shown) return;
    stopBtn.disabled = true;
    try {
      await app.link.call("editor_run_kill", { job: shown });
    } catch (e) {
      failed(e);
    }
    await refresh();
  }

  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const argv = splitArgs(command.value);
    if (!argv.length) {
      say("Type a command first, e.g. go test ./...", true);
      return;
    }
    const args: Record<string, unknown> = { argv, background: true };
    if (folder.value.trim()) args.cwd = folder.value.trim();
    runBtn.disabled = true;
    say(`Starting ${argv.join(" ")}…`);
    // A terminal is sized to the panel before the command starts on it.
    const sized = onTerm.checked
      ? import("./terminal").then((t) => {
        termHost.hidden = false;
        log.hidden = true;
        return t.fitCols(termHost);
      })
      : Promise.resolve(undefined);
    sized
      .then((cols) => {
        if (cols !== undefined) Object.assign(args, { terminal: true, rows: termRows, cols });
        return app.link.call<{ job: string }>("editor_run", args).then((r) => {
          watch(r.job, cols);
          return refresh();
        });
      })
      .catch(failed)
      .finally(() => (runBtn.disabled = off));
  });

  addCommand({ id: "run.stop", title: "Run: Stop the job shown", when: () => !stopBtn.disabled, run: () => stop() });

  // The jobs list follows what every process runs while the panel shows.
  let timer: ReturnType<typeof setInterval> | null = null;
  m.on("side", () => {
    const on = m.side === "run";
    if (on && !timer) {
      void refresh();
      timer = setInterval(() => void refresh(), 2000);
    } else if (!on && timer) {
      clearInterval(timer);
      timer = null;
    }
  });
  renderJobs();
}
