package gitops

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/editord/editord/shell"
	"github.com/go-git/go-git/v5/plumbing"
)

// Identity is who made a commit or a reflog entry.
type Identity struct {
	Name, Email string
	When        time.Time
}

func (id Identity) String() string {
	_, off := id.When.Zone()
	sign := '+'
	if off < 0 {
		sign, off = '-', -off
	}
	return fmt.Sprintf("%s <%s> %d %c%02d%02d", id.Name, id.Email, id.When.Unix(), sign, off/3600, off%3600/60)
}

// identity finds the author or committer the way git does: GIT_AUTHOR_*
// (or GIT_COMMITTER_*) from the environment, then author.* (committer.*),
// then user.* from the repository's and the user's git configuration.
func (r *Repo) identity(role string) (Identity, error) {
	up := strings.ToUpper(role)
	name := shell.Getenv("GIT_" + up + "_NAME")
	email := shell.Getenv("GIT_" + up + "_EMAIL")
	if name == "" {
		name = r.cfg.str(role, "", "name")
	}
	if email == "" {
		email = r.cfg.str(role, "", "email")
	}
	if name == "" {
		name = r.cfg.str("user", "", "name")
	}
	if email == "" {
		email = r.cfg.str("user", "", "email")
	}
	if name == "" || email == "" {
		return Identity{}, shell.Errorf(shell.CodeGitFailed, r.top,
			"git needs your name and email to record a commit, and user.name or user.email is not set in the repository's or your global git config; "+
				"editord reads them from there and never writes git configuration, so nothing can be committed until they are set there")
	}
	return Identity{Name: name, Email: email, When: time.Now()}, nil
}

// updateRef moves ref from old to new with git's lock protocol, refusing if
// it no longer points at old (zero: it must not exist), and appends msg to
// its reflog (and to HEAD's when HEAD is a symbolic ref to it; no msg, no
// reflog line). new zero deletes the ref and its reflog.
func (r *Repo) updateRef(ref plumbing.ReferenceName, old, new plumbing.Hash, who Identity, msg string) error {
	name := ref.String()
	lk, err := r.lock(name)
	if err != nil {
		return err
	}
	defer lk.rollback()
	cur, err := r.ref(ref)
	if err != nil {
		return err
	}
	if ref == plumbing.HEAD {
		if h, err := r.head(); err == nil && h.branch != "" {
			return gitErr(r.top, "update HEAD", errors.New("HEAD is a symbolic ref; update the branch instead"))
		}
	}
	if cur != old {
		return shell.Errorf(shell.CodeGitFailed, r.top, "%s moved while editord was working (now %s, expected %s); nothing was changed, retry", shortRef(ref), short(cur), short(old))
	}
	if new.IsZero() {
		lk.rollback()
		if err := r.st.RemoveReference(ref); err != nil {
			return gitErr(r.top, "delete "+name, err)
		}
		r.gfs.Remove("logs/" + name)
		return nil
	}
	if err := lk.commit([]byte(new.String() + "\n")); err != nil {
		return err
	}
	if msg == "" {
		return nil // a move the reflog already records (a stash drop)
	}
	line := reflogLine(old, new, who, msg)
	r.appendReflog(name, line)
	if ref != plumbing.HEAD {
		if h, err := r.head(); err == nil && h.branch == name {
			r.appendReflog("HEAD", line)
		}
	}
	return nil
}

// moveHead points HEAD at new: the branch when HEAD names one,
// HEAD itself when detached.
func (r *Repo) moveHead(h head, new plumbing.Hash, who Identity, msg string) error {
	if h.branch != "" {
		return r.updateRef(plumbing.ReferenceName(h.branch), h.hash, new, who, msg)
	}
	return r.updateRef(plumbing.HEAD, h.hash, new, who, msg)
}

func reflogLine(old, new plumbing.Hash, who Identity, msg string) string {
	msg = strings.ReplaceAll(strings.TrimRight(msg, "\n"), "\n", " ")
	return fmt.Sprintf("%s %s %s\t%s\n", old, new, who, msg)
}

// appendReflog adds a line to logs/<ref>, creating it. Reflogs are a
// convenience (recovery, the stash list is the one that matters), so a
// failure here never undoes the change it records.
func (r *Repo) appendReflog(ref, line string) error {
	f, err := r.gfs.OpenFile("logs/"+ref, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = io.WriteString(f, line)
	return err
}

func short(h plumbing.Hash) string {
	if h.IsZero() {
		return "nothing"
	}
	return h.String()[:7]
}
