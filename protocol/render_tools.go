package protocol

import "github.com/editord/editord/editor"

func init() {
	renderers["editor::tools"] = typed(renderTools)
}

// renderTools lists each toolset, whether the caller's list holds it, and
// its tools.
func renderTools(r *rend, o *editor.ToolsResponse) bool {
	if len(o.Toolsets) == 0 {
		r.line("no toolsets")
	}
	for _, ts := range o.Toolsets {
		mark := "not listed"
		if ts.Listed {
			mark = "listed"
		}
		r.linef("%s (%s): %s", ts.Name, mark, ts.Description)
		r.line("  " + ts.Functions)
	}
	if o.Note != "" {
		r.line(o.Note)
	}
	return true
}
