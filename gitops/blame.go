package gitops

import (
	"container/heap"
	"context"
	"sort"

	"github.com/editord/editord/diff"
	"github.com/editord/editord/shell"
	"github.com/go-git/go-git/v5/plumbing"
)

// Blame as git blame computes it: every line of the file starts blamed on
// the newest commit; commits are visited newest first, and each passes to
// its parents (through a line diff, git's own) the lines it did not
// change, keeping those it added; a parent holding the very same file
// takes them all; a file added by a rename is followed to its old name.

// BlameOptions selects what to blame.
type BlameOptions struct {
	Rev   string // default HEAD
	Path  string // repository-relative
	Start int    // first line (1-based); 0: 1
	End   int    // last line; 0: the end of the file
}

// BlameLine is one line of the file with the commit that last changed it.
type BlameLine struct {
	Line     int // in the file at Rev, 1-based
	SHA      string
	OrigLine int    // the line's number in that commit's version
	OrigPath string // the file's name in that commit
	Author   string
	Email    string
	Date     int64
	Summary  string
	Text     string
}

type blameRange struct {
	final int // first line in the blamed file, 0-based
	start int // first line in the suspect's version
	n     int
}

type blameSuspect struct {
	commit plumbing.Hash
	path   string
	c      *commitInfo
	ranges []blameRange
	seq    int
	queued bool
}

func (s *blameSuspect) order() (int64, int) { return s.c.time, s.seq }

type blamer struct {
	r       *Repo
	q       commitQueue[*blameSuspect]
	byKey   map[string]*blameSuspect
	seq     int
	records *lru[plumbing.Hash, [][]byte]
	out     []BlameLine
}

// lines splits a blob into records, keeping the last few: each version is
// needed as the newer side of one diff and the older side of the next.
func (b *blamer) lines(h plumbing.Hash) ([][]byte, error) {
	if recs, ok := b.records.get(h); ok {
		return recs, nil
	}
	data, err := b.r.readBlob(h)
	if err != nil {
		return nil, err
	}
	recs := diff.Records(data)
	b.records.put(h, recs)
	return recs, nil
}

// give hands ranges to the suspect (commit, path), queueing it.
func (b *blamer) give(commit plumbing.Hash, path string, rs []blameRange) error {
	if len(rs) == 0 {
		return nil
	}
	key := commit.String() + "\x00" + path
	s := b.byKey[key]
	if s == nil {
		c, err := b.r.readCommit(commit)
		if err != nil {
			return err
		}
		b.seq++
		s = &blameSuspect{commit: commit, path: path, c: c, seq: b.seq}
		b.byKey[key] = s
	}
	s.ranges = append(s.ranges, rs...)
	if !s.queued {
		s.queued = true
		heap.Push(&b.q, s)
	}
	return nil
}

// Blame returns the blamed lines of a file, in order.
func (r *Repo) Blame(ctx context.Context, opt BlameOptions) ([]BlameLine, int, error) {
	start, ok, err := r.resolve(opt.Rev)
	if err != nil {
		return nil, 0, err
	}
	if !ok {
		return nil, 0, shell.Errorf(shell.CodeNotFound, r.Abs(opt.Path), "the branch has no commit yet; there is no history to blame")
	}
	c, err := r.readCommit(start)
	if err != nil {
		return nil, 0, err
	}
	te, found, err := r.lookupPath(c.tree, opt.Path)
	if err != nil {
		return nil, 0, err
	}
	if !found || te.isDir() || te.mode == modeGitlink {
		return nil, 0, shell.Errorf(shell.CodeNotFound, r.Abs(opt.Path), "%s is not a file at %s; blame needs a file that is committed there (editor::git::status lists what is new)", opt.Path, revName(opt.Rev))
	}
	b := &blamer{r: r, byKey: map[string]*blameSuspect{}, records: newLRU[plumbing.Hash](16, one[[][]byte])}
	recs, err := b.lines(te.hash)
	if err != nil {
		return nil, 0, err
	}
	if shell.IsBinary(flatten(recs, 8000)) {
		return nil, 0, shell.Errorf(shell.CodeBinary, r.Abs(opt.Path), "%s is binary; blame reads text files", opt.Path)
	}
	total := len(recs)
	first, last := max(opt.Start, 1), opt.End
	if last <= 0 || last > total {
		last = total
	}
	if first > last {
		if total == 0 {
			return nil, 0, nil
		}
		return nil, total, shell.Errorf(shell.CodeInvalidArgument, r.Abs(opt.Path), "lines %d-%d are outside %s, which has %d lines", opt.Start, opt.End, opt.Path, total)
	}
	if err := b.give(start, opt.Path, []blameRange{{final: first - 1, start: first - 1, n: last - first + 1}}); err != nil {
		return nil, 0, err
	}
	for b.q.Len() > 0 {
		if err := ctx.Err(); err != nil {
			return nil, 0, err
		}
		s := heap.Pop(&b.q).(*blameSuspect)
		s.queued = false
		ranges := s.ranges
		s.ranges = nil
		if err := b.pass(s, ranges); err != nil {
			return nil, 0, err
		}
	}
	sort.Slice(b.out, func(i, j int) bool { return b.out[i].Line < b.out[j].Line })
	for i := range b.out {
		b.out[i].Text = string(recs[b.out[i].Line-1])
	}
	return b.out, total, nil
}

func flatten(recs [][]byte, max int) []byte {
	var out []byte
	for _, r := range recs {
		out = append(out, r...)
		if len(out) >= max {
			break
		}
	}
	return out
}

// pass gives a suspect's ranges to its parents and blames it for the rest.
func (b *blamer) pass(s *blameSuspect, ranges []blameRange) error {
	te, _, err := b.r.lookupPath(s.c.tree, s.path)
	if err != nil {
		return err
	}
	type parentFile struct {
		commit plumbing.Hash
		path   string
		blob   plumbing.Hash
	}
	var parents []parentFile
	for _, p := range s.c.parents {
		pc, err := b.r.readCommit(p)
		if err != nil {
			return err
		}
		path := s.path
		pe, ok, err := b.r.lookupPath(pc.tree, path)
		if err != nil {
			return err
		}
		if !ok || pe.isDir() {
			src, found := b.r.renameSource(pc.tree, s.c.tree, path)
			if !found {
				continue
			}
			path = src
			if pe, ok, err = b.r.lookupPath(pc.tree, path); err != nil || !ok {
				continue
			}
		}
		if pe.mode == modeGitlink {
			continue
		}
		parents = append(parents, parentFile{p, path, pe.hash})
	}
	// A parent with the very same file takes everything.
	for _, pf := range parents {
		if pf.blob == te.hash {
			return b.give(pf.commit, pf.path, ranges)
		}
	}
	mine, err := b.r.readBlob(te.hash)
	if err != nil {
		return err
	}
	for _, pf := range parents {
		if len(ranges) == 0 {
			break
		}
		theirs, err := b.r.readBlob(pf.blob)
		if err != nil {
			return err
		}
		var passed, kept []blameRange
		// Unchanged stretches: lines [c, c+n) here are [p, p+n) there.
		sms, _ := diff.Unchanged(theirs, mine)
		for _, rg := range ranges {
			pos := rg.start
			end := rg.start + rg.n
			for _, sm := range sms {
				if pos >= end {
					break
				}
				lo, hi := max(pos, sm.New), min(end, sm.New+sm.N)
				if lo >= hi {
					continue
				}
				if lo > pos {
					kept = append(kept, blameRange{final: rg.final + (pos - rg.start), start: pos, n: lo - pos})
				}
				passed = append(passed, blameRange{final: rg.final + (lo - rg.start), start: sm.Old + (lo - sm.New), n: hi - lo})
				pos = hi
			}
			if pos < end {
				kept = append(kept, blameRange{final: rg.final + (pos - rg.start), start: pos, n: end - pos})
			}
		}
		if err := b.give(pf.commit, pf.path, passed); err != nil {
			return err
		}
		ranges = kept
	}
	var author, email string
	var date int64
	{
		var e LogEntry
		fillAuthor(&e, s.c)
		author, email, date = e.Author, e.Email, e.Date
	}
	sum := shownSubject(s.c.message)
	for _, rg := range ranges {
		for k := 0; k < rg.n; k++ {
			b.out = append(b.out, BlameLine{Line: rg.final + k + 1, SHA: s.commit.String(), OrigLine: rg.start + k + 1, OrigPath: s.path,
				Author: author, Email: email, Date: date, Summary: sum})
		}
	}
	return nil
}
