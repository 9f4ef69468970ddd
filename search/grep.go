package search

// Content search: parallel over files, ordered output, early stop.
//
// The files (the cached tree, in byte order of path, minus symlinks and
// glob misses) are cut into batches of consecutive files. Workers (one per
// core) claim batches in order, read each file with a reused buffer through
// a shell.TreeReader (which keeps the file's folders open, so a file costs
// openat+fstat+read+close), and scan it whole. A collector consumes the
// batches in order, so the output is the same bytes whatever the number of
// cores or their timing: files in path order, hits in line order, and the
// first max_matches hits in that order.
//
// Early stop: the search wants max_matches+1 hits (one more tells whether
// it was truncated). As soon as the batches consumed in order hold that many,
// every worker stops. Before that, each file is scanned for no more hits
// than could still be kept: want minus the hits already found in the files
// before it. Workers run at most a window of batches ahead of the collector,
// which bounds the hits held in memory.

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/editord/editord/shell"
)

// SearchOptions are the inputs of editor::search.
type SearchOptions struct {
	Pattern string
	MatchOptions
	Include      []string // include_glob
	Exclude      []string // exclude_glob
	MaxMatches   int      // hits kept
	MaxFileBytes int64    // larger files are read in pieces (stream.go), not whole
	PerFile      int      // hits kept per file at most (0: no limit); 1 lists matching files
	// Progress, when set, hears how many files of how many were searched,
	// in path order, every progressEvery files (a long search run as an
	// MCP task reports it).
	Progress func(done, total int)
}

// progressEvery is how many files a search reports progress after.
const progressEvery = 1024

// FileHits is one file's hits.
type FileHits struct {
	Path string
	Hits []Hit
}

// SearchResult is what editor::search returns.
type SearchResult struct {
	Files        []FileHits
	Total        int  // hits returned
	FilesScanned int  // files considered (in path order) before the search ended
	Truncated    bool // more than MaxMatches hits exist
	// Skipped lists the first MaxSkipped files (in path order, among those
	// considered) not searched to their end, and why; SkippedTotal counts
	// them all.
	Skipped      []Skipped
	SkippedTotal int
}

// Skipped is a file a search did not read to its end.
type Skipped struct {
	Path   string
	Reason string
}

// MaxSkipped is how many skipped files a result names.
const MaxSkipped = 20

// Search runs a content search over the root.
func (e *Engine) Search(ctx context.Context, root string, opt SearchOptions) (*SearchResult, error) {
	if opt.MaxMatches <= 0 {
		return nil, invalidf("max_matches must be 1 or more, not %d", opt.MaxMatches)
	}
	m, err := Compile(opt.Pattern, opt.MatchOptions)
	if err != nil {
		return nil, err
	}
	gf, err := newGlobFilter(opt.Include, opt.Exclude)
	if err != nil {
		return nil, err
	}
	s := e.state(root)
	s.mu.Lock()
	f, err := s.refresh(findRepo(s.j, root), true, false)
	var files []shell.TreeFile
	if err == nil {
		files = s.plainFiles(f.tree)
	}
	s.mu.Unlock()
	if err != nil {
		return nil, err
	}
	if gf.include != nil || gf.exclude != nil {
		kept := make([]shell.TreeFile, 0, len(files))
		for _, t := range files {
			if gf.match(t.Rel) {
				kept = append(kept, t)
			}
		}
		files = kept
	}
	return grep(ctx, f.tree, files, m, opt.MaxMatches, opt.MaxFileBytes, opt.PerFile, opt.Progress)
}

const (
	grepBatch  = 16 // files per batch
	grepWindow = 4  // batches in flight per worker, at most
)

type grepBatchResult struct {
	b     int      // batch number
	hits  [][]Hit  // per file of the batch
	skips []string // per file of the batch: why it was not searched to its end ("": it was)
	err   error
}

func grep(ctx context.Context, tree *shell.FileTree, files []shell.TreeFile, m *Matcher, maxMatches int, maxBytes int64, perFile int, progress func(done, total int)) (*SearchResult, error) {
	res := &SearchResult{Files: []FileHits{}, Skipped: []Skipped{}}
	n := len(files)
	if n == 0 {
		return res, nil
	}
	want := int64(maxMatches) + 1
	nb := (n + grepBatch - 1) / grepBatch
	workers := max(1, min(runtime.GOMAXPROCS(0), nb))

	var (
		next      atomic.Int64 // next batch to claim
		stopped   atomic.Bool
		quit      = make(chan struct{})
		stopOnce  sync.Once
		consumed  atomic.Int64          // batches consumed in order by the collector
		prefix    = make([]int64, nb+1) // prefix[c]: hits in batches before c, once consumed >= c
		batchHits = make([]atomic.Int64, nb)
		tokens    = make(chan struct{}, workers*grepWindow)
		out       = make(chan grepBatchResult, workers*grepWindow)
		wg        sync.WaitGroup
	)
	stop := func() {
		stopOnce.Do(func() {
			stopped.Store(true)
			close(quit)
		})
	}
	// need is an upper bound on the hits a file of batch b can still
	// contribute: want minus the hits already counted in files before it
	// (those of the consumed batches, of the batches in flight before b, and
	// earlier ones of b itself).
	need := func(b int, earlier int64) int64 {
		c := int(consumed.Load())
		left := want - prefix[c] - earlier
		for ; c < b; c++ {
			left -= batchHits[c].Load()
		}
		return left
	}
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rd, err := tree.NewReader()
			if err != nil {
				out <- grepBatchResult{b: -1, err: err}
				stop()
				return
			}
			defer rd.Close()
			sc := scanner{m: m}
			var big, big2 []byte // a piece of a file too large to read whole (two: its halves)
			defer func() { putChunk(big); putChunk(big2) }()
			for !stopped.Load() {
				select {
				case tokens <- struct{}{}:
				case <-quit:
					return
				case <-ctx.Done():
					stop()
					return
				}
				if ctx.Err() != nil {
					stop()
					return
				}
				b := int(next.Add(1) - 1)
				if b >= nb || stopped.Load() {
					return
				}
				lo, hi := b*grepBatch, min((b+1)*grepBatch, n)
				r := grepBatchResult{b: b, hits: make([][]Hit, hi-lo), skips: make([]string, hi-lo)}
				var earlier int64
				for i := lo; i < hi && !stopped.Load(); i++ {
					limit := need(b, earlier)
					if perFile > 0 {
						limit = min(limit, int64(perFile))
					}
					if limit <= 0 {
						continue // the cut is before this file
					}
					data, skip, err := rd.ReadFile(files[i], maxBytes, true)
					var hits []Hit
					switch {
					case err != nil && shell.CodeOf(err) == shell.CodeNotFound:
						continue // vanished since the listing
					case err != nil:
						r.skips[i-lo] = SkipUnreadable + ": " + shell.AsError(err, files[i].Rel).Message
						continue
					case skip == shell.TreeBinary:
						r.skips[i-lo] = SkipBinary
						continue
					case skip == shell.TreeNotRegular:
						r.skips[i-lo] = SkipNotRegular
						continue
					case skip == shell.TreeTooLarge:
						h, err := rd.Open(files[i].Rel)
						if err != nil {
							if shell.CodeOf(err) != shell.CodeNotFound {
								r.skips[i-lo] = SkipUnreadable + ": " + shell.AsError(err, files[i].Rel).Message
							}
							continue
						}
						hits, r.skips[i-lo] = sc.scanStreamHalves(h, h.Info.Size, int(min(limit, want)), &big, &big2)
						h.Close()
					default:
						hits = sc.scanHalves(data, int(min(limit, want)))
					}
					if len(hits) > 0 {
						r.hits[i-lo] = hits
						earlier += int64(len(hits))
						batchHits[b].Add(int64(len(hits)))
					}
				}
				out <- r
			}
		}()
	}
	go func() {
		wg.Wait()
		close(out)
	}()

	var (
		pending  = map[int]grepBatchResult{}
		total    int64
		cut      = -1 // the file holding the last wanted hit
		firstErr error
	)
	for r := range out {
		if r.err != nil {
			if firstErr == nil {
				firstErr = r.err
			}
			continue
		}
		if cut >= 0 {
			continue
		}
		pending[r.b] = r
		for cut < 0 {
			c := int(consumed.Load())
			br, ok := pending[c]
			if !ok {
				break
			}
			delete(pending, c)
			lo := c * grepBatch
			for k, hits := range br.hits {
				if why := br.skips[k]; why != "" {
					res.SkippedTotal++
					if len(res.Skipped) < MaxSkipped {
						res.Skipped = append(res.Skipped, Skipped{Path: files[lo+k].Rel, Reason: why})
					}
				}
				if len(hits) == 0 {
					continue
				}
				if left := want - total; int64(len(hits)) >= left {
					hits = hits[:left]
					cut = lo + k
				}
				total += int64(len(hits))
				res.Files = append(res.Files, FileHits{Path: files[lo+k].Rel, Hits: hits})
				if cut >= 0 {
					break
				}
			}
			prefix[c+1] = prefix[c] + batchHits[c].Load()
			consumed.Store(int64(c + 1))
			if progress != nil && (c+1)%(progressEvery/grepBatch) == 0 {
				progress((c+1)*grepBatch, n)
			}
			<-tokens
			if cut >= 0 {
				stop()
			}
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if firstErr != nil {
		return nil, firstErr
	}
	if cut < 0 && int(consumed.Load()) < nb {
		// Workers stopped without a cut: only an error or a cancel does that.
		return nil, shell.Errorf(shell.CodeInternal, "", "search ended early without a reason")
	}
	res.FilesScanned = n
	if total == want {
		// One hit more than wanted exists: drop it and say so.
		res.Truncated = true
		last := &res.Files[len(res.Files)-1]
		last.Hits = last.Hits[:len(last.Hits)-1]
		if len(last.Hits) == 0 {
			res.Files = res.Files[:len(res.Files)-1]
		}
		total--
	}
	if cut >= 0 {
		res.FilesScanned = cut + 1
	}
	res.Total = int(total)
	return res, nil
}
