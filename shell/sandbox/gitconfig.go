package sandbox

import (
	"bytes"
	"net/url"
	"strings"
)

// A repository's config is denied (a remote's URL can hold a token), but
// git cannot work without it, and neither can go build (VCS stamping runs
// git status). So the box covers each .git/config with a copy that keeps
// only what git needs to read the repository, by an allow-list of keys:
// an unknown key, an include, a hook or a command never passes, and URLs
// lose their user info and query.

// gitKeys are the keys kept, by section ("remote" for [remote "origin"]).
var gitKeys = map[string]map[string]bool{
	"core": {"repositoryformatversion": true, "filemode": true, "bare": true, "logallrefupdates": true,
		"ignorecase": true, "precomposeunicode": true, "symlinks": true, "autocrlf": true, "eol": true,
		"safecrlf": true, "quotepath": true, "checkstat": true, "trustctime": true, "sharedrepository": true},
	"extensions": nil, // every key: the repository's format
	"remote":     {"url": true, "pushurl": true, "fetch": true, "push": true},
	"branch":     {"remote": true, "merge": true, "rebase": true, "pushremote": true},
	"submodule":  {"path": true, "url": true, "active": true, "branch": true},
}

// SanitizeGitConfig is the part of a git config a command may read.
func SanitizeGitConfig(data []byte) []byte {
	var out bytes.Buffer
	var keys map[string]bool
	keep, header := false, ""
	cont := false // the previous line ended in a backslash: this one belongs to it
	for _, line := range strings.Split(string(data), "\n") {
		trimmed := strings.TrimSpace(line)
		if cont {
			cont = strings.HasSuffix(trimmed, `\`)
			continue // a continued value is never kept
		}
		switch {
		case trimmed == "" || trimmed[0] == '#' || trimmed[0] == ';':
			continue
		case trimmed[0] == '[':
			end := strings.IndexByte(trimmed, ']')
			if end < 0 {
				keep = false
				continue
			}
			name := strings.TrimSpace(trimmed[1:end])
			section, sub, _ := strings.Cut(name, " ")
			section = strings.ToLower(strings.TrimSpace(section))
			if i := strings.IndexByte(section, '.'); i >= 0 { // [section.sub], the old form
				section = section[:i]
			}
			var ok bool
			keys, ok = gitKeys[section]
			keep = ok
			header = "[" + section
			if sub = strings.TrimSpace(sub); sub != "" {
				header += " " + sub
			}
			header += "]\n"
			if keep {
				out.WriteString(header)
			}
			// A key on the header's line ([core] bare = true) is dropped.
			continue
		}
		if strings.HasSuffix(trimmed, `\`) {
			cont = true
			continue
		}
		if !keep {
			continue
		}
		key, value, hasValue := strings.Cut(trimmed, "=")
		key = strings.ToLower(strings.TrimSpace(key))
		if keys != nil && !keys[key] {
			continue
		}
		if !hasValue {
			out.WriteString("\t" + key + "\n")
			continue
		}
		value = strings.TrimSpace(value)
		if key == "url" || key == "pushurl" {
			value = cleanURL(value)
		}
		out.WriteString("\t" + key + " = " + value + "\n")
	}
	return out.Bytes()
}

// cleanURL drops a URL's user info (user:token@), query and fragment; a
// value that does not parse as one is left out entirely.
func cleanURL(v string) string {
	unq := strings.Trim(v, `"`)
	if !strings.Contains(unq, "://") {
		// A path, or scp-like user@host:path, whose user is no secret.
		if strings.ContainsAny(unq, "?#") {
			return ""
		}
		return v
	}
	u, err := url.Parse(unq)
	if err != nil {
		return ""
	}
	u.User, u.RawQuery, u.Fragment, u.ForceQuery = nil, "", "", false
	return u.String()
}
