package sandbox

import (
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/editord/editord/shell"
)

// Plan is what the box must cover inside the jail, found by walking it.
type Plan struct {
	Hide     []string // paths the deny globs match (folders whole)
	Cover    []Cover  // the repositories' configs the deny globs match, sanitized
	ReadOnly []string // .git folders and files
	Walked   int      // entries looked at
}

// PlanJail walks every root of j and lists what a command must not touch:
// the paths the deny globs match, and every .git (git's own files, hooks
// among them). It walks everything, ignored and noise folders too (a key
// under node_modules is still a key), without following links, and looks
// into a .git only for the config files the deny globs name (not at its
// objects). keep, when a path listed in it lies in the jail, is also
// hidden (the state dir).
func PlanJail(j *shell.Jail, keep ...string) (*Plan, error) {
	p := &Plan{}
	for _, root := range j.Roots() {
		w := &planWalk{p: p, deny: j.NewDenyChecker(root), root: root}
		if err := w.dir("", false); err != nil {
			return nil, err
		}
	}
	for _, k := range keep {
		if k != "" && j.Contains(k) {
			p.Hide = append(p.Hide, k)
		}
	}
	sort.Strings(p.Hide)
	sort.Strings(p.ReadOnly)
	sort.Slice(p.Cover, func(i, j int) bool { return p.Cover[i].Path < p.Cover[j].Path })
	return p, nil
}

type planWalk struct {
	p    *Plan
	deny *shell.DenyChecker
	root string
}

// dir walks the folder rel (root-relative, "" for the root); inGit is set
// inside a .git folder.
func (w *planWalk) dir(rel string, inGit bool) error {
	abs := w.root
	if rel != "" {
		abs = filepath.Join(w.root, rel)
	}
	f, err := os.Open(abs)
	if err != nil {
		if os.IsNotExist(err) || os.IsPermission(err) {
			return nil // gone meanwhile, or unreadable to us and to the command alike
		}
		return shell.AsError(err, abs)
	}
	ents, err := f.ReadDir(-1)
	f.Close()
	if err != nil {
		return shell.AsError(err, abs)
	}
	for _, e := range ents {
		w.p.Walked++
		name := e.Name()
		crel := name
		if rel != "" {
			crel = rel + "/" + name
		}
		cabs := filepath.Join(abs, name)
		isDir := e.IsDir()
		if w.deny.Denied(crel, isDir) {
			if inGit && name == "config" && e.Type().IsRegular() {
				// git needs it: a copy without its secrets (gitconfig.go).
				if data, err := os.ReadFile(cabs); err == nil && len(data) <= maxGitConfig {
					w.p.Cover = append(w.p.Cover, Cover{Path: cabs, Content: SanitizeGitConfig(data)})
					continue
				}
			}
			w.p.Hide = append(w.p.Hide, cabs)
			continue
		}
		switch {
		case name == ".git" && !inGit:
			w.p.ReadOnly = append(w.p.ReadOnly, cabs)
			if isDir {
				if err := w.dir(crel, true); err != nil {
					return err
				}
			}
		case inGit && isDir && (gitBulk[name] || !gitConfigFolder(crel)):
			// Objects, refs, logs: nothing a deny glob names.
		case isDir:
			if err := w.dir(crel, inGit); err != nil {
				return err
			}
		}
	}
	return nil
}

// maxGitConfig bounds a config read to be sanitized (a bigger one is hidden).
const maxGitConfig = 1 << 20

// gitBulk are the big folders of a git dir, which hold no config.
var gitBulk = map[string]bool{"objects": true, "refs": true, "logs": true, "lfs": true}

// gitConfigFolder reports the folders of a .git that hold config files:
// modules/ (submodules' git dirs) and everything beneath it.
func gitConfigFolder(rel string) bool {
	i := strings.LastIndex(rel, ".git/")
	return i >= 0 && (rel[i+5:] == "modules" || strings.HasPrefix(rel[i+5:], "modules/"))
}
