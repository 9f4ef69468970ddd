package gitops

import (
	"path"
	"strings"
)

// The words of a merge commit's message, as git fmt-merge-msg writes them.

// fetchHeadURL is a remote URL as git writes it into FETCH_HEAD, and so
// into "Merge branch 'main' of <url>" (builtin/fetch.c): the user and
// password taken out (transport_anonymize_url), trailing slashes dropped,
// then a ".git" suffix dropped when something longer than one character
// stands before it. "/x/remote.git/" becomes "/x/remote",
// "https://u:p@host/r.git" becomes "https://host/r", "git@host:r.git"
// becomes "host:r". A newline is written as the two characters \n.
func fetchHeadURL(u string) string {
	u = anonymizeURL(u)
	i := len(u) - 1
	for i >= 0 && u[i] == '/' {
		i--
	}
	n := i + 1
	if i > 4 && u[i-3:i+1] == ".git" {
		n = i - 3
	}
	return strings.ReplaceAll(u[:n], "\n", `\n`) // as git writes a newline into FETCH_HEAD
}

// anonymizeURL is git's transport_anonymize_url: "scheme://user:pw@host/p"
// becomes "scheme://host/p" and "user@host:p" becomes "host:p"; a local
// path, or an "@" after the first slash of the host part, is kept as is.
func anonymizeURL(u string) string {
	at := strings.IndexByte(u, '@')
	if at < 0 || localURL(u) {
		return u
	}
	rest := u[at+1:]
	scheme := strings.Index(u, "://")
	if scheme < 0 {
		if !strings.Contains(rest, ":") {
			return u // cannot be "me@there:/path/name"
		}
		return rest
	}
	for _, c := range u[:scheme] {
		if !(c == '+' || c == '.' || c == '-' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return u
		}
	}
	if slash := strings.IndexByte(u[scheme+3:], '/'); slash >= 0 && scheme+3+slash < at {
		return u
	}
	return u[:scheme+3] + rest
}

// localURL is git's url_is_local_not_ssh: no colon, or a slash before
// the first colon.
func localURL(u string) bool {
	colon := strings.IndexByte(u, ':')
	slash := strings.IndexByte(u, '/')
	return colon < 0 || slash >= 0 && slash < colon
}

// mergeInto is the " into <branch>" git fmt-merge-msg ends the first line
// with, or "" when the branch's name matches merge.suppressDest (main and
// master when that is not set; an empty value clears the list). A
// detached HEAD gets none.
func (r *Repo) mergeInto(h head) string {
	if h.branch == "" {
		return ""
	}
	patterns, seen := []string(nil), false
	for _, v := range r.cfg.all("merge", "", "suppressDest") {
		seen = true
		if v == "" {
			patterns = nil
			continue
		}
		patterns = append(patterns, v)
	}
	if !seen {
		patterns = []string{"main", "master"}
	}
	name := h.shortBranch()
	for _, p := range patterns {
		if ok, _ := path.Match(p, name); ok {
			return ""
		}
	}
	return " into " + name
}
