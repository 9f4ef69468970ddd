package gitops

import (
	"errors"
	"regexp"
	"strconv"
	"strings"

	"github.com/editord/editord/shell"
	"github.com/go-git/go-git/v5/plumbing"
)

// Revisions the way git's rev-parse reads them: a ref name (HEAD, main,
// origin/main, v1.2, stash, refs/...), a full or abbreviated SHA, a reflog
// entry by number (HEAD@{2}, stash@{1}, @{1}) or by date
// (main@{yesterday}, @{1.hour.ago}, HEAD@{2026-01-01}: approxidate.go),
// the branch checked out before (@{-1}), the upstream (@{u},
// main@{upstream}), the youngest commit whose message matches (:/text),
// followed by any chain of ~N, ^N, ^ and ^{commit}/^{tree}/^{}/^{/text}
// (revsearch.go). The index
// stages (":", ":0" to ":3") name the index rather than a commit; the
// caller passes the path separately.

// stageRev returns the index stage a revision names (":" and ":0" are 0),
// ok false when rev names a commit.
func stageRev(rev string) (int, bool) {
	switch rev {
	case ":", ":0":
		return 0, true
	case ":1", ":2", ":3":
		return int(rev[1] - '0'), true
	}
	return 0, false
}

// indexRev reports whether rev names the index rather than a commit.
func indexRev(rev string) bool { _, ok := stageRev(rev); return ok }

func badRev(rev, why string) error {
	msg := "unknown revision " + strconv.Quote(rev)
	if why != "" {
		msg += ": " + why
	}
	return shell.Errorf(shell.CodeInvalidArgument, "", "%s; pass HEAD, HEAD~2, main^2, a branch, a tag, a SHA, stash@{0}, HEAD@{1}, main@{yesterday}, @{-1}, @{upstream}, HEAD^{/text}, :/text, or :1/:2/:3 for a conflict's stages", msg)
}

// braced matches the @{...} and ^{...} parts of a revision, which may
// hold a colon (a time of day) where the rest may not.
var braced = regexp.MustCompile(`[@^]\{[^}]*\}`)

// revParse resolves rev to an object name (a commit, or a tree after
// ^{tree}). ok is false only for HEAD (or @) on a branch with no commit.
func (r *Repo) revParse(rev string) (plumbing.Hash, bool, error) {
	if rev == "" {
		rev = "HEAD"
	}
	for _, c := range rev {
		if c < ' ' || c == 0x7f {
			return plumbing.ZeroHash, false, badRev(rev, "it holds a control character")
		}
	}
	if text, ok := strings.CutPrefix(rev, ":/"); ok {
		return r.searchMessage(text, rev, nil)
	}
	outside := rev
	if i := strings.Index(outside, "^{/"); i >= 0 {
		outside = outside[:i] // the text searched for may hold anything
	}
	if strings.Contains(braced.ReplaceAllString(outside, ""), ":") {
		return plumbing.ZeroHash, false, badRev(rev, "pass the revision and the path separately (rev \"HEAD\", path \"src/main.go\"), or rev \":\" for the staged version")
	}
	return r.rev1(rev, rev)
}

// rev1 resolves name the way git's get_oid_1 does: the last ~N or ^N
// applies to everything before it, then the last ^{...}, then the base.
func (r *Repo) rev1(name, rev string) (plumbing.Hash, bool, error) {
	i := len(name) - 1
	for i >= 0 && name[i] >= '0' && name[i] <= '9' {
		i--
	}
	if i > 0 && (name[i] == '~' || name[i] == '^') {
		n := 1
		if digits := name[i+1:]; digits != "" {
			v, err := strconv.Atoi(digits)
			if err != nil {
				return plumbing.ZeroHash, false, badRev(rev, "the number "+digits+" is too large")
			}
			n = v
		}
		h, ok, err := r.rev1(name[:i], rev)
		if err != nil || !ok {
			return h, false, r.unbornStep(ok, err, rev)
		}
		if name[i] == '~' {
			h, err = r.ancestor(h, n, rev)
		} else {
			h, err = r.parent(h, n, rev)
		}
		return h, err == nil, err
	}
	if strings.HasSuffix(name, "}") {
		if j := strings.LastIndex(name, "^{"); j > 0 {
			h, ok, err := r.rev1(name[:j], rev)
			if err != nil || !ok {
				return h, false, r.unbornStep(ok, err, rev)
			}
			h, err = r.peel(h, name[j+2:len(name)-1], rev)
			return h, err == nil, err
		}
	}
	return r.revBase(name, rev)
}

// unbornStep is the error for a suffix applied to a branch with no commit.
func (r *Repo) unbornStep(ok bool, err error, rev string) error {
	if err != nil {
		return err
	}
	return badRev(rev, "the branch has no commit yet")
}

// ancestor is h~n: n first parents back.
func (r *Repo) ancestor(h plumbing.Hash, n int, rev string) (plumbing.Hash, error) {
	for range n {
		c, err := r.readCommit(h)
		if err != nil {
			return h, badRev(rev, "it is not a commit")
		}
		if len(c.parents) == 0 {
			return h, badRev(rev, "the history ends before that (a root commit has no parent)")
		}
		h = c.parents[0]
	}
	return h, nil
}

// parent is h^n: the commit itself for 0, else its n-th parent.
func (r *Repo) parent(h plumbing.Hash, n int, rev string) (plumbing.Hash, error) {
	c, err := r.readCommit(h)
	if err != nil {
		return h, badRev(rev, "it is not a commit")
	}
	if n == 0 {
		return r.peelToCommit(h)
	}
	if n > len(c.parents) {
		return h, badRev(rev, "the commit has "+strconv.Itoa(len(c.parents))+" parent(s)")
	}
	return c.parents[n-1], nil
}

// peel applies ^{typ}: ^{}, ^{commit}, ^{tree}, or ^{/text}, the
// youngest commit reachable from h whose message matches text.
func (r *Repo) peel(h plumbing.Hash, typ, rev string) (plumbing.Hash, error) {
	switch {
	case typ == "" || typ == "commit":
		if _, err := r.readCommit(h); err != nil {
			return h, badRev(rev, "it is not a commit")
		}
		return r.peelToCommit(h)
	case typ == "tree":
		c, err := r.readCommit(h)
		if err != nil {
			return h, badRev(rev, "it is not a commit")
		}
		return c.tree, nil
	case strings.HasPrefix(typ, "/"):
		if _, err := r.readCommit(h); err != nil {
			return h, badRev(rev, "it is not a commit")
		}
		c, err := r.peelToCommit(h)
		if err != nil || typ == "/" {
			return c, err // ^{/} is the commit itself
		}
		got, _, err := r.searchMessage(typ[1:], rev, []plumbing.Hash{c})
		return got, err
	}
	return h, badRev(rev, "^{"+typ+"} is not supported (^{commit}, ^{tree}, ^{} and ^{/text} are)")
}

// peelToCommit follows annotated tags to the commit.
func (r *Repo) peelToCommit(h plumbing.Hash) (plumbing.Hash, error) {
	for range 10 {
		obj, err := r.object(h, plumbing.AnyObject, 0)
		if err != nil {
			return h, err
		}
		if obj.typ != plumbing.TagObject {
			return h, nil
		}
		target, ok := tagTarget(obj.data)
		if !ok {
			return h, gitErr(r.top, "read tag "+h.String(), errors.New("malformed tag"))
		}
		h = target
	}
	return h, nil
}

var reflogSel = regexp.MustCompile(`^(.*)@\{([^}]*)\}$`)

// revBase resolves the part before the suffixes.
func (r *Repo) revBase(base, rev string) (plumbing.Hash, bool, error) {
	if base == "HEAD" || base == "@" {
		h, err := r.head()
		if err != nil {
			return plumbing.ZeroHash, false, err
		}
		return h.hash, !h.unborn(), nil
	}
	if m := reflogSel.FindStringSubmatch(base); m != nil {
		name, sel := m[1], m[2]
		if strings.HasPrefix(sel, "-") {
			if name != "" {
				return plumbing.ZeroHash, false, badRev(rev, "@{-N} (the N-th branch checked out before) stands alone, as in @{-1}~2")
			}
			n, err := strconv.Atoi(sel[1:])
			if err != nil {
				return plumbing.ZeroHash, false, badRev(rev, "@{-N} takes a number")
			}
			branch, detached, err := r.priorCheckout(n, rev)
			if err != nil || branch == "" {
				return detached, err == nil, err
			}
			return r.revBase(branch, rev)
		}
		if rest, ok := strings.CutPrefix(name, "@{-"); ok {
			// @{-1}@{1}, @{-1}@{u}: the previous branch's reflog or upstream.
			num, tail, _ := strings.Cut(rest, "}")
			n, err := strconv.Atoi(num)
			if err != nil || tail != "" {
				return plumbing.ZeroHash, false, badRev(rev, "")
			}
			branch, _, err := r.priorCheckout(n, rev)
			if err != nil {
				return plumbing.ZeroHash, false, err
			}
			if branch == "" {
				return plumbing.ZeroHash, false, badRev(rev, "the checkout before was a detached HEAD, which has no reflog or upstream of its own")
			}
			name = branch
		}
		switch strings.ToLower(sel) {
		case "u", "upstream":
			return r.upstreamRev(name, rev)
		}
		n, err := strconv.Atoi(sel)
		if err != nil || n >= 100000000 {
			// A date: a Unix time, or anything git's approxidate reads.
			at := int64(n)
			if err != nil {
				var ok bool
				if at, ok = approxidate(sel, revNow()); !ok {
					return plumbing.ZeroHash, false, badRev(rev, "neither a reflog entry number nor a date git reads (2026-01-01, yesterday, 2.hours.ago)")
				}
			}
			ref, err := r.reflogRef(name, rev)
			if err != nil {
				return plumbing.ZeroHash, false, err
			}
			return r.reflogAt(ref, at, rev)
		}
		ref, err := r.reflogRef(name, rev)
		if err != nil {
			return plumbing.ZeroHash, false, err
		}
		ents := r.reflog(ref)
		if n >= len(ents) {
			if n == 0 {
				if h, _ := r.ref(plumbing.ReferenceName(ref)); !h.IsZero() {
					return h, true, nil
				}
			}
			return plumbing.ZeroHash, false, badRev(rev, "the reflog of "+shortRef(plumbing.ReferenceName(ref))+" has only "+strconv.Itoa(len(ents))+" entries")
		}
		return ents[len(ents)-1-n].New, true, nil
	}
	if ref, ok := r.dwimRef(base); ok {
		h, err := r.ref(ref)
		if err != nil {
			return plumbing.ZeroHash, false, err
		}
		return h, true, nil
	}
	if isHex(base) && len(base) >= 4 && len(base) <= 40 {
		if len(base) == 40 {
			h := plumbing.NewHash(base)
			if r.st.HasEncodedObject(h) == nil {
				return h, true, nil
			}
		} else if repo, err := r.goGit(); err == nil {
			if got, err := repo.ResolveRevision(plumbing.Revision(base)); err == nil && got != nil && !got.IsZero() {
				return *got, true, nil
			}
		}
	}
	return plumbing.ZeroHash, false, badRev(rev, "")
}

func isHex(s string) bool {
	for _, c := range s {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return s != ""
}

// dwimRef finds the ref a short name means, in git's order.
func (r *Repo) dwimRef(name string) (plumbing.ReferenceName, bool) {
	if name == "" || strings.HasPrefix(name, "-") || strings.Contains(name, "..") {
		return "", false
	}
	for _, c := range []string{name, "refs/" + name, "refs/tags/" + name, "refs/heads/" + name, "refs/remotes/" + name, "refs/remotes/" + name + "/HEAD"} {
		if c != "HEAD" && !strings.HasPrefix(c, "refs/") && c != "FETCH_HEAD" && c != "ORIG_HEAD" && c != "MERGE_HEAD" {
			continue
		}
		ref := plumbing.ReferenceName(c)
		if h, err := r.ref(ref); err == nil && !h.IsZero() {
			return ref, true
		}
	}
	return "", false
}

// reflogRef is the ref whose reflog name@{n} reads: "" is the current
// branch (HEAD when detached).
func (r *Repo) reflogRef(name, rev string) (string, error) {
	if name == "" {
		h, err := r.head()
		if err != nil {
			return "", err
		}
		if h.branch == "" {
			return "HEAD", nil
		}
		return h.branch, nil
	}
	if name == "HEAD" {
		return "HEAD", nil
	}
	if ref, ok := r.dwimRef(name); ok {
		return ref.String(), nil
	}
	return "", badRev(rev, "no ref named "+name)
}

// upstreamRev is name@{upstream} ("" the current branch).
func (r *Repo) upstreamRev(name, rev string) (plumbing.Hash, bool, error) {
	branch := ""
	if name == "" || name == "HEAD" {
		h, err := r.head()
		if err != nil {
			return plumbing.ZeroHash, false, err
		}
		branch = h.branch
	} else {
		branch = "refs/heads/" + name
	}
	short, ref, ok := r.upstreamOf(branch)
	if !ok {
		return plumbing.ZeroHash, false, badRev(rev, "the branch has no upstream; name the remote-tracking branch itself (origin/main)")
	}
	up, err := r.ref(ref)
	if err != nil || up.IsZero() {
		return plumbing.ZeroHash, false, badRev(rev, "the upstream "+short+" has not been fetched; run editor::git::sync with action fetch")
	}
	return up, true, nil
}

// ReflogEntry is one line of a reflog.
type ReflogEntry struct {
	Old, New plumbing.Hash
	Who      string // "Name <email> 1700000000 +0100"
	Message  string
}

// reflog reads logs/<ref>, oldest first.
func (r *Repo) reflog(ref string) []ReflogEntry {
	data, err := readAll(r.gfs, "logs/"+ref)
	if err != nil {
		return nil
	}
	var out []ReflogEntry
	for _, line := range strings.Split(string(data), "\n") {
		head, msg, _ := strings.Cut(line, "\t")
		if len(head) < 82 {
			continue
		}
		out = append(out, ReflogEntry{Old: plumbing.NewHash(head[:40]), New: plumbing.NewHash(head[41:81]), Who: strings.TrimSpace(head[82:]), Message: msg})
	}
	return out
}

// resolve maps a revision to a commit. ok is false only for HEAD on a
// branch with no commits yet; an unknown revision is invalid_argument.
func (r *Repo) resolve(rev string) (c plumbing.Hash, ok bool, err error) {
	h, ok, err := r.revParse(rev)
	if err != nil || !ok {
		return h, ok, err
	}
	h, err = r.peelToCommit(h)
	if err != nil {
		return h, false, err
	}
	return h, true, nil
}

// treeOf is the tree of a commit, or h itself when it names a tree.
func (r *Repo) treeOf(h plumbing.Hash) (plumbing.Hash, error) {
	obj, err := r.object(h, plumbing.AnyObject, 1)
	if err == nil && obj.typ == plumbing.TreeObject {
		return h, nil
	}
	c, err := r.readCommit(h)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	return c.tree, nil
}
