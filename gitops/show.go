package gitops

import (
	"errors"
	"io/fs"

	"github.com/editord/editord/shell"
	"github.com/go-git/go-git/v5/plumbing"
)

// Show returns the content of path (repository-relative) at rev. exists is
// false only when the path is absent there. Files over maxBytes are
// too_large; a folder is is_a_directory.
func (r *Repo) Show(rev, path string, maxBytes int64) (content []byte, exists bool, err error) {
	if stage, ok := stageRev(rev); ok {
		idx, err := r.sharedIndex()
		if err != nil {
			return nil, false, err
		}
		e := idx.stageEntry(path, stage)
		if e == nil {
			if idx.hasPrefixDir(path) {
				return nil, false, isDirErr(path, rev)
			}
			return nil, false, nil
		}
		data, err := r.blobContent(e.Hash, normalMode(e.Mode), path, maxBytes)
		return data, err == nil, err
	}
	c, ok, err := r.revParse(rev)
	if err != nil || !ok {
		return nil, false, err
	}
	tree, err := r.treeOf(c)
	if err != nil {
		return nil, false, err
	}
	te, found, err := r.lookupPath(tree, path)
	if err != nil || !found {
		return nil, false, err
	}
	if te.isDir() {
		return nil, false, isDirErr(path, rev)
	}
	data, err := r.blobContent(te.hash, te.mode, path, maxBytes)
	return data, err == nil, err
}

func isDirErr(path, rev string) error {
	return shell.Errorf(shell.CodeIsADirectory, path, "%s is a folder at %s; pass a file path", path, revName(rev))
}

func revName(rev string) string {
	switch {
	case rev == "":
		return "HEAD"
	case indexRev(rev):
		if st, _ := stageRev(rev); st > 0 {
			return "stage " + rev[1:] + " of the index"
		}
		return "the index"
	}
	return rev
}

// blobContent reads a blob for a file of the given mode, refusing
// submodules, files over maxBytes and binary content.
//
// The content is shared with a cache of large blobs: callers must not
// modify it.
func (r *Repo) blobContent(h plumbing.Hash, mode uint32, path string, maxBytes int64) ([]byte, error) {
	if mode == modeGitlink {
		return nil, shell.Errorf(shell.CodeInvalidArgument, path, "%s is a submodule (commit %s), not a file", path, h)
	}
	if data, ok := blobCache.get(h); ok && (maxBytes <= 0 || int64(len(data)) <= maxBytes) {
		return data, nil
	}
	obj, err := r.object(h, plumbing.BlobObject, maxBytes)
	if err != nil {
		return nil, err
	}
	if obj.skipped {
		return nil, shell.Errorf(shell.CodeTooLarge, path, "%s is %d bytes in git, over the limit of %d", path, obj.size, maxBytes)
	}
	data := obj.data
	if shell.IsBinary(data) {
		return nil, shell.Errorf(shell.CodeBinary, path, "%s is binary in git (a NUL byte in its first 8 KiB); it is not returned as text", path)
	}
	if len(data) >= blobCacheMin && len(data) <= blobCacheMax {
		blobCache.put(h, data)
	}
	return data, nil
}

// blobCache keeps large text blobs read by blobContent (32 MiB in all,
// each between blobCacheMin and blobCacheMax). It serves the editor gutter: hunks against the index or
// HEAD asked again after every save, with the same blob on the old side,
// where inflating a multi-megabyte blob would cost more than the diff.
// Blobs under blobCacheMin are cheap to read and not kept.
var blobCache = newLRU[plumbing.Hash](32<<20, func(b []byte) int { return len(b) })

const (
	blobCacheMin = 256 << 10
	blobCacheMax = 8 << 20
)

// worktreeFile reads a file of the worktree as git sees it: a symlink is
// its target's text. exists is false when nothing is there.
func (r *Repo) worktreeFile(path string, maxBytes int64) (data []byte, exists bool, err error) {
	fi, err := r.wfs.Lstat(path)
	if err != nil {
		if isNotExist(err) || errors.Is(err, fs.ErrInvalid) {
			return nil, false, nil
		}
		return nil, false, shell.AsError(err, r.Abs(path))
	}
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		t, err := r.wfs.Readlink(path)
		if err != nil {
			return nil, false, shell.AsError(err, r.Abs(path))
		}
		return []byte(t), true, nil
	case fi.IsDir():
		return nil, false, shell.Errorf(shell.CodeIsADirectory, r.Abs(path), "%s is a folder; pass a file path", path)
	case !fi.Mode().IsRegular():
		return nil, false, shell.Errorf(shell.CodeInvalidArgument, r.Abs(path), "%s is not a regular file", path)
	}
	if maxBytes > 0 && fi.Size() > maxBytes {
		return nil, false, shell.Errorf(shell.CodeTooLarge, r.Abs(path), "%s is %d bytes, over the limit of %d", path, fi.Size(), maxBytes)
	}
	f, err := r.wfs.Open(path)
	if err != nil {
		return nil, false, shell.AsError(err, r.Abs(path))
	}
	defer f.Close()
	// Bounded even if the file grows after the stat.
	readMax := int64(0)
	if maxBytes > 0 {
		readMax = maxBytes + 1
	}
	if data, err = readSized(f, fi.Size(), readMax); err != nil {
		return nil, false, shell.AsError(err, r.Abs(path))
	}
	if maxBytes > 0 && int64(len(data)) > maxBytes {
		return nil, false, shell.Errorf(shell.CodeTooLarge, r.Abs(path), "%s is over the limit of %d bytes", path, maxBytes)
	}
	if shell.IsBinary(data) {
		return nil, false, shell.Errorf(shell.CodeBinary, r.Abs(path), "%s is binary (a NUL byte in its first 8 KiB)", path)
	}
	return data, true, nil
}
