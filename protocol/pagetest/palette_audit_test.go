package pagetest

import (
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/chromedp/kb"
)

// Every action of the five features merged into the page is in the
// command palette once, with its shortcut beside it (the editor's own keys
// too: F12, Shift+F12, F2, Ctrl+Shift+O), never in its title; the
// shortcuts list (?) binds no key twice; the Problems panel's
// Ctrl+Shift+M is a command like the rest.
func TestPaletteListsEveryActionOnce(t *testing.T) {
	e := newEnv(t, shotFiles, opts{})
	e.initRepo()
	e.click("treeitem", "README.md")
	e.waitEditor("greeter", "README.md")

	e.key(kb.F1)
	e.node("dialog", "Commands")
	var opts [][2]string
	e.js(`[...document.querySelectorAll("#palette-list [role=option]")].map((o) => [o.querySelector(".label").textContent, o.querySelector("kbd")?.textContent ?? ""])`, &opts)
	titles := map[string]bool{}
	shortcut := map[string]string{}
	keyInTitle := regexp.MustCompile(`\((Ctrl|Shift|Alt|Cmd|F\d)`)
	for _, o := range opts {
		title, key := o[0], o[1]
		if titles[title] {
			t.Errorf("the palette lists %q twice", title)
		}
		titles[title] = true
		if keyInTitle.MatchString(title) {
			t.Errorf("%q carries its shortcut in its title, not beside it", title)
		}
		if key != "" {
			if other, dup := shortcut[key]; dup {
				t.Errorf("%s is shown for both %q and %q", key, other, title)
			}
			shortcut[key] = title
		}
	}
	for title, key := range map[string]string{
		"Show all commands":              "Ctrl+Shift+P",
		"Code: Go to definition":         "F12",
		"Code: Find references":          "Shift+F12",
		"Code: Rename symbol":            "F2",
		"Code: Go to symbol in the file": "Ctrl+Shift+O",
		"View: Problems":                 "Ctrl+Shift+M",
		"View: Run":                      "Ctrl+Shift+B",
		"View: Activity":                 "Ctrl+Shift+Y",
		"View: Split editor":             "Ctrl+\\",
		"View: Toggle word wrap":         "Alt+Z",
		"View: Toggle side bar":          "Ctrl+B",
		"Activity: Undo what I did in the last 5 minutes…": "",
		"Code: Go to symbol in workspace…":                 "",
	} {
		if !titles[title] {
			t.Errorf("the palette has no %q; it lists %d commands", title, len(opts))
			continue
		}
		for k, tt := range shortcut {
			if tt == title && k != key {
				t.Errorf("%q is shown with %q, want %q", title, k, key)
			}
		}
		if key != "" && shortcut[key] != title {
			t.Errorf("%q is not shown with %s", title, key)
		}
	}
	e.key(kb.Escape)
	e.gone("dialog", "Commands")

	// The shortcuts list: no key bound to two commands (a key of one
	// place, the tree or the tab list, may mean another thing elsewhere).
	e.click("tab", "README.md") // out of the editor: ? is a plain key
	e.typeText("?")
	e.node("dialog", "Keyboard shortcuts")
	var rows [][2]string
	e.js(`[...document.querySelectorAll(".keys tr:not(.place)")].map((r) => [r.querySelector("kbd").textContent, r.querySelector("td").textContent])`, &rows)
	bound := map[string]string{}
	for _, r := range rows {
		for _, k := range strings.Split(r[0], ", ") {
			if other, dup := bound[k]; dup {
				t.Errorf("%s is listed for both %q and %q", k, other, r[1])
			}
			bound[k] = r[1]
		}
	}
	if !strings.Contains(bound["F12"], "Go to definition") || !strings.Contains(bound["Ctrl+Shift+M"], "Problems") {
		t.Errorf("the shortcuts list: F12 %q, Ctrl+Shift+M %q", bound["F12"], bound["Ctrl+Shift+M"])
	}
	e.key(kb.Escape)
	e.gone("dialog", "Keyboard shortcuts")

	// Ctrl+Shift+M opens the Problems panel and closes it again.
	e.key("m", ctrlShift...)
	e.waitJS(`document.querySelector(".problems-toggle").getAttribute("aria-expanded") === "true"`, "the Problems panel open")
	e.key("m", ctrlShift...)
	e.waitJS(`document.querySelector(".problems-toggle").getAttribute("aria-expanded") === "false"`, "the Problems panel closed")
}
