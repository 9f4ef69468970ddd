package search

import (
	"bytes"
	"unicode"
	"unicode/utf8"
)

// PreserveCase gives repl the case of matched, as an editor's "preserve
// case" replace does: FOO → BAR, foo → bar, Foo → Bar, fOO-like mixed
// starts lower → first letter lowered; with - or _ parts in both (as many
// in each), each part takes its own capital (Foo-Bar → Baz-Qux). A match
// without letters leaves repl as it is.
func PreserveCase(matched, repl []byte) []byte {
	upper, lower, letters := true, true, false
	for _, r := range string(matched) {
		if !unicode.IsLetter(r) {
			continue
		}
		letters = true
		upper = upper && !unicode.IsLower(r)
		lower = lower && !unicode.IsUpper(r)
	}
	switch {
	case !letters || len(repl) == 0:
		return repl
	case upper:
		return bytes.ToUpper(repl)
	case lower:
		return bytes.ToLower(repl)
	}
	for _, sep := range []byte{'-', '_'} {
		mp, rp := bytes.Split(matched, []byte{sep}), bytes.Split(repl, []byte{sep})
		if len(mp) > 1 && len(mp) == len(rp) {
			out := make([]byte, 0, len(repl))
			for i := range rp {
				if i > 0 {
					out = append(out, sep)
				}
				out = append(out, firstCase(mp[i], rp[i])...)
			}
			return out
		}
	}
	return firstCase(matched, repl)
}

// firstCase gives repl's first letter the case of matched's first letter.
func firstCase(matched, repl []byte) []byte {
	m, _ := utf8.DecodeRune(matched)
	r, n := utf8.DecodeRune(repl)
	if r == utf8.RuneError || !unicode.IsLetter(m) {
		return repl
	}
	var to rune
	switch {
	case unicode.IsUpper(m):
		to = unicode.ToUpper(r)
	case unicode.IsLower(m):
		to = unicode.ToLower(r)
	default:
		return repl
	}
	return append(utf8.AppendRune(make([]byte, 0, len(repl)+4), to), repl[n:]...)
}
