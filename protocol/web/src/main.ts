// The page's start: take the token, lay out the panes, connect to /mcp,
// read the workspace, and wire notifications to the model.

import "./jitless";
import type { App } from "./app";
import { h } from "./dom";
import { addTabExtension, changed, load } from "./docs";
import { flushDrafts, scheduleDraft } from "./drafts";
import { scheduleFocus } from "./focus";
import { Link } from "./mcp";
import { Model } from "./model";
import { list, relistParent, resync } from "./sync";
import { claimLaunch, forgetToken, takeToken } from "./token";
import { bannerView } from "./views/banner";
import { diffBar } from "./views/diffbar";
import { breadcrumbsView } from "./views/breadcrumbs";
import { splitView } from "./views/split";
import { Dialogs } from "./views/dialog";
import { mergeDialog } from "./views/merge";
import { merge3Dialog } from "./views/merge3";
import { EditorHost } from "./views/editor";
import { statusView } from "./views/status";
import { tabsView } from "./views/tabs";
import { treeView } from "./views/tree";
import { activityPanel } from "./views/activitypanel";
import { gitPanel } from "./views/gitpanel";
import { runPanel } from "./views/runpanel";
import { addSideView } from "./views/side";
import { icons } from "./icons";
import { searchPanel } from "./views/searchpanel";
import { sideView } from "./views/side";
import { addCoreCommands } from "./actions";
import { listenForShortcuts } from "./commands";
import { addActivity, seedActivity } from "./activity";
import { refreshGit, refreshGitSoon, refreshHunks } from "./git";
import { codeIntel, noteChange } from "./intel";
import { addIntelCommands } from "./intelcommands";
import { problemsView } from "./views/problems";
import { rememberActive } from "./restore";
import { hideChanges, showChanges } from "./inlinediff";
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
  addEventListener("hashchange", () => /(?:^#|&)(?:token|code)=/.test(location.hash) && location.reload());
  const token = takeToken();
  if (!token) {
    noToken("This page needs the token from editord's start-up link; it shows nothing without it.");
    return;
  }
  const model = new Model();
  const bar = h("nav", { class: "activitybar", "aria-label": "Activity bar" });
  const side = h("nav", { class: "side", "aria-label": "Workspace" });
  const tabs = h("div", { class: "tabbar" });
  const banners = h("div", {});
  const pane = h("div", { class: "pane", id: "editor-pane", role: "tabpanel" });
  const main = h("main", { class: "main" }, h("div", { class: "group" }, tabs, banners, pane));
  const layout = h("div", { class: "layout" }, bar, side, main);
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
      noteChange(app);
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
        // "Saved" is about the text as it was.
        model.done(`saved:${tab.path}`);
      }
      if (docChanged || selectionChanged) {
        scheduleFocus(app);
        model.changed("cursor");
      }
    },
    changeBarClicked(tab) {
      if (tab.inlineDiff) hideChanges(app, tab);
      else void showChanges(app, tab, ":").catch((e) => model.say(String(e.message ?? e)));
    },
  });
  Object.assign(app, {
    model,
    link,
    editor,
    dialogs,
    touched: () => scheduleFocus(app),
  } satisfies App);
  // Three ways when the text the person's edits were made over is known,
  // else the disk's text beside theirs.
  addTabExtension(codeIntel);
  dialogs.onMerge = (tab) => {
    if (tab.theirs && tab.disk && tab.state && tab.disk.version === tab.over) void merge3Dialog(app, dialogs, tab);
    else void mergeDialog(app, dialogs, tab);
  };
  const panels = sideView(side, app, bar);
  addSideView({ id: "run", label: "Run", icon: icons.run, keys: "Ctrl+Shift+B", build: runPanel });
  treeView(panels.files, app);
  searchPanel(panels.search, app);
  gitPanel(panels.git, app);
  activityPanel(panels.activity, app);
  tabsView(tabs, app);
  splitView(main, app);
  bannerView(banners, app);
  problemsView(main, app);
  diffBar(banners, app);
  breadcrumbsView(banners, app);
  statusView(layout, app);
  model.on("tabs", () => {
    rememberActive(app);
    document.title = `${model.activeTab ? model.activeTab.name + " — " : ""}${model.root.split("/").pop() || "editord"}`;
  });
  addCoreCommands(app);
  addIntelCommands(app);
  listenForShortcuts(app);
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

void claimLaunch().then(start);
