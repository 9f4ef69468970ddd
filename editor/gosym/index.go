package gosym

import (
	"hash/maphash"
	"path"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/editord/editord/search"
)

// Index holds the declarations of a workspace's Go files, ready for
// queries. It is told of files (Set, Remove, Move) and modules (SetModule)
// by its owner, who reads them; it reads nothing itself.
//
// The files are spread over shards by folder; each shard keeps its
// declarations' ranked texts prepared (search.PrepareQualified), and a
// change prepares its shard again only, on the next query: an agent's
// edit costs a query about a shard's worth (~1/64 of the workspace)
// instead of all of it.
type Index struct {
	mu     sync.Mutex
	files  map[string]*file // root-relative path → its declarations
	shards [shardCount]shard
	mods   map[string]string // folder holding a go.mod ("" for the root) → its module path
}

// shardCount is fixed: enough that a query spreads over every core and a
// change re-prepares little, few enough that merging shards' answers is
// cheap.
const shardCount = 64

type file struct {
	rel   string
	pkg   string // the package clause's name
	decls []Decl
	// texts are what queries rank: pkg.Name for each declaration, whose
	// Name is the text's tail (one string for both).
	texts []string
}

type shard struct {
	files map[string]*file
	dirty bool
	// Built from files when dirty: entry i is texts[i] = pkg.Name,
	// declared at refs[i].
	texts []string
	refs  []ref
	cands *search.Candidates
}

type ref struct {
	f *file
	i int
}

// New is an empty index.
func New() *Index {
	x := &Index{files: map[string]*file{}, mods: map[string]string{}}
	for i := range x.shards {
		x.shards[i].files = map[string]*file{}
	}
	return x
}

var seed = maphash.MakeSeed()

// shardOf places a file by its folder: a package's files share a shard,
// and a change to a package re-prepares one shard.
func shardOf(rel string) int {
	return int(maphash.String(seed, path.Dir(rel)) % shardCount)
}

// Indexed reports whether rel is a Go file the index takes: a .go file
// outside the folders the go command skips (vendor, testdata, and those
// whose name starts with . or _).
func Indexed(rel string) bool {
	if !strings.HasSuffix(rel, ".go") {
		return false
	}
	for seg := range strings.SplitSeq(rel, "/") {
		if seg == "" || seg[0] == '.' || seg[0] == '_' {
			return false
		}
	}
	dir := path.Dir(rel)
	for seg := range strings.SplitSeq(dir, "/") {
		if seg == "vendor" || seg == "testdata" {
			return false
		}
	}
	return true
}

// Set parses src as file rel's content and keeps its declarations (none
// when the build leaves the file out); a path the index does not take
// (Indexed) is left out.
func (x *Index) Set(rel string, src []byte) {
	if Indexed(rel) {
		x.put(parsed(rel, src))
	}
}

func parsed(rel string, src []byte) *file {
	pkg, decls, ok := Parse(rel, src)
	if !ok {
		return &file{rel: rel}
	}
	texts := make([]string, len(decls))
	for i := range decls {
		texts[i] = pkg + "." + decls[i].Name
		decls[i].Name = texts[i][len(pkg)+1:]
	}
	return &file{rel: rel, pkg: pkg, decls: decls, texts: texts}
}

func (x *Index) put(f *file) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.removeLocked(f.rel)
	x.files[f.rel] = f
	s := &x.shards[shardOf(f.rel)]
	s.files[f.rel] = f
	s.dirty = true
}

// SetAll parses many files at once, on every core: read gives a file's
// content (false: it is gone or unreadable, and is left out).
func (x *Index) SetAll(rels []string, read func(rel string) ([]byte, bool)) {
	work := make(chan string)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for rel := range work {
				if src, ok := read(rel); ok {
					x.Set(rel, src)
				}
			}
		}()
	}
	for _, rel := range rels {
		work <- rel
	}
	close(work)
	wg.Wait()
}

// Remove forgets file rel, or every file and module in folder rel.
func (x *Index) Remove(rel string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	for _, r := range x.under(rel) {
		x.removeLocked(r)
	}
	for d := range x.mods {
		if d == rel || strings.HasPrefix(d, rel+"/") {
			delete(x.mods, d)
		}
	}
}

// Has reports whether rel is a file of the index.
func (x *Index) Has(rel string) bool {
	x.mu.Lock()
	defer x.mu.Unlock()
	_, ok := x.files[rel]
	return ok
}

// Len is the number of files indexed.
func (x *Index) Len() int {
	x.mu.Lock()
	defer x.mu.Unlock()
	return len(x.files)
}

// under lists the files that are rel or lie under folder rel.
func (x *Index) under(rel string) []string {
	if _, ok := x.files[rel]; ok {
		return []string{rel}
	}
	prefix := rel + "/"
	if rel == "" || rel == "." {
		prefix = ""
	}
	var out []string
	for r := range x.files {
		if strings.HasPrefix(r, prefix) {
			out = append(out, r)
		}
	}
	return out
}

func (x *Index) removeLocked(rel string) {
	if _, ok := x.files[rel]; !ok {
		return
	}
	delete(x.files, rel)
	s := &x.shards[shardOf(rel)]
	delete(s.files, rel)
	s.dirty = true
}

// SetModule records that folder dir (root-relative, "" for the root)
// holds a go.mod naming module; an empty module forgets it.
func (x *Index) SetModule(dir, module string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if dir == "." {
		dir = ""
	}
	if module == "" {
		delete(x.mods, dir)
		return
	}
	x.mods[dir] = module
}

// importPath is the import path of the package in folder dir whose
// clause names pkg: its module's path and the folder below the module's,
// with _test for an external test package; the folder itself outside
// any module.
func (x *Index) importPath(dir, pkg string) string {
	if dir == "." {
		dir = ""
	}
	p := dir
	for d := dir; ; d = path.Dir(d) {
		if d == "." {
			d = ""
		}
		if mod, ok := x.mods[d]; ok {
			p = mod
			if d != dir {
				p = mod + "/" + strings.TrimPrefix(dir, d+"/")
				if d == "" {
					p = mod + "/" + dir
				}
			}
			break
		}
		if d == "" {
			break
		}
	}
	if strings.HasSuffix(pkg, "_test") {
		p += "_test"
	}
	return p
}

// prepared brings every changed shard's ranked texts up to date and
// returns the shards' candidates, which no later change alters.
func (x *Index) prepared() []*shard {
	x.mu.Lock()
	defer x.mu.Unlock()
	out := make([]*shard, 0, shardCount)
	for i := range x.shards {
		s := &x.shards[i]
		if s.dirty {
			s.rebuild()
		}
		if len(s.texts) > 0 {
			// A copy: the next rebuild replaces the slices, not their
			// contents.
			c := *s
			out = append(out, &c)
		}
	}
	return out
}

// rebuild lists the shard's declarations in path order (so that equal
// names rank in path order) and prepares them.
func (s *shard) rebuild() {
	rels := make([]string, 0, len(s.files))
	n := 0
	for r, f := range s.files {
		rels = append(rels, r)
		n += len(f.decls)
	}
	sort.Strings(rels)
	texts := make([]string, 0, n)
	refs := make([]ref, 0, n)
	for _, r := range rels {
		f := s.files[r]
		for i := range f.decls {
			texts = append(texts, f.texts[i])
			refs = append(refs, ref{f, i})
		}
	}
	s.texts, s.refs, s.cands, s.dirty = texts, refs, search.PrepareQualified(texts), false
}
