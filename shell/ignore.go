package shell

import (
	"strings"
)

// Patterns is one list of gitignore-syntax rules (a .gitignore file, or the
// deny globs from config), relative to the folder they were read from.
//
// Semantics follow gitignore(5): a pattern without a slash (other than a
// trailing one) matches a name at any depth; a leading or middle slash
// anchors it to the base folder; a trailing slash matches folders only;
// "**" spans any number of folders; "!" re-includes; the last matching
// pattern wins. A path inside an ignored folder is ignored whatever later
// patterns say, which callers get for free by checking ancestors first.
type Patterns struct {
	rules []rule
}

type rule struct {
	segs     []string // pattern split on "/", "**" kept as its own segment
	anchored bool     // matched against the whole relative path, not the name
	dirOnly  bool
	negate   bool
	name     nameMatch // segs[0] compiled, for an unanchored rule
}

// nameMatch is an unanchored rule's one segment, matched against a file
// name. The common shapes (a literal name, "*.ext", "prefix*", "*") are
// string comparisons; anything else runs the general matcher. A walk of
// 240,000 files asks the deny and ignore rules about every name.
type nameMatch struct {
	kind byte // nameLiteral, nameSuffix, namePrefix, nameAny, nameGlob
	lit  string
}

const (
	nameGlob byte = iota
	nameLiteral
	nameSuffix
	namePrefix
	nameAny
)

func compileName(pat string) nameMatch {
	plain := func(s string) bool { return !strings.ContainsAny(s, "*?[\\") }
	switch {
	case plain(pat):
		return nameMatch{nameLiteral, pat}
	case strings.Trim(pat, "*") == "":
		return nameMatch{kind: nameAny}
	case pat[0] == '*' && plain(pat[1:]):
		return nameMatch{nameSuffix, pat[1:]}
	case pat[len(pat)-1] == '*' && plain(pat[:len(pat)-1]):
		return nameMatch{namePrefix, pat[:len(pat)-1]}
	}
	return nameMatch{nameGlob, pat}
}

func (m nameMatch) match(name string) bool {
	switch m.kind {
	case nameLiteral:
		return name == m.lit
	case nameSuffix:
		return strings.HasSuffix(name, m.lit)
	case namePrefix:
		return strings.HasPrefix(name, m.lit)
	case nameAny:
		return true
	}
	return matchSegment(m.lit, name)
}

// ParsePatterns reads gitignore-syntax lines. Blank lines and comments are
// skipped; a backslash escapes a leading "#" or "!" and trailing spaces.
func ParsePatterns(lines []string) *Patterns {
	p := &Patterns{}
	for _, line := range lines {
		if r, ok := parseRule(line); ok {
			p.rules = append(p.rules, r)
		}
	}
	return p
}

// ParseIgnoreFile parses the content of a .gitignore file.
func ParseIgnoreFile(content []byte) *Patterns {
	return ParsePatterns(strings.Split(string(content), "\n"))
}

func parseRule(line string) (rule, bool) {
	line = strings.TrimSuffix(line, "\r")
	line = trimTrailingSpaces(line)
	if line == "" || strings.HasPrefix(line, "#") {
		return rule{}, false
	}
	var r rule
	if strings.HasPrefix(line, "!") {
		r.negate = true
		line = line[1:]
	} else if strings.HasPrefix(line, `\!`) || strings.HasPrefix(line, `\#`) {
		line = line[1:]
	}
	if strings.HasSuffix(line, "/") {
		r.dirOnly = true
		line = strings.TrimRight(line, "/")
	}
	if line == "" {
		return rule{}, false
	}
	if strings.Contains(line, "/") {
		r.anchored = true
		line = strings.TrimLeft(line, "/")
	}
	r.segs = strings.Split(line, "/")
	if !r.anchored {
		r.name = compileName(r.segs[0])
	}
	return r, true
}

// trimTrailingSpaces drops unescaped trailing spaces exactly as git's
// trim_trailing_spaces does: a backslash escapes the next byte (so `a\ `
// keeps the space and `a\\ ` loses it). Escapes stay in the pattern; the
// matcher reads them.
func trimTrailingSpaces(s string) string {
	lastSpace := -1
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ':
			if lastSpace < 0 {
				lastSpace = i
			}
		case '\\':
			i++
			if i >= len(s) {
				return s
			}
			lastSpace = -1
		default:
			lastSpace = -1
		}
	}
	if lastSpace >= 0 {
		return s[:lastSpace]
	}
	return s
}

// Len reports how many rules there are.
func (p *Patterns) Len() int {
	if p == nil {
		return 0
	}
	return len(p.rules)
}

// Decide reports whether rel (relative to the patterns' folder, "/"-separated)
// is matched, and if so whether it is excluded (true) or re-included (false).
// It looks at rel alone, not its ancestors.
func (p *Patterns) Decide(rel string, isDir bool) (matched, excluded bool) {
	if p == nil || rel == "" {
		return false, false
	}
	return p.decideSegs(splitPath(rel), isDir)
}

// decideSegs is Decide for a path already split into its segments.
func (p *Patterns) decideSegs(segs []string, isDir bool) (matched, excluded bool) {
	name := segs[len(segs)-1]
	for i := len(p.rules) - 1; i >= 0; i-- {
		r := &p.rules[i]
		if r.dirOnly && !isDir {
			continue
		}
		var ok bool
		if r.anchored {
			ok = matchSegs(r.segs, segs)
		} else {
			ok = r.name.match(name)
		}
		if ok {
			return true, !r.negate
		}
	}
	return false, false
}

// Excludes reports whether rel or any folder above it is excluded, which is
// the check for a single path outside a walk.
func (p *Patterns) Excludes(rel string, isDir bool) bool {
	if p == nil || rel == "" || rel == "." {
		return false
	}
	// Every ancestor is a prefix of rel's segments. Matching each prefix
	// from scratch cost O(n²) per call for a path n folders deep (and a
	// tree of a 1,000-level chain, O(n³): 30 s and 1 GB), so the anchored
	// rules run as automata fed one segment at a time: O(n) per rule.
	segs := splitPath(rel)
	states := make([]segState, len(p.rules))
	for i := range p.rules {
		if p.rules[i].anchored {
			states[i] = newSegState(p.rules[i].segs)
		}
	}
	for i, seg := range segs {
		for k := range p.rules {
			if p.rules[k].anchored {
				states[k].step(p.rules[k].segs, seg)
			}
		}
		dir := isDir || i < len(segs)-1
		for k := len(p.rules) - 1; k >= 0; k-- {
			r := &p.rules[k]
			if r.dirOnly && !dir {
				continue
			}
			var ok bool
			if r.anchored {
				ok = states[k].accepts(len(r.segs))
			} else {
				ok = r.name.match(seg)
			}
			if ok {
				if !r.negate {
					return true // this prefix is excluded, and so all beneath it
				}
				break // re-included at this level; deeper levels decide again
			}
		}
	}
	return false
}

// segState runs matchSegs incrementally: the set of pattern positions
// reachable after the path segments fed so far (position len(pat) means
// the whole pattern matched). A "**" inside the pattern matches zero or
// more segments, a trailing one one or more, exactly as matchSegs does.
// at and next are swapped on every step, so feeding a path costs no
// allocation per segment.
type segState struct{ at, next []bool }

func newSegState(pat []string) segState {
	buf := make([]bool, 2*(len(pat)+1))
	s := segState{at: buf[:len(pat)+1], next: buf[len(pat)+1:]}
	s.at[0] = true
	s.closure(pat)
	return s
}

// closure lets every inner "**" match nothing.
func (s *segState) closure(pat []string) {
	for j := 0; j < len(pat)-1; j++ {
		if s.at[j] && pat[j] == "**" {
			s.at[j+1] = true
		}
	}
}

func (s *segState) step(pat []string, seg string) {
	next := s.next
	clear(next)
	for j := range pat {
		if !s.at[j] {
			continue
		}
		if pat[j] == "**" {
			next[j] = true // and it may go on matching
			if j == len(pat)-1 {
				next[j+1] = true // a trailing "**" has matched one segment
			}
		} else if matchSegment(pat[j], seg) {
			next[j+1] = true
		}
	}
	s.at, s.next = next, s.at
	s.closure(pat)
}

func (s *segState) accepts(n int) bool { return s.at[n] }

func splitPath(rel string) []string {
	if rel == "" {
		return nil
	}
	return strings.Split(rel, "/")
}

// matchSegs matches pattern segments against path segments; "**" matches
// zero or more whole segments, except that a trailing "**" needs at least
// one ("a/**" is everything inside a, not a itself).
func matchSegs(pat, path []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			rest := pat[1:]
			if len(rest) == 0 {
				return len(path) > 0
			}
			for i := 0; i <= len(path); i++ {
				if matchSegs(rest, path[i:]) {
					return true
				}
			}
			return false
		}
		if len(path) == 0 || !matchSegment(pat[0], path[0]) {
			return false
		}
		pat, path = pat[1:], path[1:]
	}
	return len(path) == 0
}

// matchSegment is git's wildmatch for one path segment: "*", "?", "[...]"
// and backslash escapes, byte by byte as git does ("?" is one byte, so it does
// not match a two-byte "é"). A "**" inside a segment (not a whole segment)
// behaves like "*". A malformed bracket expression or a trailing backslash
// matches nothing, as in git.
func matchSegment(pat, name string) bool {
	px, nx := 0, 0
	starPx, starNx := -1, -1
	for nx < len(name) || px < len(pat) {
		if px < len(pat) {
			switch c := pat[px]; c {
			case '*':
				starPx, starNx = px, nx
				px++
				continue
			case '?':
				if nx < len(name) {
					px++
					nx++
					continue
				}
			case '[':
				if nx < len(name) {
					ok, end, valid := matchClass(pat[px:], name[nx])
					if !valid {
						return false
					}
					if ok {
						px += end
						nx++
						continue
					}
				}
			case '\\':
				if px+1 >= len(pat) {
					return false
				}
				if nx < len(name) && pat[px+1] == name[nx] {
					px += 2
					nx++
					continue
				}
			default:
				if nx < len(name) && name[nx] == c {
					px++
					nx++
					continue
				}
			}
		}
		if starPx >= 0 && starNx < len(name) {
			starNx++
			px, nx = starPx+1, starNx
			continue
		}
		return false
	}
	return true
}

// matchClass matches the byte c against the bracket expression at the
// start of pat, following git's wildmatch: "!" or "^" negates, a "]" first
// is literal, "a-z" ranges, backslash escapes, and the POSIX classes
// "[:alpha:]" and friends. It returns whether c matched, the length of the
// expression, and whether the expression was well formed.
func matchClass(pat string, c byte) (matched bool, end int, valid bool) {
	p := 1
	if p < len(pat) && (pat[p] == '!' || pat[p] == '^') {
		p++
	}
	negated := p == 2
	var prev byte // the previous literal, 0 after a range or a class
	for {
		if p >= len(pat) {
			return false, 0, false
		}
		ch := pat[p]
		switch {
		case ch == '\\':
			p++
			if p >= len(pat) {
				return false, 0, false
			}
			ch = pat[p]
			if c == ch {
				matched = true
			}
		case ch == '-' && prev != 0 && p+1 < len(pat) && pat[p+1] != ']':
			p++
			hi := pat[p]
			if hi == '\\' {
				p++
				if p >= len(pat) {
					return false, 0, false
				}
				hi = pat[p]
			}
			if prev <= c && c <= hi {
				matched = true
			}
			ch = 0
		case ch == '[' && p+1 < len(pat) && pat[p+1] == ':':
			s := p + 2
			q := s
			for q < len(pat) && pat[q] != ']' {
				q++
			}
			if q >= len(pat) {
				return false, 0, false
			}
			if q-s-1 < 0 || pat[q-1] != ':' {
				// No ":]": the "[" is an ordinary member.
				if c == '[' {
					matched = true
				}
				break
			}
			in, known := posixClass(pat[s:q-1], c)
			if !known {
				return false, 0, false
			}
			if in {
				matched = true
			}
			p = q
			ch = 0
		default:
			if c == ch {
				matched = true
			}
		}
		prev = ch
		p++
		if p >= len(pat) {
			return false, 0, false
		}
		if pat[p] == ']' {
			return matched != negated, p + 1, true
		}
	}
}

// posixClass reports whether c is in the named class (ASCII only, as in
// git) and whether the name is known.
func posixClass(name string, c byte) (in, known bool) {
	isUpper := 'A' <= c && c <= 'Z'
	isLower := 'a' <= c && c <= 'z'
	isDigit := '0' <= c && c <= '9'
	isSpace := c == ' ' || c == '\t' || c == '\n' || c == '\r'
	isPrint := 0x20 <= c && c <= 0x7e
	isAlnum := isUpper || isLower || isDigit
	switch name {
	case "alnum":
		return isAlnum, true
	case "alpha":
		return isUpper || isLower, true
	case "blank":
		return c == ' ' || c == '\t', true
	case "cntrl":
		return c < 0x20 || c == 0x7f, true
	case "digit":
		return isDigit, true
	case "graph":
		return isPrint && !isSpace, true
	case "lower":
		return isLower, true
	case "print":
		return isPrint, true
	case "punct":
		return isPrint && !isAlnum && c != ' ', true
	case "space":
		return isSpace, true
	case "upper":
		return isUpper, true
	case "xdigit":
		return isDigit || ('a' <= c && c <= 'f') || ('A' <= c && c <= 'F'), true
	}
	return false, false
}
