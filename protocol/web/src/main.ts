// The page's start: take the token, lay out the panes, connect to /mcp,
// read the workspace, and wire notifications to the model.

import "./jitless";
import type { App } from "./app";
import { h } from "./dom";
import { activate, changed, load, save } from "./docs";
import { flushDrafts, scheduleDraft } from "./drafts";
import { scheduleFocus } from "./focus";
import { Link } from "./mcp";
import { Model } from "./model";
import { list, relistParent, resync } from "./sync";
import { forgetToken, takeToken } from "./token";
import { bannerView } from "./views/banner";
import { Dialogs } from "./views/dialog";
import { EditorHost } from "./views/editor";
import { statusView } from "./views/status";
import { tabsView } from "./views/tabs";
import { treeView } from "./views/tree";
import { activityPanel } from "./views/activitypanel";
import { gitPanel } from "./views/gitpanel";
import { showHelp } from "./views/help";
import { openPalette } from "./views/palette";
import { searchPanel } from "./views/searchpanel";
import { show, sideView } from "./views/side";
import { addActivity, seedActivity } from "./activity";
import { refreshGit, refreshGitSoon, refreshHunks } from "./git";
import { refreshReview, refreshReviewSoon } from "./turns";

function noToken(why: string): void {
  document.title = "editord";
  document.body.replaceChildren(
    h("main", { class: "gate" },
      h("h1", {}, "editord"),
      h("p", { role: "alert" }, why),
      h("p", {}, "Open the link editord printed when it started (", h("code", {}, "editor: http://127.0.0.1:PORT/#token=…"), "). Run ", h("code", {}, "editord serve --http 127.0.0.1:8765 --root DIR"), " to get one."),
    ),
  );
}

function start(): void {
  // A start-up link pasted into a tab already showing the page: start over
  // with its token.
  addEventListener("hashchange", () => /(?:^#|&)token=/.test(location.hash) && location.reload());
  const token = takeToken();
  if (!token) {
    noToken("This page needs the token from editord's start-up link; it shows nothing without it.");
    return;
  }
  const model = new Model();
  const side = h("nav", { class: "side", "aria-label": "Workspace" });
  const tabs = h("div", { class: "tabbar" });
  const banners = h("div", {});
  const pane = h("div", { class: "pane", id: "editor-pane", role: "tabpanel" });
  const main = h("main", { class: "main" }, tabs, banners, pane);
  const layout = h("div", { class: "layout" }, side, main);
  document.body.replaceChildren(layout);
  const dialogs = new Dialogs(document.body);
  const app = {} as App;
  const link = new Link(token, {
    state(s, detail) {
      model.status = { ...model.status, link: s, detail };
      model.changed("status");
      if (s === "unauthorized") {
        forgetToken();
        noToken("The server refused this page's token (it was restarted with another one, or the link is old).");
      }
    },
    changed(ev) {
      if (ev.kind !== "modified") {
        relistParent(app, ev.path);
        if (ev.from) relistParent(app, ev.from);
      }
      addActivity(app, ev);
      refreshGitSoon(app);
      refreshReviewSoon(app);
      void changed(app, ev)
        .then((moved) => {
          const tab = model.tabs.get(ev.path);
          if (moved && tab?.loaded) return refreshHunks(app, tab);
        })
        .catch((e) => model.say(String(e.message ?? e)));
    },
    workspaceUpdated() {
      void resync(app).catch(() => {});
    },
    reconnected() {
      model.children.clear();
      void resync(app).then(() => list(app, "")).catch(() => {});
      void seedActivity(app);
      refreshGitSoon(app);
      refreshReviewSoon(app);
    },
  });
  const editor = new EditorHost(pane, model, {
    edited(tab, docChanged, selectionChanged) {
      if (docChanged) {
        scheduleDraft(app, tab);
        model.changed("tabs");
      }
      if (docChanged || selectionChanged) {
        scheduleFocus(app);
        model.changed("cursor");
      }
    },
  });
  Object.assign(app, {
    model,
    link,
    editor,
    dialogs,
    touched: () => scheduleFocus(app),
  } satisfies App);
  dialogs.app = app;
  const panels = sideView(side, app);
  treeView(panels.files, app);
  searchPanel(panels.search, app);
  gitPanel(panels.git, app);
  activityPanel(panels.activity, app);
  tabsView(tabs, app);
  bannerView(banners, app);
  statusView(main, app);
  model.on("tabs", () => {
    document.title = `${model.activeTab ? model.activeTab.name + " — " : ""}${model.root.split("/").pop() || "editord"}`;
  });
  // Next and previous tab, before the editor sees the keys: VS Code's
  // Ctrl+PageDown/PageUp where they reach the page (an app window), and
  // Alt+PageDown/PageUp, which a browser's tab strip does not take.
  document.addEventListener("keydown", (ev) => {
    if (ev.key !== "PageDown" && ev.key !== "PageUp") return;
    if (ev.shiftKey || (ev.ctrlKey || ev.metaKey) === ev.altKey) return;
    if ((ev.target as HTMLElement).closest?.("[role=dialog]")) return;
    ev.preventDefault();
    ev.stopPropagation();
    const o = model.order;
    if (!o.length) return;
    const i = model.active === null ? -1 : o.indexOf(model.active);
    const next = o[(i + (ev.key === "PageDown" ? 1 : o.length - 1)) % o.length];
    activate(app, next);
    const inEditor = !!(ev.target as HTMLElement).closest?.(".cm-editor");
    queueMicrotask(() => (inEditor ? editor.focus() : document.querySelector<HTMLElement>('.tabs [role=tab][aria-selected="true"]')?.focus()));
  }, true);
  // The page's own shortcuts, in the capture phase: the editor must not
  // also act on them (CodeMirror's Ctrl+Shift+F would open its find panel).
  document.addEventListener("keydown", (ev) => {
    const mod = ev.ctrlKey || ev.metaKey;
    const k = ev.key.toLowerCase();
    const target = ev.target as HTMLElement;
    if (mod && !ev.shiftKey && !ev.altKey && k === "s") {
      // Saves the active tab wherever the focus is, except in a dialog
      // (a merge has its own Save button); never the browser's Save as.
      ev.preventDefault();
      ev.stopPropagation();
      const tab = model.activeTab;
      if (tab && !target.closest?.("[role=dialog]")) void save(app, tab);
    } else if (mod && !ev.shiftKey && !ev.altKey && k === "p") {
      ev.preventDefault();
      ev.stopPropagation();
      openPalette(app);
    } else if (mod && ev.shiftKey && !ev.altKey && ["e", "f", "g", "y"].includes(k)) {
      ev.preventDefault();
      ev.stopPropagation();
      show(app, ({ e: "files", f: "search", g: "git", y: "activity" } as const)[k as "e" | "f" | "g" | "y"]);
    } else if (ev.key === "?" && !mod && !target.closest?.("input, textarea, .cm-editor, [role=dialog]")) {
      ev.preventDefault();
      showHelp(app);
    }
  }, true);
  addEventListener("pagehide", () => flushDrafts(app));
  void resync(app)
    .then(() => {
      void seedActivity(app);
      void refreshGit(app);
      void refreshReview(app);
      const t = model.activeTab;
      if (t) return load(app, t);
    })
    .then(() => {
      // Ready: the workspace read and the active tab's editor built. When
      // (ms since navigation) is kept for the page's benchmark.
      document.body.dataset.readyMs = String(Math.round(performance.now()));
      document.body.dataset.ready = "true";
    })
    .catch((e) => model.say(String(e.message ?? e)));
}

start();
