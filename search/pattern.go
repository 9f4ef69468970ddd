package search

// Pattern compilation: one Matcher per editor::search call.
//
// Search is line-oriented, like grep and ripgrep: a hit is one line, and no
// match may span a line break. So the pattern is parsed with RE2 syntax and
// rewritten before it is compiled: "." and every character class lose "\n",
// "^" and "$" match at line boundaries, and a pattern that needs a literal
// line break is refused. The rewritten regexp can then run over a whole file
// at once and every match it finds lies within one line.
//
// Most searches never run the regexp engine:
//   - a pattern that is (or parses to) a plain string is searched with a
//     literal finder: memchr on its rarest byte, then a compare;
//   - an ignore_case ASCII string uses the same finder on both cases of its
//     rarest byte;
//   - any other regexp is reduced to the literals every match must contain
//     (Matcher.pre), and only the lines holding one of them are handed to the
//     regexp.

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode/utf8"

	"github.com/editord/editord/shell"
)

// MatchOptions are the pattern flags of a search.
type MatchOptions struct {
	Literal    bool // the pattern is a plain string, not RE2
	IgnoreCase bool
	WholeWord  bool // matches must start and end at word boundaries (\b)
}

// Matcher finds matching lines in a file's bytes. It is immutable and safe
// for concurrent use.
type Matcher struct {
	lit  *litFinder     // literal fast path (nil: regexp)
	re   *regexp.Regexp // the line-safe regexp; also the fallback of a fold literal
	pre  []*litFinder   // regexp prefilter: every match contains one of these
	word bool           // whole_word, for the literal path
	// special: for case-folded ASCII literals holding k or s, the non-ASCII
	// runes that fold to them (KELVIN SIGN, LONG S). A file holding one is
	// searched with re instead of the ASCII fast path.
	special [][]byte
	src     string // the line-safe regexp's source; "" for a non-UTF-8 literal
}

// maxPatternLen bounds what a caller may send.
const maxPatternLen = 64 << 10

// Compile builds a Matcher. A bad pattern is invalid_argument naming the
// problem.
func Compile(pattern string, opt MatchOptions) (*Matcher, error) {
	if pattern == "" {
		return nil, invalidf("pattern is empty; pass the text or RE2 regular expression to look for, e.g. \"TODO\"")
	}
	if len(pattern) > maxPatternLen {
		return nil, invalidf("pattern is %d bytes; the limit is %d", len(pattern), maxPatternLen)
	}
	if strings.IndexByte(pattern, '\n') >= 0 && opt.Literal {
		return nil, invalidf("pattern contains a line break; editor::search matches within one line, so search for one line of it")
	}
	var re *syntax.Regexp
	if opt.Literal {
		if !utf8.ValidString(pattern) {
			// Bytes that are not UTF-8 cannot go through the regexp parser;
			// a case-sensitive literal does not need it.
			if opt.IgnoreCase {
				return nil, invalidf("pattern is not valid UTF-8; ignore_case needs text")
			}
			m := &Matcher{lit: newLitFinder([]byte(pattern), false), word: opt.WholeWord}
			return m, nil
		}
		re = &syntax.Regexp{Op: syntax.OpLiteral, Rune: []rune(pattern)}
		if opt.IgnoreCase {
			re.Flags |= syntax.FoldCase
		}
	} else {
		flags := syntax.Perl &^ syntax.OneLine &^ syntax.ClassNL
		if opt.IgnoreCase {
			flags |= syntax.FoldCase
		}
		var err error
		re, err = syntax.Parse(pattern, flags)
		if err != nil {
			return nil, invalidf("pattern %q is not a valid RE2 regular expression: %s; fix it, or pass literal: true to search for the text as is", shorten(pattern), describeSyntaxError(err))
		}
		re = re.Simplify()
	}
	if err := lineSafe(re); err != nil {
		return nil, err
	}

	m := &Matcher{word: opt.WholeWord}
	// A plain string (also "foo\.bar", or "(?i)foo") takes the literal path.
	if s, fold, ok := plainLiteral(re); ok {
		if !fold {
			m.lit = newLitFinder([]byte(s), false)
		} else if isASCII(s) {
			m.lit = newLitFinder(asciiLower(s), true)
			m.special = specialFolds(s)
		}
	}
	full := re
	if opt.WholeWord {
		wb := &syntax.Regexp{Op: syntax.OpWordBoundary}
		full = &syntax.Regexp{Op: syntax.OpConcat, Sub: []*syntax.Regexp{wb, re, wb}}
	}
	m.src = full.String()
	if m.lit == nil || m.special != nil {
		var err error
		m.re, err = regexp.Compile(m.src)
		if err != nil {
			return nil, invalidf("pattern %q cannot be compiled: %v", shorten(pattern), err)
		}
	}
	if m.lit == nil {
		if set, ok := required(re); ok && set.useful() {
			for _, l := range set.lits {
				if set.fold {
					m.pre = append(m.pre, newLitFinder(asciiLower(l), true))
				} else {
					m.pre = append(m.pre, newLitFinder([]byte(l), false))
				}
				if set.fold {
					m.special = appendSpecial(m.special, l)
				}
			}
		}
	}
	return m, nil
}

func invalidf(format string, args ...any) error {
	return shell.Errorf(shell.CodeInvalidArgument, "", format, args...)
}

func shorten(s string) string {
	if len(s) > 80 {
		return s[:77] + "..."
	}
	return s
}

func describeSyntaxError(err error) string {
	if se, ok := err.(*syntax.Error); ok {
		return fmt.Sprintf("%s at `%s`", se.Code, se.Expr)
	}
	return err.Error()
}

// lineSafe rewrites re in place so that no match can contain "\n": "." and
// classes lose it, and a literal line break is refused.
func lineSafe(re *syntax.Regexp) error {
	switch re.Op {
	case syntax.OpAnyChar:
		re.Op = syntax.OpAnyCharNotNL
	case syntax.OpCharClass:
		out := re.Rune[:0:0]
		for i := 0; i+1 < len(re.Rune); i += 2 {
			lo, hi := re.Rune[i], re.Rune[i+1]
			if lo <= '\n' && '\n' <= hi {
				if lo < '\n' {
					out = append(out, lo, '\n'-1)
				}
				if hi > '\n' {
					out = append(out, '\n'+1, hi)
				}
				continue
			}
			out = append(out, lo, hi)
		}
		if len(out) == 0 {
			re.Op, re.Rune = syntax.OpNoMatch, nil
		} else {
			re.Rune = out
		}
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			if r == '\n' {
				return invalidf("pattern matches a line break (\\n); editor::search matches within one line, so search for one line of it")
			}
		}
	}
	for _, s := range re.Sub {
		if err := lineSafe(s); err != nil {
			return err
		}
	}
	return nil
}

// plainLiteral reports whether re is just a string (possibly case-folded).
func plainLiteral(re *syntax.Regexp) (s string, fold, ok bool) {
	for re.Op == syntax.OpCapture && len(re.Sub) == 1 {
		re = re.Sub[0]
	}
	if re.Op != syntax.OpLiteral || len(re.Rune) == 0 {
		return "", false, false
	}
	fold = re.Flags&syntax.FoldCase != 0
	if fold && !foldable(re.Rune) {
		return "", false, false
	}
	return string(re.Rune), fold, true
}

// foldable reports whether simple case folding of these runes is the ASCII
// case pair only (plus the two non-ASCII runes handled by special).
func foldable(rs []rune) bool {
	for _, r := range rs {
		if r >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

var (
	kelvin = []byte("\u212a") // folds to k
	longS  = []byte("\u017f") // folds to s
)

// specialFolds lists the non-ASCII runes that case-fold to a letter of s.
func specialFolds(s string) [][]byte {
	return appendSpecial(nil, s)
}

func appendSpecial(out [][]byte, s string) [][]byte {
	has := func(b []byte) bool {
		for _, o := range out {
			if string(o) == string(b) {
				return true
			}
		}
		return false
	}
	if strings.ContainsAny(s, "kK") && !has(kelvin) {
		out = append(out, kelvin)
	}
	if strings.ContainsAny(s, "sS") && !has(longS) {
		out = append(out, longS)
	}
	return out
}

// litSet is a set of strings one of which every match contains.
type litSet struct {
	lits []string
	fold bool // compare ASCII case-insensitively
}

func (s litSet) minLen() int {
	n := -1
	for _, l := range s.lits {
		if n < 0 || len(l) < n {
			n = len(l)
		}
	}
	return n
}

// better reports whether s is a more selective prefilter than o.
func (s litSet) better(o litSet) bool {
	if len(o.lits) == 0 {
		return true
	}
	sm, om := s.minLen(), o.minLen()
	if sm != om {
		return sm > om
	}
	if len(s.lits) != len(o.lits) {
		return len(s.lits) < len(o.lits)
	}
	return !s.fold && o.fold
}

// useful reports whether the set is worth a prefilter pass: a scan for a
// single common byte would stop on most lines and only add work.
func (s litSet) useful() bool {
	if len(s.lits) == 0 || len(s.lits) > maxPrefilterLits {
		return false
	}
	for _, l := range s.lits {
		if l == "" {
			return false
		}
		if len(l) == 1 && byteRank[l[0]] < rareByteRank {
			return false
		}
	}
	return true
}

const maxPrefilterLits = 8

// required computes a set of literals one of which every match of re
// contains, when there is one.
func required(re *syntax.Regexp) (litSet, bool) {
	switch re.Op {
	case syntax.OpLiteral:
		fold := re.Flags&syntax.FoldCase != 0
		if fold && !foldable(re.Rune) {
			// Fold the ASCII prefix only; a non-ASCII folding rune ends it.
			i := 0
			for i < len(re.Rune) && re.Rune[i] < utf8.RuneSelf {
				i++
			}
			if i == 0 {
				return litSet{}, false
			}
			return litSet{lits: []string{string(re.Rune[:i])}, fold: true}, true
		}
		return litSet{lits: []string{string(re.Rune)}, fold: fold}, true
	case syntax.OpCapture, syntax.OpPlus:
		return required(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return required(re.Sub[0])
		}
	case syntax.OpConcat:
		var best litSet
		found := false
		for _, s := range re.Sub {
			if set, ok := required(s); ok && set.better(best) {
				best, found = set, true
			}
		}
		return best, found
	case syntax.OpAlternate:
		var out litSet
		for _, s := range re.Sub {
			set, ok := required(s)
			if !ok {
				return litSet{}, false
			}
			out.lits = append(out.lits, set.lits...)
			out.fold = out.fold || set.fold
			if len(out.lits) > maxPrefilterLits {
				return litSet{}, false
			}
		}
		return out, len(out.lits) > 0
	}
	return litSet{}, false
}
