package gitops

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
)

// allObjects lists every object git knows in the fixture with its type.
func (f *fixture) allObjects() map[plumbing.Hash]string {
	out := map[plumbing.Hash]string{}
	list := f.git("cat-file", "--batch-all-objects", "--batch-check=%(objectname) %(objecttype)")
	for _, line := range strings.Split(strings.TrimSpace(list), "\n") {
		name, typ, _ := strings.Cut(line, " ")
		out[plumbing.NewHash(name)] = typ
	}
	return out
}

// checkObjects reads every object both ways, ours and git's, and wants
// them equal. It returns how many were read whole (not through go-git).
func checkObjects(t *testing.T, f *fixture, r *Repo) (whole int) {
	t.Helper()
	for h, typ := range f.allObjects() {
		want := f.git("cat-file", typ, h.String())
		obj, err := r.object(h, plumbing.AnyObject, 0)
		if err != nil {
			t.Fatalf("%s %s: %v", typ, h, err)
		}
		if obj.typ.String() != typ || string(obj.data) != want || obj.size != int64(len(want)) {
			t.Fatalf("%s %s: got a %s of %d bytes, git has %d bytes", typ, h, obj.typ, len(obj.data), len(want))
		}
		if _, err := r.readRaw(h, 0); err == nil {
			whole++
		} else if !errors.Is(err, errNotWhole) {
			t.Fatalf("%s %s: %v", typ, h, err)
		}
	}
	return whole
}

func TestObjectsLoosePackedAndDeltified(t *testing.T) {
	f := newFixture(t)
	var text strings.Builder
	for i := range 400 {
		fmt.Fprintf(&text, "line %d of a file that changes a little each commit\n", i)
	}
	base := text.String()
	for v := range 6 {
		f.write("big.txt", strings.Replace(base, fmt.Sprintf("line %d ", v*50), "changed ", 1))
		f.write(fmt.Sprintf("dir/f%d.txt", v), strings.Repeat("x", v))
		f.write("empty", "")
		f.commitAll(fmt.Sprintf("commit %d", v))
	}
	f.git("tag", "-a", "-m", "a tag", "v1")

	r := f.open()
	if n := checkObjects(t, f, r); n == 0 {
		t.Fatal("no loose object was read whole")
	}

	// Packed, with deltas between the versions of big.txt: deltas are
	// resolved here too (not by go-git), and every byte agrees.
	f.git("repack", "-a", "-d", "-f", "-q")
	if !hasDeltas(f) {
		t.Fatal("the repack made no delta; the test proves nothing")
	}
	r = f.open()
	whole := checkObjects(t, f, r)
	if total := len(f.allObjects()); whole != total {
		t.Fatalf("%d of %d packed objects read without go-git; want all", whole, total)
	}

	// The limit: a larger blob is sized, not read.
	h := plumbing.NewHash(strings.TrimSpace(f.git("rev-parse", "HEAD:big.txt")))
	obj, err := r.object(h, plumbing.BlobObject, 100)
	if err != nil || !obj.skipped || obj.data != nil || obj.size <= 100 {
		t.Fatalf("over the limit: %+v, %v", obj, err)
	}
	// The wrong type is an error naming both.
	if _, err := r.object(h, plumbing.TreeObject, 0); err == nil || !strings.Contains(err.Error(), "is a blob, not a tree") {
		t.Fatalf("wrong type: %v", err)
	}
	// The annotated tag resolves to its commit.
	c, err := r.decodeCommit(plumbing.NewHash(strings.TrimSpace(f.git("rev-parse", "v1"))))
	if err != nil || c.tree.String() != strings.TrimSpace(f.git("rev-parse", "HEAD^{tree}")) {
		t.Fatalf("tag: %+v, %v", c, err)
	}
}

func TestDamagedLooseObjectIsAnError(t *testing.T) {
	f := newFixture(t)
	f.write("a.txt", "some content that git will compress\n")
	f.commitAll("one")
	h := strings.TrimSpace(f.git("rev-parse", "HEAD:a.txt"))
	p := filepath.Join(f.dir, ".git", "objects", h[:2], h[2:])
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	os.Chmod(p, 0o644)
	// Flip a byte inside the deflate stream: zlib's checksum (or the
	// inflate itself) must refuse it.
	bad := bytes.Clone(data)
	bad[len(bad)-6] ^= 0xff
	if err := os.WriteFile(p, bad, 0o644); err != nil {
		t.Fatal(err)
	}
	r := f.open()
	if _, err := r.object(plumbing.NewHash(h), plumbing.BlobObject, 0); err == nil {
		t.Fatal("a damaged loose object was read without an error")
	}
	// Cut short: the size in the header is not there.
	if err := os.WriteFile(p, data[:len(data)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := r.object(plumbing.NewHash(h), plumbing.BlobObject, 0); err == nil {
		t.Fatal("a truncated loose object was read without an error")
	}
}

func TestPackIdxRejectsGarbage(t *testing.T) {
	for _, data := range [][]byte{nil, []byte("not an index"), append([]byte{0xff, 't', 'O', 'c', 0, 0, 0, 2}, make([]byte, 1024)...)} {
		if len(data) > 8+256*4 {
			// A fanout that claims objects the file does not hold.
			data[8+255*4+3] = 9
		}
		if _, err := parsePackIdx(data); err == nil {
			t.Fatalf("parsePackIdx(%d bytes) accepted garbage", len(data))
		}
	}
}

func packOf(f *fixture) string {
	out := strings.TrimSpace(f.git("rev-parse", "--git-path", "objects/pack"))
	ents, _ := os.ReadDir(filepath.Join(f.dir, out))
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".idx") {
			return filepath.Join(f.dir, out, e.Name())
		}
	}
	return ""
}

// hasDeltas reports whether the fixture's pack holds a delta.
func hasDeltas(f *fixture) bool {
	for _, l := range strings.Split(f.git("verify-pack", "-v", packOf(f)), "\n") {
		if fl := strings.Fields(l); len(fl) == 7 && len(fl[0]) == 40 {
			return true
		}
	}
	return false
}
