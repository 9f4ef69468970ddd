package pagetest

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// The palette keeps one editor_find in flight: keys typed while it runs
// send no find of their own, and the answer they overtook is dropped for
// one of the whole text. Before, every key sent its own find (five for
// "greet"), which on a loaded server made every answer later.
func TestPaletteOneFindInFlight(t *testing.T) {
	e := newEnv(t, shotFiles, opts{})
	e.key("p", input.ModifierCtrl)
	e.node("dialog", "Go to file")
	e.waitJS(`document.activeElement?.getAttribute("role") === "combobox"`, "the palette's input to have the focus")
	// Hold every editor_find at the browser's network layer until told.
	var mu sync.Mutex
	var finds []string
	var held []fetch.RequestID
	hold := true
	cont := func(id fetch.RequestID) {
		go chromedp.Run(e.ctx, chromedp.ActionFunc(func(ctx context.Context) error {
			return fetch.ContinueRequest(id).Do(ctx)
		}))
	}
	chromedp.ListenTarget(e.ctx, func(ev any) {
		p, ok := ev.(*fetch.EventRequestPaused)
		if !ok {
			return
		}
		var body strings.Builder
		for _, d := range p.Request.PostDataEntries {
			b, _ := base64.StdEncoding.DecodeString(d.Bytes)
			body.Write(b)
		}
		var msg struct {
			Params struct {
				Name      string `json:"name"`
				Arguments struct {
					Query string `json:"query"`
				} `json:"arguments"`
			} `json:"params"`
		}
		if json.Unmarshal([]byte(body.String()), &msg) != nil || msg.Params.Name != "editor_find" {
			cont(p.RequestID)
			return
		}
		mu.Lock()
		finds = append(finds, msg.Params.Arguments.Query)
		if hold {
			held = append(held, p.RequestID)
			mu.Unlock()
			return
		}
		mu.Unlock()
		cont(p.RequestID)
	})
	e.run(fetch.Enable().WithPatterns([]*fetch.RequestPattern{{URLPattern: "*/mcp*", RequestStage: fetch.RequestStageRequest}}))
	// The first key's find is held before the others are typed (typed at
	// once, a loaded page may read all five keys before its first find).
	e.typeText("g")
	waitFor(t, "the first find to be held", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(held) >= 1
	})
	e.typeText("reet")
	e.waitJS(`document.querySelector("[role=combobox]").value === "greet"`, "the other four keys typed")
	// A find the keys wrongly sent would reach the network layer soon
	// after: give it the time to.
	time.Sleep(300 * time.Millisecond)
	mu.Lock()
	if !slices.Equal(finds, []string{"g"}) {
		t.Errorf("finds sent while the first was in flight: %q, want only [g]", finds)
	}
	hold = false
	ids := held
	mu.Unlock()
	for _, id := range ids {
		cont(id)
	}
	e.waitJS(`[...document.querySelectorAll("[role=option] mark")].map(m => m.textContent).join("") === "greet"`, "the answer for the whole text")
	mu.Lock()
	defer mu.Unlock()
	if !slices.Equal(finds, []string{"g", "greet"}) {
		t.Errorf("finds sent: %q, want [g greet] (the answer to g dropped for one of the whole text)", finds)
	}
}
