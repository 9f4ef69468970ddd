package gitops

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"strings"
	"sync"

	"github.com/editord/editord/shell"
	"github.com/go-git/go-billy/v5"
	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/storage/filesystem"
	"github.com/go-git/go-git/v5/storage/filesystem/dotgit"
)

// Repo is one open repository. It is not safe for concurrent use; open one
// per call (opening is cheap: nothing is read until it is needed).
type Repo struct {
	jail    *shell.Jail
	top     string           // absolute worktree folder
	gitDir  string           // absolute .git folder (per worktree)
	gfs     billy.Filesystem // .git as go-git sees it (commondir aware)
	wfs     *shell.BillyFS   // the worktree
	closers []io.Closer
	st      *filesystem.Storage
	cfg     *gitConfig
	repo    *git.Repository // go-git's view, made on first use

	packsOnce sync.Once // packs, listed on first object read (rawobject.go)
	packsMu   sync.Mutex
	packs     []*pack

	memTrees  map[plumbing.Hash][]byte // trees built in memory, not stored (holdTrees)
	bases     *lru[baseKey, baseObj]   // delta bases inflated by this call (rawobject.go)
	basesOnce sync.Once
}

// ErrNotRepository is wrapped by the not_a_repository error Open returns.
var ErrNotRepository = errors.New("not a git repository")

// Open finds the repository holding root (root itself or a parent, inside
// the jail) and opens it. Outside a repository it fails with
// not_a_repository.
func Open(j *shell.Jail, root string) (*Repo, error) {
	top, gitDir, err := discover(j, root)
	if err != nil {
		return nil, err
	}
	r := &Repo{jail: j, top: top, gitDir: gitDir}
	ok := false
	defer func() {
		if !ok {
			r.Close()
		}
	}()
	gfs, err := j.GitFS(gitDir)
	if err != nil {
		return nil, err
	}
	r.closers = append(r.closers, gfs)
	r.gfs = gfs
	if data, err := readAll(gfs, "commondir"); err != nil && !isNotExist(err) {
		return nil, gitErr(top, "read "+filepath.Join(gitDir, "commondir"), err)
	} else if err == nil {
		common := strings.TrimSpace(string(data))
		if !filepath.IsAbs(common) {
			common = filepath.Join(gitDir, common)
		}
		cfs, err := j.GitFS(filepath.Clean(common))
		if err != nil {
			return nil, notRepo(root, fmt.Sprintf("its common git folder %s cannot be opened inside the jail: %v", common, err))
		}
		r.closers = append(r.closers, cfs)
		r.gfs = dotgit.NewRepositoryFilesystem(gfs, cfs)
	}
	wfs, err := j.WorktreeFS(top)
	if err != nil {
		return nil, err
	}
	r.closers = append(r.closers, wfs)
	r.wfs = wfs
	local, err := readAll(r.gfs, "config")
	if err != nil && !isNotExist(err) {
		return nil, gitErr(top, "read the repository's configuration", err)
	}
	if r.cfg, err = loadConfig(local); err != nil {
		return nil, err
	}
	if f := r.cfg.str("extensions", "", "objectformat"); f != "" && !strings.EqualFold(f, "sha1") {
		return nil, shell.Errorf(shell.CodeGitFailed, top, "the repository at %s uses %s object names, which editord's git functions do not support yet; everything else works", top, f)
	}
	r.st = filesystem.NewStorageWithOptions(r.gfs, cache.NewObjectLRU(32*cache.MiByte), filesystem.Options{KeepDescriptors: true})
	r.closers = append(r.closers, r.st)
	ok = true
	return r, nil
}

// discover walks up from root to the folder holding .git, staying inside
// the jail.
func discover(j *shell.Jail, root string) (top, gitDir string, err error) {
	dir := filepath.Clean(root)
	for {
		dotgit := filepath.Join(dir, ".git")
		if in, err := j.Lstat(dotgit); err == nil {
			switch in.Kind {
			case shell.KindDir:
				if _, err := j.Lstat(filepath.Join(dotgit, "HEAD")); err == nil {
					return dir, dotgit, nil
				}
			case shell.KindFile:
				res, err := j.ReadFile(dotgit, 4096)
				if err == nil {
					line := strings.TrimSpace(string(res.Data))
					if target, ok := strings.CutPrefix(line, "gitdir:"); ok {
						target = strings.TrimSpace(target)
						if !filepath.IsAbs(target) {
							target = filepath.Join(dir, target)
						}
						target = filepath.Clean(target)
						if !j.Contains(target) {
							return "", "", notRepo(root, fmt.Sprintf("%s points at the git folder %s, which is outside the jail", dotgit, target))
						}
						return dir, target, nil
					}
				}
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir || !j.Contains(parent) {
			if parent != dir {
				if top := shell.RepoTop(parent); top != "" {
					return "", "", &shell.Error{Code: shell.CodeNotARepository, Path: root, Err: ErrNotRepository,
						Message: fmt.Sprintf("%s is inside the git repository at %s, whose top lies outside the jail; git functions work only on a repository wholly inside the jail, so they are off here. Everything else works.", root, top)}
				}
			}
			return "", "", notRepo(root, "")
		}
		dir = parent
	}
}

func notRepo(root, why string) error {
	msg := fmt.Sprintf("%s is not inside a git repository (no .git in it or in a parent folder inside the jail)", root)
	if why != "" {
		msg = fmt.Sprintf("%s is not usable as a git repository: %s", root, why)
	}
	return &shell.Error{Code: shell.CodeNotARepository, Path: root, Err: ErrNotRepository,
		Message: msg + "; git functions need one, and editord does not create repositories. Everything else works without it."}
}

// Close releases the repository's file handles.
func (r *Repo) Close() error {
	for i := len(r.closers) - 1; i >= 0; i-- {
		r.closers[i].Close()
	}
	r.closers = nil
	return nil
}

// Top is the absolute path of the worktree.
func (r *Repo) Top() string { return r.top }

// Rel maps an absolute path to a repository-relative one ("" for the top).
// A path outside the worktree is invalid_argument.
func (r *Repo) Rel(abs string) (string, error) {
	abs = filepath.Clean(abs)
	if abs == r.top {
		return "", nil
	}
	if rel, ok := strings.CutPrefix(abs, r.top+"/"); ok || r.top == "/" {
		if r.top == "/" {
			rel = strings.TrimPrefix(abs, "/")
		}
		rel = filepath.ToSlash(rel)
		if rel == ".git" || strings.HasPrefix(rel, ".git/") {
			return "", shell.Errorf(shell.CodeInvalidArgument, abs, "%s is inside .git, which holds git's own data, not files of the repository", abs)
		}
		return rel, nil
	}
	return "", shell.Errorf(shell.CodeInvalidArgument, abs, "%s is outside the repository at %s", abs, r.top)
}

// Abs maps a repository-relative path to an absolute one.
func (r *Repo) Abs(rel string) string {
	if rel == "" {
		return r.top
	}
	return filepath.Join(r.top, filepath.FromSlash(rel))
}

// goGit is go-git's Repository over the same storage, for revision parsing
// and the network.
func (r *Repo) goGit() (*git.Repository, error) {
	if r.repo == nil {
		repo, err := git.Open(&fastStore{Storage: r.st, r: r}, r.wfs)
		if err != nil {
			return nil, gitErr(r.top, "open the repository", err)
		}
		r.repo = repo
	}
	return r.repo, nil
}

func readAll(fsys billy.Filesystem, name string) ([]byte, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

// gitErr wraps a failure of git machinery (a corrupt object, a lock held by
// another process) as git_failed, keeping coded errors as they are.
func gitErr(where, doing string, err error) error {
	var se *shell.Error
	if errors.As(err, &se) {
		return err
	}
	return &shell.Error{Code: shell.CodeGitFailed, Path: where, Err: err,
		Message: fmt.Sprintf("could not %s in %s: %v", doing, where, err)}
}

// head describes HEAD: the branch it names (empty when detached), the
// commit (zero on an unborn branch).
type head struct {
	branch string // refs/heads/... ; "" when detached
	hash   plumbing.Hash
}

func (h head) unborn() bool { return h.hash.IsZero() }

// shortBranch is the branch name without refs/heads/.
func (h head) shortBranch() string { return strings.TrimPrefix(h.branch, "refs/heads/") }

// headTree is the tree of h's commit, zero on an unborn branch.
func (r *Repo) headTree(h head) (plumbing.Hash, error) {
	if h.unborn() {
		return plumbing.ZeroHash, nil
	}
	c, err := r.readCommit(h.hash)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	return c.tree, nil
}

func (r *Repo) head() (head, error) {
	ref, err := r.st.Reference(plumbing.HEAD)
	if err != nil {
		if perr := r.refFileProblem(plumbing.HEAD); perr != nil {
			err = perr
		}
		return head{}, gitErr(r.top, "read HEAD", err)
	}
	var h head
	for range 5 {
		if ref.Type() != plumbing.SymbolicReference {
			h.hash = ref.Hash()
			return h, nil
		}
		h.branch = ref.Target().String()
		next, err := r.st.Reference(ref.Target())
		if err != nil {
			if perr := r.refFileProblem(ref.Target()); perr != nil {
				err = perr
			}
		}
		if errors.Is(err, plumbing.ErrReferenceNotFound) {
			return h, nil // unborn branch
		}
		if err != nil {
			return head{}, gitErr(r.top, "read "+h.branch, err)
		}
		ref = next
	}
	return head{}, gitErr(r.top, "read HEAD", errors.New("symbolic reference loop"))
}

// ref reads a reference's commit, zero when it does not exist.
func (r *Repo) ref(name plumbing.ReferenceName) (plumbing.Hash, error) {
	ref, err := storer.ResolveReference(r.st, name)
	if err != nil {
		if perr := r.refFileProblem(name); perr != nil {
			err = perr
		}
	}
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		return plumbing.ZeroHash, nil
	}
	if err != nil {
		return plumbing.ZeroHash, gitErr(r.top, "read "+name.String(), err)
	}
	return ref.Hash(), nil
}

// refFileProblem is the error of a loose reference file that is there
// but is not a regular file (a FIFO, a device), or nil. go-git reads such
// a reference as missing and falls back to packed-refs: a branch would
// look unborn, and a commit would start a new history.
func (r *Repo) refFileProblem(name plumbing.ReferenceName) error {
	f, err := r.gfs.Open(name.String())
	if err == nil {
		f.Close()
		return nil
	}
	if notRegular(err) && shell.CodeOf(err) != shell.CodeIsADirectory {
		return err
	}
	return nil
}

// isNotExist reports a missing file from billy or shell.
func isNotExist(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || shell.CodeOf(err) == shell.CodeNotFound
}

// splitPath splits a repository path into its folder ("" at the top) and
// name.
func splitPath(p string) (dir, name string) {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[:i], p[i+1:]
	}
	return "", p
}

func joinPath(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}

// fastStore is the repository's storage for go-git with objects read by
// editord's own reader (rawobject.go): go-git's walks (the haves of a
// fetch visit up to 100 commits per ref) would otherwise decode its whole
// pack index and every delta chain through its slower path. Objects the
// reader does not find (a pack written since it listed them) come from
// go-git.
type fastStore struct {
	*filesystem.Storage
	r *Repo
}

func (s *fastStore) EncodedObject(t plumbing.ObjectType, h plumbing.Hash) (plumbing.EncodedObject, error) {
	obj, err := s.r.readRaw(h, fastStoreMax)
	if err != nil || obj.skipped || t != plumbing.AnyObject && obj.typ != t {
		return s.Storage.EncodedObject(t, h) // large objects stream from go-git
	}
	mo := &plumbing.MemoryObject{}
	mo.SetType(obj.typ)
	mo.Write(obj.data)
	return mo, nil
}

// fastStoreMax is the largest object fastStore reads whole.
const fastStoreMax = 8 << 20

func (s *fastStore) HasEncodedObject(h plumbing.Hash) error {
	if _, _, ok := s.r.findPacked(h); ok {
		return nil
	}
	return s.Storage.HasEncodedObject(h)
}
