package gitops

import (
	"container/heap"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// The revisions that search: a commit by its message (:/text,
// rev^{/text}), a reflog entry by date (main@{yesterday}), and the
// branch checked out before (@{-1}).

// searchMessage is git's get_oid_oneline: the youngest commit reachable
// from the tips (every ref and HEAD when tips is nil) whose message
// matches text, a POSIX extended regular expression over the whole
// message. "!-text" finds one that does not match, "!!text" matches a
// text starting with "!". Commits are visited newest committer date
// first, ties in the order they were reached, as git's commit list does.
func (r *Repo) searchMessage(text, rev string, tips []plumbing.Hash) (plumbing.Hash, bool, error) {
	negative := false
	if rest, ok := strings.CutPrefix(text, "!"); ok {
		switch {
		case strings.HasPrefix(rest, "-"):
			text, negative = rest[1:], true
		case strings.HasPrefix(rest, "!"):
			text = rest
		default:
			return plumbing.ZeroHash, false, badRev(rev, "after \"!\" comes \"-\" (a message that does not match) or \"!\" (a literal \"!\")")
		}
	}
	if text == "" && tips == nil {
		return plumbing.ZeroHash, false, badRev(rev, "give the text to search the commit messages for after \":/\"")
	}
	// Without REG_NEWLINE, as git compiles it: "." matches a newline and
	// "^"/"$" anchor the whole message.
	re, err := regexp.Compile("(?s)" + text)
	if err != nil {
		return plumbing.ZeroHash, false, badRev(rev, "the text is not a regular expression ("+err.Error()+")")
	}
	if tips == nil {
		tips = r.allTips()
	}
	var q commitQueue[queued]
	seq := 0
	push := func(h plumbing.Hash, t int64) {
		seq++
		heap.Push(&q, queued{h: h, time: t, seq: seq})
	}
	seen := map[plumbing.Hash]bool{}
	var dated []queued
	for _, h := range tips {
		if seen[h] {
			continue
		}
		c, err := r.readCommit(h)
		if err != nil {
			continue
		}
		seen[h] = true
		dated = append(dated, queued{h: h, time: c.time})
	}
	sort.SliceStable(dated, func(i, j int) bool { return dated[i].time > dated[j].time })
	for _, d := range dated {
		push(d.h, d.time)
	}
	for q.Len() > 0 {
		h := heap.Pop(&q).(queued).h
		c, err := r.readCommit(h)
		if err != nil {
			continue
		}
		for _, p := range c.parents {
			if seen[p] {
				continue
			}
			if pc, err := r.readCommit(p); err == nil {
				seen[p] = true
				push(p, pc.time)
			}
		}
		if re.MatchString(c.message) != negative {
			return h, true, nil
		}
	}
	return plumbing.ZeroHash, false, badRev(rev, "no commit message matches "+strconv.Quote(text))
}

// allTips is what :/text searches from: HEAD, then every ref in reverse
// name order (git prepends each ref to its list), tags peeled; a stable
// sort by date comes after.
func (r *Repo) allTips() []plumbing.Hash {
	var names []plumbing.ReferenceName
	if iter, err := r.st.IterReferences(); err == nil {
		iter.ForEach(func(ref *plumbing.Reference) error {
			if strings.HasPrefix(ref.Name().String(), "refs/") {
				names = append(names, ref.Name())
			}
			return nil
		})
	}
	sort.Slice(names, func(i, j int) bool { return names[i] > names[j] })
	var tips []plumbing.Hash
	if h, err := r.head(); err == nil && !h.unborn() {
		tips = append(tips, h.hash)
	}
	for _, n := range names {
		h, err := r.ref(n)
		if err != nil || h.IsZero() {
			continue
		}
		if c, err := r.peelToCommit(h); err == nil {
			tips = append(tips, c)
		}
	}
	return tips
}

// queued is a commit waiting in searchMessage's queue.
type queued struct {
	h    plumbing.Hash
	time int64
	seq  int
}

func (q queued) order() (int64, int) { return q.time, q.seq }

// reflogAt is git's read_ref_at for a date: what ref pointed at, at time
// at. The newest entry made at or before that time gives its new value
// (the ref's current value when that entry is the newest one); a time
// older than the whole log gives the oldest entry's old value (its new
// one when the log starts with the ref's creation), as git does after
// warning that the log only goes back so far.
func (r *Repo) reflogAt(ref string, at int64, rev string) (plumbing.Hash, bool, error) {
	ents := r.reflog(ref)
	if len(ents) == 0 {
		return plumbing.ZeroHash, false, badRev(rev, "the reflog of "+shortRef(plumbing.ReferenceName(ref))+" is empty")
	}
	cur, err := r.ref(plumbing.ReferenceName(ref))
	if err != nil {
		return plumbing.ZeroHash, false, err
	}
	var newerOld plumbing.Hash
	for i := len(ents) - 1; i >= 0; i-- {
		e := ents[i]
		t := identTime(e.Who)
		if t <= at {
			if !newerOld.IsZero() || t == at {
				return e.New, true, nil
			}
			if cur.IsZero() {
				return e.New, true, nil
			}
			return cur, true, nil
		}
		newerOld = e.Old
	}
	if o := ents[0].Old; !o.IsZero() {
		return o, true, nil
	}
	return ents[0].New, true, nil
}

// priorCheckout is @{-n}: the n-th last branch (or detached commit) HEAD
// moved away from, read from HEAD's reflog "checkout: moving from A to
// B" lines as git does.
func (r *Repo) priorCheckout(n int, rev string) (branch string, detached plumbing.Hash, err error) {
	if n <= 0 {
		return "", plumbing.ZeroHash, badRev(rev, "@{-N} counts from 1")
	}
	ents := r.reflog("HEAD")
	for i := len(ents) - 1; i >= 0; i-- {
		from, ok := strings.CutPrefix(ents[i].Message, "checkout: moving from ")
		if !ok {
			continue
		}
		from, _, ok = strings.Cut(from, " to ")
		if !ok {
			continue
		}
		if n--; n > 0 {
			continue
		}
		if len(from) == 40 && isHex(from) {
			return "", plumbing.NewHash(from), nil
		}
		return from, plumbing.ZeroHash, nil
	}
	return "", plumbing.ZeroHash, badRev(rev, "HEAD's reflog records fewer branch switches than that")
}
