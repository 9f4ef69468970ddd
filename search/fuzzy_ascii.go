package search

// fuzzyASCII is sahilm/fuzzy's matcher and score (v0.1.3,
// FindFromIterNoSort) for an ASCII query against an ASCII text, on bytes:
// the same positions and the same score, several times faster than the
// package's rune-by-rune loop with a call per character comparison, and
// with no allocation but the positions of a match. Rank uses it wherever
// both are ASCII and fuzzy itself otherwise; TestFuzzyASCIIMatchesFuzzy
// holds the two equal.
//
// The algorithm, as fuzzy has it: the query's characters are taken in
// order; for the current one, every equal (case-folded) character of the
// text is scored (10 at the text's start, 20 after a separator or at a
// lower-to-upper camelCase hump, and a bonus for following the previous
// match directly that grows with each such step) and the best-scoring
// position so far is kept; it is committed as soon as the next text
// character equals the next query character (or the text ends), the first
// commit paying 5 per leading unmatched character (at most 15). Each
// unmatched text character costs 1.
func fuzzyASCII(q, text string, pos []int) (score int, out []int, ok bool) {
	return fuzzyASCIILower(lowerASCII(q), text, lowerASCII(text), pos)
}

// fuzzyASCIILower is fuzzyASCII given the query lowercased (lq) and the
// text with its lowercased form (lt, as long as text): fuzzy's case
// folding of two ASCII bytes is equality of their lowercase forms.
func fuzzyASCIILower(lq, text, lt string, pos []int) (score int, out []int, ok bool) {
	if len(lq) == 0 || len(lt) != len(text) {
		return 0, pos, false
	}
	pos = pos[:0]
	qi := 0
	best, bestAt := -1, -1
	adj := 0
	var last byte
	lastIndex := 0
	for j := 0; j < len(lt); j++ {
		c := text[j]
		if lt[j] == lq[qi] {
			s := 0
			if j == 0 {
				s += firstCharMatchBonus
			}
			if 'a' <= last && last <= 'z' && 'A' <= c && c <= 'Z' {
				s += camelCaseMatchBonus
			}
			if j != 0 && isSeparator(last) {
				s += matchFollowingSeparatorBonus
			}
			if len(pos) > 0 && lastIndex == pos[len(pos)-1] {
				bonus := adj*2 + adjacentMatchBonus
				s += bonus
				adj += bonus
			}
			if s > best {
				best, bestAt = s, j
			}
		}
		var nextp, nextc byte
		if qi < len(lq)-1 {
			nextp = lq[qi+1]
		}
		if j+1 < len(lt) {
			nextc = lt[j+1]
		}
		if (nextc == 0 || nextp == nextc) && bestAt > -1 {
			if len(pos) == 0 {
				best += max(bestAt*unmatchedLeadingCharPenalty, maxUnmatchedLeadingCharPenalty)
			}
			score += best
			pos = append(pos, bestAt)
			// As fuzzy: bestAt is kept. Where no later position scores
			// above -1 (a run long enough for its doubling bonus to
			// overflow), the next character is committed at it again.
			best = -1
			qi++
			if qi == len(lq) {
				// fuzzy commits the last character only at the text's end
				// (its next query character is none), so this is the end.
				break
			}
		}
		lastIndex, last = j, c
	}
	if len(pos) != len(lq) {
		return 0, pos, false
	}
	return score + len(pos) - len(text), pos, true
}

// fuzzy's scoring constants.
const (
	firstCharMatchBonus            = 10
	matchFollowingSeparatorBonus   = 20
	camelCaseMatchBonus            = 20
	adjacentMatchBonus             = 5
	unmatchedLeadingCharPenalty    = -5
	maxUnmatchedLeadingCharPenalty = -15
)
