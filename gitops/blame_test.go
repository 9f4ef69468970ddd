package gitops

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// gitBlame parses git blame --porcelain into rows like ours.
func (f *fixture) gitBlame(args ...string) []BlameLine {
	f.t.Helper()
	out := f.git(append([]string{"blame", "--porcelain"}, args...)...)
	type info struct {
		author, email, summary, file string
		date                         int64
	}
	infos := map[string]*info{}
	var rows []BlameLine
	var cur BlameLine
	for _, l := range strings.Split(out, "\n") {
		switch {
		case strings.HasPrefix(l, "\t"):
			in := infos[cur.SHA]
			cur.Author, cur.Email, cur.Date, cur.Summary, cur.OrigPath = in.author, in.email, in.date, in.summary, in.file
			cur.Text = l[1:]
			rows = append(rows, cur)
		case len(l) > 41 && l[40] == ' ' && isHex(l[:40]):
			fl := strings.Fields(l)
			cur = BlameLine{SHA: fl[0]}
			cur.OrigLine, _ = strconv.Atoi(fl[1])
			cur.Line, _ = strconv.Atoi(fl[2])
			if infos[cur.SHA] == nil {
				infos[cur.SHA] = &info{}
			}
		default:
			k, v, _ := strings.Cut(l, " ")
			in := infos[cur.SHA]
			if in == nil {
				continue
			}
			switch k {
			case "author":
				in.author = v
			case "author-mail":
				in.email = strings.Trim(v, "<>")
			case "author-time":
				in.date, _ = strconv.ParseInt(v, 10, 64)
			case "summary":
				in.summary = v
			case "filename":
				in.file = v
			}
		}
	}
	return rows
}

func blameString(rows []BlameLine) string {
	var b strings.Builder
	for _, r := range rows {
		fmt.Fprintf(&b, "%d %s %d %s %s <%s> %d %q %q\n", r.Line, r.SHA[:7], r.OrigLine, r.OrigPath, r.Author, r.Email, r.Date, r.Summary, strings.TrimSuffix(r.Text, "\n"))
	}
	return b.String()
}

func TestBlameMatchesGit(t *testing.T) {
	f := logScene(t)
	// More history on the renamed file: edits, moves of blocks, a merge.
	body := f.read("renamed.txt")
	f.write("renamed.txt", strings.Replace(body, "line 10 ", "line ten ", 1)+"}\n\n}\n")
	f.commitAll("edit ten")
	f.git("switch", "-q", "-c", "other")
	f.write("renamed.txt", strings.Replace(f.read("renamed.txt"), "line 20 ", "line twenty ", 1))
	f.commitAll("other: twenty")
	f.git("switch", "-q", "main")
	f.write("renamed.txt", "first line\n"+strings.Replace(f.read("renamed.txt"), "line 35 ", "line thirty-five ", 1))
	f.commitAll("main: 35 and a first line")
	f.git("merge", "-q", "--no-edit", "other")
	r := f.open()
	for _, tc := range []struct {
		start, end int
		args       []string
	}{
		{0, 0, []string{"--", "renamed.txt"}},
		{5, 25, []string{"-L", "5,25", "--", "renamed.txt"}},
		{0, 0, []string{"--", "s.txt"}},
	} {
		path := tc.args[len(tc.args)-1]
		got, _, err := r.Blame(context.Background(), BlameOptions{Path: path, Start: tc.start, End: tc.end})
		if err != nil {
			t.Fatal(err)
		}
		for i := range got {
			got[i].Text = strings.TrimSuffix(got[i].Text, "\n")
		}
		want := f.gitBlame(tc.args...)
		if blameString(got) != blameString(want) {
			t.Fatalf("blame %v:\n%s\ngit:\n%s", tc.args, blameString(got), blameString(want))
		}
	}
}
