package editor

// Issue 19 item 1: replies whose size could grow past their input are
// bounded by the limits, never by the data: git log and blame of a
// repository whose commit has a 200 KB subject, and search context.

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/editord/editord/shell"
)

func TestGitLogAndBlameCutHostileSubjects(t *testing.T) {
	e := gtNew(t, "")
	var body strings.Builder
	for range 200 {
		body.WriteString("line\n")
	}
	e.write("a.txt", body.String())
	msg := strings.Repeat("é", 100_000) // 200 KB of first line
	msgFile := filepath.Join(t.TempDir(), "msg")
	if err := os.WriteFile(msgFile, []byte(msg+"\n\nbody\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	e.git("add", "-A")
	e.git("-c", "user.name="+strings.Repeat("n", 5000), "-c", "user.email=x@y", "commit", "-q", "-F", msgFile)
	log := gtMust[GitLogResponse](e, "editor::git::log", `{}`)
	if len(log.Entries) != 1 {
		t.Fatalf("log: %+v", log)
	}
	for _, f := range []string{log.Entries[0].Subject, log.Entries[0].Author} {
		if len(f) > 503 || !utf8.ValidString(f) || !strings.HasSuffix(f, "…") {
			t.Fatalf("a log field of %d bytes (valid UTF-8 %v); want it cut to 500 and marked", len(f), utf8.ValidString(f))
		}
	}
	blame := gtMust[GitBlameResponse](e, "editor::git::blame", `{"path":"a.txt","start":1,"end":200}`)
	if len(blame.Lines) != 200 {
		t.Fatalf("blame: %d lines", len(blame.Lines))
	}
	for _, l := range blame.Lines {
		if len(l.Summary) > 503 || len(l.Author) > 503 {
			t.Fatalf("blame line %d carries a %d-byte summary and a %d-byte author", l.Line, len(l.Summary), len(l.Author))
		}
	}
	// A range is bounded too.
	_, err := gtCall[GitBlameResponse](e, "editor::git::blame", `{"path":"a.txt","start":1,"end":1000000}`)
	tcWantCode(t, err, shell.CodeInvalidArgument)
}

func TestSearchContextBounded(t *testing.T) {
	e := tcNew(t)
	line := strings.Repeat("c", 600) + "\n"
	for f := range 3 {
		var b strings.Builder
		for i := range 41 * 80 {
			if i%41 == 20 {
				b.WriteString("MATCH " + strings.Repeat("m", 594) + "\n")
			} else {
				b.WriteString(line)
			}
		}
		e.write(fmt.Sprintf("f%d.txt", f), b.String())
	}
	res, err := e.s.Search(t.Context(), &SearchRequest{Pattern: "MATCH", Literal: true, ContextLines: 20})
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, f := range res.Files {
		for _, c := range f.Context {
			total += len(c.Text)
		}
	}
	// 3 files x 80 hits x 40 lines x 500 bytes = 4.8 MB asked for.
	if total > searchContextBudget || res.ContextOmitted == 0 || res.Total != 240 {
		t.Fatalf("context of %d bytes, %d files omitted, %d hits", total, res.ContextOmitted, res.Total)
	}
}
