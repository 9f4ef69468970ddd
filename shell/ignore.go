package shell

import (
	"strings"
	"unicode/utf8"
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
	return r, true
}

// trimTrailingSpaces drops unescaped trailing spaces, as git does.
func trimTrailingSpaces(s string) string {
	for strings.HasSuffix(s, " ") && !strings.HasSuffix(s, `\ `) {
		s = s[:len(s)-1]
	}
	if strings.HasSuffix(s, `\ `) {
		s = s[:len(s)-2] + " "
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
	if p == nil {
		return false, false
	}
	name := rel
	if i := strings.LastIndexByte(rel, '/'); i >= 0 {
		name = rel[i+1:]
	}
	for i := len(p.rules) - 1; i >= 0; i-- {
		r := &p.rules[i]
		if r.dirOnly && !isDir {
			continue
		}
		var ok bool
		if r.anchored {
			ok = matchSegs(r.segs, splitPath(rel))
		} else {
			ok = matchSegment(r.segs[0], name)
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
	for i := 0; i < len(rel); i++ {
		if rel[i] == '/' {
			if m, ex := p.Decide(rel[:i], true); m && ex {
				return true
			}
		}
	}
	m, ex := p.Decide(rel, isDir)
	return m && ex
}

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

// matchSegment is fnmatch for one path segment: "*", "?", "[...]" with
// ranges and "!"/"^" negation, and "\" escapes. A "**" inside a segment
// (not a whole segment) behaves like "*".
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
					_, size := decodeRune(name[nx:])
					px++
					nx += size
					continue
				}
			case '[':
				if nx < len(name) {
					r, size := decodeRune(name[nx:])
					if ok, end, valid := matchClass(pat[px:], r); valid {
						if ok {
							px += end
							nx += size
							continue
						}
					} else if name[nx] == '[' {
						px++
						nx++
						continue
					}
				}
			case '\\':
				if px+1 < len(pat) && nx < len(name) && pat[px+1] == name[nx] {
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
			_, size := decodeRune(name[starNx:])
			starNx += size
			px, nx = starPx+1, starNx
			continue
		}
		return false
	}
	return true
}

// matchClass matches r against the bracket expression at the start of pat.
// It returns whether r matched, the length of the expression, and whether
// the expression was well formed.
func matchClass(pat string, r rune) (matched bool, end int, valid bool) {
	i := 1
	negate := false
	if i < len(pat) && (pat[i] == '!' || pat[i] == '^') {
		negate = true
		i++
	}
	first := true
	for i < len(pat) {
		if pat[i] == ']' && !first {
			return matched != negate, i + 1, true
		}
		first = false
		lo, size := classChar(pat[i:])
		if size == 0 {
			return false, 0, false
		}
		i += size
		hi := lo
		if i+1 < len(pat) && pat[i] == '-' && pat[i+1] != ']' {
			h, s2 := classChar(pat[i+1:])
			if s2 == 0 {
				return false, 0, false
			}
			hi = h
			i += 1 + s2
		}
		if lo <= r && r <= hi {
			matched = true
		}
	}
	return false, 0, false
}

func classChar(s string) (rune, int) {
	if s == "" {
		return 0, 0
	}
	if s[0] == '\\' {
		if len(s) < 2 {
			return 0, 0
		}
		r, n := decodeRune(s[1:])
		return r, n + 1
	}
	return decodeRune(s)
}


func decodeRune(s string) (rune, int) {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 {
		return 0, 1
	}
	return r, n
}
