package search

import (
	"regexp"
	"unicode"
	"unicode/utf8"
)

// template is a replacement template (regexp.Expand's syntax) taken apart
// once, so that the length of each expansion is known without making it:
// Replace measures its result before building it.
type template struct {
	literal int64 // bytes the template inserts as they are
	groups  []int // the group each reference inserts, one entry per reference (-1: none)
}

// parseTemplate reads with as regexp.Expand does: $$ is a "$"; $name and
// ${name} insert a group by number or name (the longest run of letters,
// digits and underscores; a number with a leading zero, or an unknown
// name, inserts nothing); a "$" that starts no reference is itself.
func parseTemplate(with []byte, re *regexp.Regexp) template {
	var t template
	names := re.SubexpNames()
	rest := string(with)
	for {
		i := indexDollar(rest)
		if i < 0 {
			t.literal += int64(len(rest))
			return t
		}
		t.literal += int64(i)
		rest = rest[i+1:]
		if rest != "" && rest[0] == '$' {
			t.literal++
			rest = rest[1:]
			continue
		}
		name, after, ok := refName(rest)
		if !ok {
			t.literal++ // a lone "$"
			continue
		}
		rest = after
		t.groups = append(t.groups, groupIndex(name, names))
	}
}

func indexDollar(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] == '$' {
			return i
		}
	}
	return -1
}

// refName reads the name after a "$": bare or in braces. ok is false when
// there is none (the "$" is then literal).
func refName(s string) (name, rest string, ok bool) {
	brace := len(s) > 0 && s[0] == '{'
	if brace {
		s = s[1:]
	}
	i := 0
	for i < len(s) {
		c, w := utf8.DecodeRuneInString(s[i:])
		if c != '_' && !unicode.IsLetter(c) && !unicode.IsDigit(c) {
			break
		}
		i += w
	}
	if i == 0 {
		return "", "", false
	}
	name = s[:i]
	if brace {
		if i >= len(s) || s[i] != '}' {
			return "", "", false
		}
		i++
	}
	return name, s[i:], true
}

// groupIndex is the group a reference names: a number (no leading zero,
// below 1e8), else the first group of that name; -1 for none.
func groupIndex(name string, names []string) int {
	num := 0
	for i := 0; i < len(name); i++ {
		if name[i] < '0' || name[i] > '9' || num >= 1e8 {
			num = -1
			break
		}
		num = num*10 + int(name[i]-'0')
	}
	if num >= 0 && name[0] == '0' && len(name) > 1 {
		num = -1
	}
	if num >= 0 {
		return num
	}
	for i, n := range names {
		if n == name {
			return i
		}
	}
	return -1
}

// size is the length of the expansion for a match's submatch indexes.
func (t template) size(loc []int) int64 {
	n := t.literal
	for _, g := range t.groups {
		if g >= 0 && 2*g+1 < len(loc) && loc[2*g] >= 0 {
			n += int64(loc[2*g+1] - loc[2*g])
		}
	}
	return n
}
