package gitops

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// gitLog parses git log --numstat into entries like ours.
func (f *fixture) gitLog(args ...string) []LogEntry {
	f.t.Helper()
	out := f.git(append([]string{"log", "--numstat", "--format=%x01%H%x02%P%x02%an%x02%ae%x02%at%x02%s"}, args...)...)
	var ents []LogEntry
	for _, rec := range strings.Split(out, "\x01")[1:] {
		lines := strings.Split(rec, "\n")
		h := strings.Split(lines[0], "\x02")
		e := LogEntry{SHA: h[0], Author: h[2], Email: h[3], Subject: h[5]}
		if h[1] != "" {
			e.Parents = strings.Fields(h[1])
		}
		e.Date, _ = strconv.ParseInt(h[4], 10, 64)
		for _, l := range lines[1:] {
			f := strings.Split(l, "\t")
			if len(f) < 3 {
				continue
			}
			e.Files++
			a, _ := strconv.Atoi(f[0])
			d, _ := strconv.Atoi(f[1])
			e.Added += a
			e.Removed += d
		}
		ents = append(ents, e)
	}
	return ents
}

func logString(ents []LogEntry) string {
	var b strings.Builder
	for _, e := range ents {
		fmt.Fprintf(&b, "%s %v %s <%s> %d %q +%d -%d %d\n", e.SHA[:7], len(e.Parents), e.Author, e.Email, e.Date, e.Subject, e.Added, e.Removed, e.Files)
	}
	return b.String()
}

// logScene makes a history with merges, renames, binary files, deletions
// and equal commit dates.
func logScene(t *testing.T) *fixture {
	f := newFixture(t)
	body := ""
	for i := range 40 {
		body += fmt.Sprintf("line %d of a file long enough to be followed through a rename\n", i)
	}
	f.write("a.txt", body)
	f.write("b.txt", "b\n")
	f.commitAll("base")
	f.git("switch", "-q", "-c", "side")
	f.write("s.txt", "side\n")
	f.write("a.txt", strings.Replace(body, "line 3 ", "line three ", 1))
	f.commitAll("side 1")
	f.git("switch", "-q", "main")
	f.write("b.txt", "b\nb2\n")
	f.write("bin.dat", "\x00\x01\x02")
	f.commitAll("main 1")
	f.git("merge", "-q", "--no-edit", "side")
	f.git("mv", "a.txt", "renamed.txt")
	f.write("renamed.txt", strings.Replace(f.read("renamed.txt"), "line 30 ", "line thirty ", 1))
	f.commitAll("rename a to renamed")
	f.git("rm", "-q", "b.txt")
	f.commitAll("delete b")
	for i := range 5 {
		f.write("renamed.txt", f.read("renamed.txt")+fmt.Sprintf("tail %d\n", i))
		f.write(fmt.Sprintf("n%d.txt", i), "x\ny\n")
		f.commitAll(fmt.Sprintf("tail %d", i))
	}
	return f
}

func TestLogMatchesGit(t *testing.T) {
	f := logScene(t)
	r := f.open()
	got, more, err := r.Log(context.Background(), LogOptions{Limit: 1000})
	if err != nil || more {
		t.Fatalf("log: %v more %v", err, more)
	}
	if want := f.gitLog(); logString(got) != logString(want) {
		t.Fatalf("log:\n%s\ngit:\n%s", logString(got), logString(want))
	}
	// Pages join up to the whole.
	p1, more1, _ := r.Log(context.Background(), LogOptions{Limit: 4})
	p2, more2, _ := r.Log(context.Background(), LogOptions{Skip: 4, Limit: 100})
	if !more1 || more2 || logString(append(p1, p2...)) != logString(got) {
		t.Fatalf("pages: %v %v\n%s", more1, more2, logString(append(p1, p2...)))
	}
	// A path, followed through its rename.
	fol, _, err := r.Log(context.Background(), LogOptions{Path: "renamed.txt", Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	if want := f.gitLog("--follow", "--", "renamed.txt"); logString(fol) != logString(want) {
		t.Fatalf("follow:\n%s\ngit:\n%s", logString(fol), logString(want))
	}
	if fol[len(fol)-1].Path != "a.txt" {
		t.Fatalf("the oldest entry names the file as %q", fol[len(fol)-1].Path)
	}
}
