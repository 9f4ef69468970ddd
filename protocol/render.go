package protocol

// The text block of a result is written for a model (docs/contract.md §8):
// numbered lines for a file, path:line:col for a search, a patch for a
// change, a porcelain-like status; structuredContent stays the exact
// response object. Each renderer is keyed by function id; a function
// without one gets a compact key: value rendering (render_fallback.go).
//
// Budget: no text block is over textBudget. A renderer that has more to
// show stops at a whole line and says what it left out (a count) and which
// argument gets the rest. Render cuts anything still over the budget, so a
// renderer's mistake costs a cut, never a flood.
//
// Names: advice a renderer writes names functions through a namer, which
// speaks the caller's names (tool names over MCP, function ids on the CLI).
// Data (file lines, paths, patches) is never renamed.

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// textBudget is the most a text block holds: about 8k tokens, well under
// what clients keep of a tool result.
const textBudget = 32 << 10

// trailerRoom is kept free for the note that says what was cut.
const trailerRoom = 1 << 10

// namer turns a function id into the name the caller uses for it.
type namer func(id string) string

// FunctionIDs is the namer of the CLI: function ids as they are.
func FunctionIDs(id string) string { return id }

// renderers maps function ids to their text renderings.
var renderers = map[string]func(r *rend, resp any) bool{}

// typed is a renderer of one response type as an entry of renderers.
func typed[T any](f func(r *rend, resp *T) bool) func(r *rend, resp any) bool {
	return func(r *rend, resp any) bool { return f(r, resp.(*T)) }
}

// rend accumulates one text block within the budget.
type rend struct {
	b     strings.Builder
	name  namer
	limit int  // bytes for lines; trailerRoom more for the closing note
	full  bool // a line did not fit
}

// RenderText is the text block of function id's response resp. name is
// how advice names functions (ToolName over MCP, FunctionIDs on the CLI).
func RenderText(id string, resp any, name namer) string {
	r := &rend{name: name, limit: textBudget - trailerRoom}
	if f, ok := renderers[id]; !ok || !f(r, resp) {
		r.b.Reset()
		r.full = false
		renderFallback(r, resp)
	}
	return capText(r.b.String())
}

// line adds s and a newline when it fits the budget; once one line does
// not fit, none is added any more.
func (r *rend) line(s string) bool {
	if r.full || r.b.Len()+len(s)+1 > r.limit {
		r.full = true
		return false
	}
	r.b.WriteString(s)
	r.b.WriteByte('\n')
	return true
}

func (r *rend) linef(format string, args ...any) bool { return r.line(fmt.Sprintf(format, args...)) }

// note adds a closing line (what was cut and how to get it) from the room
// kept for it.
func (r *rend) note(format string, args ...any) {
	s := fmt.Sprintf(format, args...)
	if len(s) > trailerRoom-1 {
		s = cutString(s, trailerRoom-2) + "…"
	}
	r.b.WriteString(s)
	r.b.WriteByte('\n')
}

// budgetCut notes that n more items (what: "references") of a list the
// structured content holds whole were not shown for the text budget.
func (r *rend) budgetCut(n int, what string) {
	r.note("… %d more %s not shown (the %d KiB text budget); the structured content has them", n, what, textBudget>>10)
}

// room is what is left of the budget for lines.
func (r *rend) room() int { return r.limit - r.b.Len() }

// capText cuts a text over the budget at a line boundary and says so.
func capText(s string) string {
	if len(s) <= textBudget {
		return s
	}
	cut := cutString(s, textBudget-trailerRoom)
	if i := strings.LastIndexByte(cut, '\n'); i > 0 {
		cut = cut[:i+1]
	}
	return cut + fmt.Sprintf("… %d more bytes not shown (the %d KiB text budget); the structured content has all of it\n", len(s)-len(cut), textBudget>>10)
}

// cutString is s cut to at most n bytes on a UTF-8 boundary.
func cutString(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
