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
// entry (HEAD@{2}, stash@{1}, @{1}), the upstream (@{u}, main@{upstream}),
// followed by any chain of ~N, ^N, ^ and ^{commit}/^{tree}/^{}. The index
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

var revSuffix = regexp.MustCompile(`(~[0-9]*|\^[0-9]*|\^\{[a-z]*\})$`)

func badRev(rev, why string) error {
	msg := "unknown revision " + strconvQuote(rev)
	if why != "" {
		msg += ": " + why
	}
	return shell.Errorf(shell.CodeInvalidArgument, "", "%s; pass HEAD, HEAD~2, main^2, a branch, a tag, a SHA, stash@{0}, HEAD@{1}, @{upstream}, or :1/:2/:3 for a conflict's stages", msg)
}

func strconvQuote(s string) string { return strconv.Quote(s) }

// revParse resolves rev to an object name (a commit, or a tree after
// ^{tree}). ok is false only for HEAD (or @) on a branch with no commit.
func (r *Repo) revParse(rev string) (plumbing.Hash, bool, error) {
	if rev == "" {
		rev = "HEAD"
	}
	if strings.ContainsAny(rev, "\x00 \t\n") {
		return plumbing.ZeroHash, false, badRev(rev, "it holds a space or a control character")
	}
	if strings.Contains(rev, ":") {
		return plumbing.ZeroHash, false, badRev(rev, "pass the revision and the path separately (rev \"HEAD\", path \"src/main.go\"), or rev \":\" for the staged version")
	}
	// Peel the suffixes off the end, innermost last.
	var ops []string
	base := rev
	for {
		loc := revSuffix.FindStringIndex(base)
		if loc == nil || loc[0] == 0 {
			break
		}
		// "@{...}" ends in "}" too, but never with "^{".
		ops = append([]string{base[loc[0]:]}, ops...)
		base = base[:loc[0]]
	}
	h, ok, err := r.revBase(base, rev)
	if err != nil {
		return h, ok, err
	}
	if !ok {
		if len(ops) > 0 {
			return h, false, badRev(rev, "the branch has no commit yet")
		}
		return h, false, nil
	}
	for _, op := range ops {
		if h, err = r.revStep(h, op, rev); err != nil {
			return plumbing.ZeroHash, false, err
		}
	}
	return h, true, nil
}

// revStep applies one ~N, ^N or ^{type} to h.
func (r *Repo) revStep(h plumbing.Hash, op, rev string) (plumbing.Hash, error) {
	switch {
	case strings.HasPrefix(op, "^{"):
		typ := strings.TrimSuffix(op[2:], "}")
		switch typ {
		case "", "commit":
			if _, err := r.readCommit(h); err != nil {
				return h, badRev(rev, "it is not a commit")
			}
			return r.peelToCommit(h)
		case "tree":
			c, err := r.readCommit(h)
			if err != nil {
				return h, badRev(rev, "it is not a commit")
			}
			return c.tree, nil
		}
		return h, badRev(rev, "^{"+typ+"} is not supported (use ^{commit} or ^{tree})")
	case op[0] == '~':
		n := 1
		if len(op) > 1 {
			n, _ = strconv.Atoi(op[1:])
		}
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
	default: // ^N
		n := 1
		if len(op) > 1 {
			n, _ = strconv.Atoi(op[1:])
		}
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
		target, ok := strings.CutPrefix(string(obj.data), "object ")
		if !ok || len(target) < 40 {
			return h, gitErr(r.top, "read tag "+h.String(), errors.New("malformed tag"))
		}
		h = plumbing.NewHash(target[:40])
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
		switch strings.ToLower(sel) {
		case "u", "upstream":
			return r.upstreamRev(name, rev)
		}
		n, err := strconv.Atoi(sel)
		if err != nil || n < 0 {
			return plumbing.ZeroHash, false, badRev(rev, "only numbered reflog entries (@{0}, @{1}) and @{upstream} are supported")
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
		return plumbing.ZeroHash, false, badRev(rev, "the branch has no upstream (set one with editor::git::branch or git branch --set-upstream-to)")
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
