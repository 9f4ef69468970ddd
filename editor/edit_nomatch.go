package editor

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The no_match message of editor::edit: where the text the model sent comes
// closest to the file, and what differs (whitespace, letter case, line
// endings, or the text itself), so that one retry can fix the call.
//
// The file and old_text are compared line by line on a loose key (letter
// case folded, runs of spaces and tabs collapsed, a trailing "\r" and
// trailing blanks dropped). The longest lines of old_text are the anchors:
// every file line whose key holds an anchor's key proposes a place for the
// whole of old_text, and the place where most of its lines agree wins.
// Each line there is then compared exactly, and the first lines that differ
// are described. With no anchor found, the file line most like old_text's
// longest line (by shared character pairs) is offered instead.

const (
	nmAnchors    = 3   // old_text lines tried as anchors
	nmCandidates = 200 // places considered per anchor
	nmShown      = 3   // differing lines described
	nmWidth      = 160 // longest line quoted
)

func noMatchMessage(content, old string, i, count int, l loc) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s was not found in %s; nothing was written.", editName(i, count), display(l.stored))
	file := strings.Split(content, "\n")
	want := strings.Split(old, "\n")
	if start, ok := closestPlace(file, want); ok {
		describePlace(&b, file, want, start)
	} else if n, ok := mostLike(file, want); ok {
		fmt.Fprintf(&b, " No place matches closely; the most similar line is %d:\n%s", n+1, numbered(n, file[n]))
	} else {
		b.WriteString(" Nothing in the file resembles it.")
	}
	b.WriteString("\nCopy the text exactly as editor::open shows it (offset/limit read just those lines) and try again.")
	return b.String()
}

// looseKey is the comparison key of a line: case folded, blanks collapsed,
// the line ending and surrounding blanks dropped.
func looseKey(s string) string {
	s = strings.TrimRight(s, " \t\r")
	var b strings.Builder
	space := false
	for _, r := range strings.TrimLeft(s, " \t") {
		if r == ' ' || r == '\t' {
			space = true
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteString(strings.ToLower(string(r)))
	}
	return b.String()
}

// closestPlace is the file line (0-based) where old_text's lines agree most
// with the file's, by loose key.
func closestPlace(file, want []string) (int, bool) {
	keys := make([]string, len(want))
	var order []int
	for k, w := range want {
		keys[k] = looseKey(w)
		if keys[k] != "" {
			order = append(order, k)
		}
	}
	if len(order) == 0 {
		return 0, false
	}
	sort.SliceStable(order, func(a, b int) bool { return len(keys[order[a]]) > len(keys[order[b]]) })
	order = order[:min(len(order), nmAnchors)]
	fileKeys := make([]string, len(file))
	for n, f := range file {
		fileKeys[n] = looseKey(f)
	}
	best, bestScore := 0, 0
	tried := map[int]bool{}
	for _, k := range order {
		found := 0
		for n := range file {
			if found >= nmCandidates {
				break
			}
			if !strings.Contains(fileKeys[n], keys[k]) {
				continue
			}
			found++
			start := n - k
			if tried[start] {
				continue
			}
			tried[start] = true
			score := 0
			for j := range keys {
				if f := start + j; f >= 0 && f < len(file) && keys[j] != "" && strings.Contains(fileKeys[f], keys[j]) {
					score++
				}
			}
			if score > bestScore {
				best, bestScore = start, score
			}
		}
	}
	return best, bestScore > 0
}

// describePlace says how old_text's lines differ from the file's lines at
// start (0-based; old_text's first line may be the end of a file line and
// its last line the beginning of one).
func describePlace(b *strings.Builder, file, want []string, start int) {
	first := max(start, 0)
	last := min(start+len(want), len(file)) - 1
	if first == last {
		fmt.Fprintf(b, " Closest: line %d.", first+1)
	} else {
		fmt.Fprintf(b, " Closest: lines %d–%d.", first+1, last+1)
	}
	shown := 0
	for j, w := range want {
		n := start + j
		if n < 0 || n >= len(file) {
			continue
		}
		what := lineDiffers(w, file[n], j, len(want))
		if what == "" {
			continue
		}
		if shown == nmShown {
			b.WriteString("\n…and more lines differ.")
			break
		}
		shown++
		fmt.Fprintf(b, "\nLine %d differs in %s. The file has:\n%s\nold_text has:\n%s", n+1, what, numbered(n, file[n]), "      \t"+quoteLine(w))
	}
	if shown == 0 {
		// Every line agrees on its own: what differs is how they join.
		switch {
		case start+len(want) > len(file):
			fmt.Fprintf(b, " old_text runs past the end of the file (it has %d lines; a final newline may be missing).", len(file))
		default:
			b.WriteString(" Each line matches, so what differs is the line endings between them (the file mixes \\n and \\r\\n).")
		}
	}
}

// lineDiffers describes how old_text's line w (line j of n) differs from
// the file's line have, or "" when it matches there.
func lineDiffers(w, have string, j, n int) string {
	ok := func(w, have string) bool {
		switch {
		case n == 1:
			return strings.Contains(have, w)
		case j == 0:
			return strings.HasSuffix(have, w)
		case j == n-1:
			return strings.HasPrefix(have, w)
		}
		return have == w
	}
	if ok(w, have) {
		return ""
	}
	wt, ht := strings.TrimSuffix(w, "\r"), strings.TrimSuffix(have, "\r")
	if ok(wt, ht) {
		if len(ht) < len(have) {
			return "line endings: the file's line ends with \\r\\n, old_text's with \\n"
		}
		return "line endings: old_text's line ends with \\r\\n, the file's with \\n"
	}
	if ok(strings.ToLower(wt), strings.ToLower(ht)) {
		return "letter case"
	}
	wi, hi := indent(wt), indent(ht)
	if wi != hi && ok(strings.TrimLeft(wt, " \t"), strings.TrimLeft(ht, " \t")) {
		return fmt.Sprintf("indentation: the file has %s, old_text %s", blanks(hi), blanks(wi))
	}
	if ok(strings.TrimRight(wt, " \t"), strings.TrimRight(ht, " \t")) || ok(wt, strings.TrimRight(ht, " \t")) {
		return "trailing spaces or tabs"
	}
	if looseKey(wt) == looseKey(ht) || strings.Contains(looseKey(ht), looseKey(wt)) {
		return "whitespace (spaces or tabs inside the line)"
	}
	return "text"
}

func indent(s string) string { return s[:len(s)-len(strings.TrimLeft(s, " \t"))] }

// blanks names a run of indentation: "1 tab", "4 spaces", "none".
func blanks(s string) string {
	if s == "" {
		return "none"
	}
	tabs := strings.Count(s, "\t")
	spaces := len(s) - tabs
	var parts []string
	if tabs > 0 {
		parts = append(parts, plural(tabs, "tab", "tabs"))
	}
	if spaces > 0 {
		parts = append(parts, plural(spaces, "space", "spaces"))
	}
	return strings.Join(parts, " + ")
}

// plural counts n things: "1 tab", "2 branches".
func plural(n int, one, many string) string {
	w := many
	if n == 1 {
		w = one
	}
	return strconv.Itoa(n) + " " + w
}

// numbered renders file line n (0-based) the way editor::open's text does.
func numbered(n int, line string) string {
	return fmt.Sprintf("%6d\t%s", n+1, quoteLine(line))
}

// quoteLine shows a line as it is, cut to nmWidth bytes, with a trailing
// "\r" spelled out (it would be invisible).
func quoteLine(s string) string {
	cr := strings.HasSuffix(s, "\r")
	s = strings.TrimSuffix(s, "\r")
	if len(s) > nmWidth {
		cut := nmWidth
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	if cr {
		s += `\r`
	}
	return s
}

// mostLike is the file line most like old_text's longest line, by the
// Dice coefficient of their character pairs, when it shares at least half.
func mostLike(file, want []string) (int, bool) {
	longest := ""
	for _, w := range want {
		if k := looseKey(w); len(k) > len(longest) {
			longest = k
		}
	}
	if len(longest) < 2 {
		return 0, false
	}
	wp := pairs(longest)
	best, bestScore := 0, 0.0
	for n, f := range file {
		k := looseKey(f)
		if len(k) < 2 {
			continue
		}
		fp := pairs(k)
		common := 0
		for p, c := range wp {
			common += min(c, fp[p])
		}
		score := 2 * float64(common) / float64(len(longest)-1+len(k)-1)
		if score > bestScore {
			best, bestScore = n, score
		}
	}
	return best, bestScore >= 0.5
}

func pairs(s string) map[string]int {
	m := make(map[string]int, len(s))
	for i := 0; i+2 <= len(s); i++ {
		m[s[i:i+2]]++
	}
	return m
}
