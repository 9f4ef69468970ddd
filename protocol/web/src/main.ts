// The page's start: take the token, lay out the panes, connect to /mcp,
// read the workspace, and wire notifications to the model.

import "./jitless";
import type { App } from "./app";
import { h } from "./dom";
import { changed, load, save } from "./docs";
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
      void changed(app, ev).catch((e) => model.say(String(e.message ?? e)));
    },
    workspaceUpdated() {
      void resync(app).catch(() => {});
    },
    reconnected() {
      model.children.clear();
      void resync(app).then(() => list(app, "")).catch(() => {});
    },
  });
  const editor = new EditorHost(pane, model, {
    edited(tab, docChanged, selectionChanged) {
      if (docChanged) {
        scheduleDraft(app, tab);
        model.changed("tabs");
      }
      if (docChanged || selectionChanged) scheduleFocus(app);
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
  treeView(side, app);
  tabsView(tabs, app);
  bannerView(banners, app);
  statusView(main, app);
  model.on("tabs", () => {
    document.title = `${model.activeTab ? model.activeTab.name + " — " : ""}${model.root.split("/").pop() || "editord"}`;
  });
  document.addEventListener("keydown", (ev) => {
    if ((ev.ctrlKey || ev.metaKey) && ev.key.toLowerCase() === "s") {
      ev.preventDefault();
      const tab = model.activeTab;
      if (tab && !(ev.target as HTMLElement).closest?.(".cm-editor")) void save(app, tab);
    }
  });
  addEventListener("pagehide", () => flushDrafts(app));
  void resync(app)
    .then(() => {
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
