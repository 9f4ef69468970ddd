package gitops

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// indexFixture has git write an index holding long and short names, an
// executable, a symlink, an intent-to-add entry (extended flags), a
// conflict (stages 1-3) and a cache tree, in the version asked for.
func indexFixture(t *testing.T, version int, conflict bool) []byte {
	f := newFixture(t)
	for i := range 40 {
		f.write(fmt.Sprintf("d%d/%s/f%d.txt", i%7, strings.Repeat("n", i*5+1), i), fmt.Sprint(i))
	}
	f.write(strings.Repeat("long/", 120)+"deep.txt", "deep") // a name longer than a small window
	f.write("c.txt", "base\n")
	f.commitAll("base")
	if !conflict {
		f.git("update-index", "--index-version", fmt.Sprint(version))
		f.git("write-tree")
		return f.readIndexFile()
	}
	f.git("checkout", "-q", "-b", "other")
	f.write("c.txt", "other\n")
	f.commitAll("other")
	f.git("checkout", "-q", "-")
	f.write("c.txt", "mine\n")
	f.commitAll("mine")
	gitCmd(f.dir, "merge", "-q", "other") // conflicts on c.txt: stages 1-3
	f.write("new.txt", "new")
	f.git("add", "-N", "new.txt")
	f.git("update-index", "--index-version", fmt.Sprint(version))
	return f.readIndexFile()
}

func (f *fixture) readIndexFile() []byte {
	data, err := os.ReadFile(f.path(".git/index"))
	if err != nil {
		f.t.Fatal(err)
	}
	return data
}

// The stream decoder agrees with go-git's decoder on indexes real git
// wrote, whatever the window size (entries and extensions straddling its
// edge), and names damage rather than misreading it.
func TestReadIndexAgreesWithGoGit(t *testing.T) {
	needGit(t)
	defer func(w int) { indexWindow = w }(indexWindow)
	for _, tc := range []struct {
		version  int
		conflict bool
	}{{2, false}, {2, true}, {3, true}, {4, false}, {4, true}} {
		version, data := tc.version, indexFixture(t, tc.version, tc.conflict)
		want := &index.Index{}
		if err := index.NewDecoder(bytes.NewReader(data)).Decode(want); err != nil {
			t.Fatal(err)
		}
		if tc.conflict && !hasExtended(want) && version >= 3 {
			t.Fatal("fixture has no entry with extended flags")
		}
		for _, w := range []int{1, 7, 64, 100, 4096, 256 << 10} {
			indexWindow = w
			for _, size := range []int64{int64(len(data)), 0, 3 * int64(len(data)), 1 << 40} { // a stale size only sizes allocations
				got, err := readIndexFile(bytes.NewReader(data), size)
				if err != nil {
					t.Fatalf("v%d window %d size %d: %v", version, w, size, err)
				}
				if d := diffIndex(got, want); d != "" {
					t.Fatalf("v%d window %d size %d: %s", version, w, size, d)
				}
				if got.Version != want.Version { // git writes 3 for extended flags
					t.Fatalf("version %d, want %d", got.Version, want.Version)
				}
			}
		}
		indexWindow = 256 << 10
		// Every cut and every flipped byte is an error, never a panic or a
		// different index.
		for n := range len(data) {
			if _, err := readIndexFile(bytes.NewReader(data[:n]), int64(len(data))); err == nil {
				t.Fatalf("v%d cut at %d of %d: no error", version, n, len(data))
			}
		}
		for i := range data {
			bad := bytes.Clone(data)
			bad[i] ^= 0x20
			if _, err := readIndexFile(bytes.NewReader(bad), int64(len(bad))); err == nil {
				t.Fatalf("v%d byte %d flipped: no error", version, i)
			} else if i >= 12 && !strings.Contains(err.Error(), "checksum mismatch") {
				t.Fatalf("v%d byte %d flipped: %v, want the checksum named", version, i, err)
			}
		}
	}
}

func hasExtended(idx *index.Index) bool {
	for _, e := range idx.Entries {
		if e.IntentToAdd || e.SkipWorktree {
			return true
		}
	}
	return false
}

func diffIndex(got *Index, want *index.Index) string {
	if len(got.Entries) != len(want.Entries) {
		return fmt.Sprintf("%d entries, want %d", len(got.Entries), len(want.Entries))
	}
	for i, w := range want.Entries {
		g := &got.Entries[i]
		switch {
		case g.Path != w.Name:
			return fmt.Sprintf("entry %d: path %q, want %q", i, g.Path, w.Name)
		case g.Hash != w.Hash:
			return fmt.Sprintf("%s: hash %s, want %s", w.Name, g.Hash, w.Hash)
		case g.Mode != uint32(w.Mode):
			return fmt.Sprintf("%s: mode %o, want %o", w.Name, g.Mode, w.Mode)
		case g.Stage() != int(w.Stage):
			return fmt.Sprintf("%s: stage %d, want %d", w.Name, g.Stage(), w.Stage)
		case g.Size != w.Size || g.Ino != w.Inode || g.Dev != w.Dev || g.UID != w.UID || g.GID != w.GID:
			return fmt.Sprintf("%s: stat data differs", w.Name)
		case !(g.MtimeSec == 0 && g.MtimeNsec == 0 && w.ModifiedAt.IsZero()) &&
			(int64(g.MtimeSec) != w.ModifiedAt.Unix() || int64(g.MtimeNsec) != int64(w.ModifiedAt.Nanosecond())):
			return fmt.Sprintf("%s: mtime differs", w.Name)
		case g.intentToAdd() != w.IntentToAdd || g.skipWorktree() != w.SkipWorktree:
			return fmt.Sprintf("%s: extended flags differ", w.Name)
		}
	}
	if want.Cache == nil && got.rootTreeCount != 0 {
		return "a cache tree where there is none"
	}
	if want.Cache != nil && len(want.Cache.Entries) > 0 && want.Cache.Entries[0].Path == "" && want.Cache.Entries[0].Hash != got.rootTree {
		return fmt.Sprintf("cache tree root %s, want %s", got.rootTree, want.Cache.Entries[0].Hash)
	}
	return ""
}

// Version 4 names strip bytes counted in git's offset varint; past 127 it
// differs from encoding/binary's, which editord once wrote and read.
func TestOffsetVarint(t *testing.T) {
	for _, c := range []struct {
		v   uint64
		enc string
	}{{0, "\x00"}, {127, "\x7f"}, {128, "\x80\x00"}, {255, "\x80\x7f"}, {16511, "\xff\x7f"}, {16512, "\x80\x80\x00"}} {
		if got := string(appendOffsetVarint(nil, c.v)); got != c.enc {
			t.Fatalf("%d encodes as %x, want %x", c.v, got, c.enc)
		}
		if v, k := offsetVarint([]byte(c.enc + "rest")); v != c.v || k != len(c.enc) {
			t.Fatalf("%x decodes as %d (%d bytes)", c.enc, v, k)
		}
	}
	for v := uint64(0); v < 1<<20; v += 97 {
		if got, _ := offsetVarint(appendOffsetVarint(nil, v)); got != v {
			t.Fatalf("%d round-trips as %d", v, got)
		}
	}
	if _, k := offsetVarint([]byte{0x80}); k != 0 {
		t.Fatal("a value cut short decodes")
	}
}

// An index of version 4 whose names strip more than 127 bytes, written by
// editord, is the one git reads.
func TestWriteIndexV4LongStrip(t *testing.T) {
	needGit(t)
	data := indexFixture(t, 4, false)
	idx, err := readIndexFile(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	out := idx.encode(0, 0, nil)
	back, err := readIndexFile(bytes.NewReader(out), int64(len(out)))
	if err != nil {
		t.Fatal(err)
	}
	for i := range idx.Entries {
		if back.Entries[i].Path != idx.Entries[i].Path {
			t.Fatalf("entry %d: %q, want %q", i, back.Entries[i].Path, idx.Entries[i].Path)
		}
	}
	f := newFixture(t)
	f.write("x", "x")
	if err := os.WriteFile(f.path(".git/index"), out, 0o644); err != nil {
		t.Fatal(err)
	}
	got := f.git("ls-files", "--stage")
	if !strings.Contains(got, strings.Repeat("long/", 120)+"deep.txt") || strings.Count(got, "\n") != len(idx.Entries) {
		t.Fatalf("git reads editord's index as:\n%s", got)
	}
}
