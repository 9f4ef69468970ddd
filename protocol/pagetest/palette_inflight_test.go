package pagetest

import (
	"slices"
	"testing"

	"github.com/chromedp/cdproto/input"
)

// holdFinds wraps the page's fetch (the MCP SDK looks it up per request)
// so that every editor_find is recorded in window.__finds and held until
// window.__release() while window.__hold is set. Holding at the
// browser's network layer (the Fetch domain) missed requests now and then.
const holdFinds = `(() => {
  window.__finds = []; window.__held = []; window.__hold = true;
  const orig = window.fetch.bind(window);
  window.fetch = (input, init) => {
    let msg = null;
    try { msg = JSON.parse(typeof init?.body === "string" ? init.body : ""); } catch {}
    if (msg?.method === "tools/call" && msg.params?.name === "editor_find") {
      window.__finds.push(msg.params.arguments.query);
      if (window.__hold) return new Promise((resolve) => window.__held.push(() => resolve(orig(input, init))));
    }
    return orig(input, init);
  };
  window.__release = () => { window.__hold = false; window.__held.splice(0).forEach((go) => go()); };
  return true;
})()`

// The palette keeps one editor_find in flight: keys typed while it runs
// send no find of their own, and the answer they overtook is dropped for
// one of the whole text. Before, every key sent its own find (five for
// "greet"), which on a loaded server made every answer later.
func TestPaletteOneFindInFlight(t *testing.T) {
	e := newEnv(t, shotFiles, opts{})
	var ok bool
	e.js(holdFinds, &ok)
	e.key("p", input.ModifierCtrl)
	e.node("dialog", "Go to file")
	e.waitJS(`document.activeElement?.getAttribute("role") === "combobox"`, "the palette's input to have the focus")
	// The first key's find is held before the others are typed (typed at
	// once, a loaded page may read all five keys before its first find).
	e.typeText("g")
	e.waitJS(`window.__held.length >= 1`, "the first find to be held")
	e.typeText("reet")
	e.waitJS(`document.querySelector("[role=combobox]").value === "greet"`, "the other four keys typed")
	// A find the keys wrongly sent would be recorded at once, while the
	// page handled them.
	e.settle()
	var finds []string
	e.js(`window.__finds`, &finds)
	if !slices.Equal(finds, []string{"g"}) {
		t.Errorf("finds sent while the first was in flight: %q, want only [g]", finds)
	}
	e.js(`window.__release(), true`, &ok)
	e.waitJS(`[...document.querySelectorAll("[role=option] mark")].map(m => m.textContent).join("") === "greet"`, "the answer for the whole text")
	e.js(`window.__finds`, &finds)
	if !slices.Equal(finds, []string{"g", "greet"}) {
		t.Errorf("finds sent: %q, want [g greet] (the answer to g dropped for one of the whole text)", finds)
	}
}
