package editor

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/editord/editord/editor/lsp"
	"github.com/editord/editord/editor/turns"
	"github.com/editord/editord/search"
	"github.com/editord/editord/shell"
	"github.com/editord/editord/workspace"
)

// Options are the start-up choices of one process.
type Options struct {
	Root     string // --root: the jail when none is configured, and the first active root
	StateDir string // --state-dir; "" derives one from the jail
	Warn     func(string)
}

// Service serves the catalog's functions against one jail and state dir.
type Service struct {
	cfg   Config
	jail  *shell.Jail
	store *workspace.Store
	start string // canonical --root
	warn  func(string)
	find  *search.Engine // find and search, with their per-root caches
	// versions spares hashing a large file this process knows
	// (version_memo.go).
	versions versionMemo
	// calls counts the calls in progress (calls_inflight.go).
	calls callCount
	// quiesced counts the watcher's waits for our writes (writes_lock.go).
	quiesced quiesceSeen
	// runs are the editor::run jobs this process runs (run_jobs.go).
	runs runState
	// lsp runs the language servers of the code intelligence functions
	// (intel.go).
	lsp *lsp.Manager
	// renames keeps editor::rename's last dry runs for their apply.
	renames renamePlans
	// lines keeps the line index of files the servers' answers point
	// into (intel_lines.go).
	lines lineCache
	// turns is the book of turns (editor/turns): every change journaled
	// is stamped with its turn there.
	turns *turns.Book
	// gosymIdx answers Go workspace symbol queries (symbols_index.go).
	gosym    sync.Mutex
	gosymIdx *goIndex
}

// New opens the jail and the state dir.
func New(cfg Config, opt Options) (*Service, error) {
	if opt.Warn == nil {
		opt.Warn = func(string) {}
	}
	root := opt.Root
	if root == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, err
		}
		root = wd
	}
	start, err := shell.Canonical(root)
	if err != nil {
		return nil, fmt.Errorf("--root %s: %w", root, err)
	}
	roots := cfg.Jail.Roots
	if len(roots) == 0 {
		roots = []string{start}
	}
	deny := cfg.Jail.Deny
	if !cfg.Jail.AllowGitConfig {
		deny = append(append([]string{}, deny...), gitConfigDeny...)
	}
	jail, err := shell.Open(shell.Config{
		Roots:         roots,
		Deny:          deny,
		MaxReadBytes:  cfg.Jail.MaxReadBytes,
		MaxWriteBytes: cfg.Jail.MaxWriteBytes,
		Noise:         cfg.Walk.Noise,
	})
	if err != nil {
		return nil, err
	}
	if !jail.Contains(start) {
		jail.Close()
		return nil, fmt.Errorf("--root %s is outside the configured jail (%s)", start, strings.Join(jail.Roots(), ", "))
	}
	if err := checkNotGitDir(jail, start); err != nil {
		jail.Close()
		return nil, fmt.Errorf("--root: %s", shell.AsError(err, start).Message)
	}
	stateDir := opt.StateDir
	if stateDir == "" {
		stateDir = DefaultStateDir(jail.Roots()[0])
	}
	store, err := workspace.OpenStore(stateDir, opt.Warn)
	if err != nil {
		jail.Close()
		return nil, err
	}
	book, err := turns.Open(store, cfg.Turns, Version, opt.Warn)
	if err != nil {
		store.Close()
		jail.Close()
		return nil, err
	}
	store.SetStamper(book.Stamp)
	s := &Service{cfg: cfg, jail: jail, store: store, start: start, warn: opt.Warn, find: search.New(jail),
		lsp: lsp.NewManager(jail, cfg.LSP, lspOptions(jail, store, opt.Warn)), turns: book}
	// The trees of find and search are kept in the state dir across
	// restarts (a first call takes them up instead of walking).
	s.find.SetTreeCache(treeCache{store})
	if _, err := store.Update(context.Background(), func(r *workspace.Record) (bool, error) {
		// Draft files that no buffer holds any more only take room.
		swept, err := store.SweepDrafts(r)
		if err != nil {
			opt.Warn(fmt.Sprintf("could not look for leftover drafts: %v", err))
		}
		if r.ActiveRoot != "" {
			return swept, nil
		}
		r.ActiveRoot, r.RootBy, r.RootAt = start, "editord --root", time.Now().Unix()
		r.Session(start)
		return true, nil
	}); err != nil {
		opt.Warn(fmt.Sprintf("could not record the active root: %v", err))
	}
	return s, nil
}

// gitConfigDeny are the deny globs added unless jail.allow_git_config: a
// repository's config (remote URLs can carry tokens) is never returned.
// git functions read it through gitops, which the deny globs do not bind
// inside .git.
var gitConfigDeny = []string{"**/.git/config", "**/.git/modules/**/config"}

// checkNotGitDir refuses a workspace root that is a git dir or inside one:
// a .git folder (or anything beneath it), or a bare repository or
// separate git dir (a folder holding HEAD, objects/ and refs/), looked for
// from root up to its jail root. Such a root would hand git's own files to
// every surface as ordinary text to edit.
func checkNotGitDir(j *shell.Jail, root string) error {
	top := ""
	for _, r := range j.Roots() {
		if (root == r || strings.HasPrefix(root, r+"/") || r == "/") && len(r) > len(top) {
			top = r
		}
	}
	for d := root; ; d = filepath.Dir(d) {
		if filepath.Base(d) == ".git" || isGitDir(j, d) {
			return shell.Errorf(shell.CodeDenied, root,
				"%s is inside the git dir %s; a workspace root must be a working folder (git's own files change only through editor::git::* functions): open the folder that holds the repository instead", root, d)
		}
		if d == top || filepath.Dir(d) == d {
			return nil
		}
	}
}

// isGitDir reports whether d holds a git dir's HEAD file, objects/ and
// refs/ folders.
func isGitDir(j *shell.Jail, d string) bool {
	for name, kind := range map[string]string{"HEAD": shell.KindFile, "objects": shell.KindDir, "refs": shell.KindDir} {
		in, err := j.Stat(filepath.Join(d, name))
		if err != nil || in.Kind != kind {
			return false
		}
	}
	return true
}

// DefaultStateDir is where a project's record lives when no --state-dir is
// given: one folder per project, so processes on one project share a
// record and different projects never do by accident. The project is the
// git repository holding the jail root when there is one (so --root /p and
// --root /p/sub share one record, one journal and one save lock), else the
// canonical jail root itself.
func DefaultStateDir(jailRoot string) string {
	base := os.Getenv("EDITORD_STATE_DIR")
	if base != "" {
		return base
	}
	state := os.Getenv("XDG_STATE_HOME")
	if state == "" {
		home, _ := os.UserHomeDir()
		state = filepath.Join(home, ".local", "state")
	}
	project := jailRoot
	if top := shell.RepoTop(jailRoot); top != "" {
		project = top
	}
	sum := sha256.Sum256([]byte(project))
	return filepath.Join(state, "editord", filepath.Base(project)+"-"+hex.EncodeToString(sum[:4]))
}

// Close releases the jail and the state dir.
func (s *Service) Close() error {
	s.stopRuns()
	s.lsp.Close()
	s.find.Close()
	s.turns.Close()
	s.store.Close()
	return s.jail.Close()
}

// Config returns the configuration in force.
func (s *Service) Config() Config { return s.cfg }

// StateDir is the state dir in use.
func (s *Service) StateDir() string { return s.store.Dir() }

// root returns the active root of the shared record.
func (s *Service) root() (string, error) {
	var r string
	var err error
	s.store.View(func(rec *workspace.Record) { r, err = s.rootOf(rec) })
	return r, err
}

// rootOf is the active root of rec as this process serves it: the shared
// active root, or this process's own --root while the shared one is
// outside its jail. Processes on nested roots of one repository share a
// record (DefaultStateDir): one started with --root /p/sub cannot serve an
// active root /p, and serves /p/sub instead of refusing every call; every
// response names the root it used, and when the shared root moves inside
// this jail the process follows it (and its writers get root_changed).
func (s *Service) rootOf(rec *workspace.Record) (string, error) {
	r := rec.ActiveRoot
	if r == "" || !s.jail.Contains(r) {
		return s.start, nil
	}
	return r, nil
}

// Store is the shared record, for front ends that deliver its changes.
func (s *Service) Store() *workspace.Store { return s.store }
