package diff

import "unsafe"

// Every patch, count, merge and blame of editord comes from one line diff:
// git's own (xdiff.go: Myers with git's preparation, cleanup, cost cut-offs
// and sliding of changed groups; xhistogram.go: the histogram diff git's
// merges use), so that what editord shows and merges equals what git
// shows and merges, line for line. This file is its surface for gitops;
// Unified and Counts are the surface for everyone else.

// ScriptOptions are the choices of git's diff that change a script.
type ScriptOptions struct {
	Histogram       bool // git's histogram diff (what its merges use), not Myers
	IndentHeuristic bool // slide changed groups as git diff does by default
}

// Records cuts data into lines, each keeping its "\n" (a last line may
// lack one). Records are views of data.
func Records(data []byte) [][]byte { return splitRecords(data) }

// Script is git's edit script turning the records a into b, in order.
func Script(a, b [][]byte, opt ScriptOptions) []Change {
	o := xdiffOptions{indentHeuristic: opt.IndentHeuristic}
	if opt.Histogram {
		return xbuildScript(xdiffFilesHistogram(a, b, o))
	}
	return xbuildScript(xdiffFiles(a, b, o))
}

// Run is a stretch of unchanged lines: the new text's lines [New, New+N)
// are the old text's lines [Old, Old+N) (0-based).
type Run struct{ New, Old, N int }

// Unchanged is what git blame sees between two versions of a file: the
// new text's unchanged stretches in order, and its number of lines.
func Unchanged(old, new []byte) ([]Run, int) { return xsames(old, new) }

// NumStat is git diff --numstat's count of lines added and removed
// between two versions of a file, however long git's search takes.
func NumStat(old, new []byte) (added, removed int) {
	removed, added = xcountChanges(old, new, 0)
	return added, removed
}

// scriptBudget bounds the work of the search behind Unified and Counts,
// which answer people and models, not git: past it, every line between
// the texts' common ends counts as changed (one replacement). A step (a
// diagonal visited or a line followed along one) costs about 5 ns on the
// 2-core machine measured: a 1 MiB file with 2,000 of its 25,000 lines
// edited takes 360,000 steps, with 20,000 edited 1.7 million; a 1 MiB
// file rewritten with unrelated lines takes 150 million (0.74 s), and a
// 2 MiB one four times that. The budget is about 0.1 s.
// A variable so that tests can force the replacement on small texts.
var scriptBudget = 20_000_000

// bytesOf views s as bytes, which are only read: the diff never writes
// the texts it compares.
func bytesOf(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }
