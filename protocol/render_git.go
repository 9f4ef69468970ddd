package protocol

import (
	"fmt"
	"sort"
	"strings"

	"github.com/editord/editord/editor"
)

// Renderings of git status and hunks, the change journal, and the
// functions that answer with the tab set after changing files.

func init() {
	renderers["editor::git::status"] = typed(renderStatus)
	renderers["editor::git::hunks"] = typed(renderHunks)
	renderers["editor::changes"] = typed(renderChanges)
	renderers["editor::move"] = func(r *rend, v any) bool {
		o := v.(*editor.MoveResponse)
		r.linef("moved %s -> %s (%s remapped; %s open)", o.From, o.To, plural(o.Remapped, "buffer or folder", "buffers and folders"), plural(len(o.Buffers), "buffer", "buffers"))
		return true
	}
	renderers["editor::delete"] = func(r *rend, v any) bool {
		o := v.(*editor.DeleteResponse)
		r.linef("deleted %s (%s closed; %s open)", o.Path, plural(len(o.BuffersClosed), "buffer", "buffers"), plural(len(o.Buffers), "buffer", "buffers"))
		return true
	}
	renderers["editor::buffers::close"] = func(r *rend, v any) bool {
		o := v.(*editor.BuffersCloseResponse)
		if !o.Closed {
			r.line("no buffer was open at that path")
		} else {
			r.line("closed")
		}
		return renderTabs(r, o.Buffers, 0)
	}
}

// porcelain is git status's letter for a change word.
var porcelain = map[string]string{
	"modified": "M", "added": "A", "deleted": "D", "renamed": "R", "copied": "C",
	"typechange": "T", "untracked": "?", "ignored": "!", "conflicted": "U", "unchanged": " ",
}

func renderStatus(r *rend, o *editor.GitStatusResponse) bool {
	head := "## HEAD (no branch)"
	if o.Branch != nil {
		head = "## " + *o.Branch
	}
	if o.Upstream != nil {
		head += "..." + *o.Upstream
		var ab []string
		if o.Ahead > 0 {
			ab = append(ab, fmt.Sprintf("ahead %d", o.Ahead))
		}
		if o.Behind > 0 {
			ab = append(ab, fmt.Sprintf("behind %d", o.Behind))
		}
		if len(ab) > 0 {
			head += " [" + strings.Join(ab, ", ") + "]"
		}
	}
	r.line(head)
	if o.Clean {
		r.line("(clean)")
		return true
	}
	for i, e := range o.Entries {
		x, y := porcelain[e.Index], porcelain[e.Worktree]
		if x == "" {
			x = "?"
		}
		if y == "" {
			y = "?"
		}
		line := x + y + " " + e.Path
		if e.RenamedFrom != nil {
			line = x + y + " " + *e.RenamedFrom + " -> " + e.Path
		}
		if !r.line(line) {
			r.note("… %d more changed paths not shown (the %d KiB text budget), by folder: %s", len(o.Entries)-i, textBudget>>10, byFolder(o.Entries[i:]))
			return true
		}
	}
	return true
}

func renderHunks(r *rend, o *editor.GitHunksResponse) bool {
	if o.Files != nil {
		renderReview(r, o)
		return true
	}
	switch {
	case o.Untracked:
		r.linef("%s is untracked: the whole file is new (read it with %s)", o.Path, r.name("editor::open"))
	case o.Patch == "":
		r.linef("%s: no changes against %s", o.Path, o.Against)
	default:
		patchLines(r, o.Patch)
	}
	return true
}

// renderChanges writes one "seq by kind path +a -r" line per event, each
// followed by its patch while the budget lasts; past it, events keep their
// line and lose their patch, and the note counts them.
func renderChanges(r *rend, o *editor.ChangesResponse) bool {
	if o.Reset {
		r.line("(events after your cursor were dropped from the journal: re-read the files you care about)")
	}
	if len(o.Changes) == 0 {
		r.line("no changes")
	}
	// Keep room for every event's own line, so the list is complete
	// whatever the patches cost.
	heads := make([]string, len(o.Changes))
	need := 0
	for i, ev := range o.Changes {
		path := ev.Path
		if ev.From != nil {
			path = *ev.From + " -> " + ev.Path
		}
		who := ev.By
		if who != "" && who == o.You {
			who += " (you)"
		}
		heads[i] = fmt.Sprintf("%d %s %s %s +%d -%d", ev.Seq, who, ev.Kind, path, ev.Added, ev.Removed)
		need += len(heads[i]) + 1
	}
	noPatch, cut := 0, -1
	for i, ev := range o.Changes {
		if !r.line(heads[i]) {
			cut = i
			break
		}
		need -= len(heads[i]) + 1
		if ev.Patch == "" {
			continue
		}
		if len(ev.Patch)+need > r.room() {
			noPatch++
			continue
		}
		r.b.WriteString(ev.Patch)
		if !strings.HasSuffix(ev.Patch, "\n") {
			r.b.WriteByte('\n')
		}
		if ev.Truncated {
			r.line(fmt.Sprintf("… patch cut at event_patch_bytes; %s has all of it", r.name("editor::git::hunks")))
		}
	}
	if cut >= 0 {
		r.note("… %d more events not shown (the %d KiB text budget); pass since: %d to read on", len(o.Changes)-cut, textBudget>>10, o.Changes[cut-1].Seq)
		return true
	}
	if noPatch > 0 {
		r.note("… the patches of %s are left out (the %d KiB text budget); %s gives one file's diff", plural(noPatch, "event", "events"), textBudget>>10, r.name("editor::git::hunks"))
	}
	if o.More > 0 {
		r.note("… %s after these (limit); call %s with since: %s for them", plural(o.More, "more event", "more events"), r.name("editor::changes"), o.Cursor)
		return true
	}
	r.note("cursor: %s (pass it as since next time)", o.Cursor)
	return true
}

// byFolder summarizes paths left out of a listing by folder, the biggest
// groups first: "src/app (120), docs (3), …". The folders are taken as deep
// as it takes to tell five groups apart (at most six levels).
func byFolder(es []editor.GitStatusEntry) string {
	group := func(depth int) map[string]int {
		count := map[string]int{}
		for _, e := range es {
			key := "."
			if i := strings.LastIndexByte(e.Path, '/'); i > 0 {
				parts := strings.Split(e.Path[:i], "/")
				key = strings.Join(parts[:min(depth, len(parts))], "/")
			}
			count[key]++
		}
		return count
	}
	count := group(1)
	for d := 2; d <= 6 && len(count) < 5; d++ {
		count = group(d)
	}
	keys := make([]string, 0, len(count))
	for k := range count {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if count[keys[i]] != count[keys[j]] {
			return count[keys[i]] > count[keys[j]]
		}
		return keys[i] < keys[j]
	})
	var parts []string
	for i, k := range keys {
		if i == 20 {
			parts = append(parts, fmt.Sprintf("and %d more folders", len(keys)-i))
			break
		}
		parts = append(parts, fmt.Sprintf("%s/ (%d)", k, count[k]))
	}
	return strings.Join(parts, ", ")
}
