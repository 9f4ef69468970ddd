package editor

import (
	"context"

	"github.com/editord/editord/gitops"
)

type GitBlameRequest struct {
	Path  string `json:"path" desc:"File, root-relative."`
	Rev   string `json:"rev,omitempty" default:"HEAD" desc:"Revision (default HEAD)."`
	Start *int   `json:"start,omitempty" default:"1" desc:"First line, 1-based."`
	End   *int   `json:"end,omitempty" desc:"Last line (default start+199)."`
}

type GitBlameLine struct {
	Line     int    `json:"line" desc:"Line number in the file at rev."`
	SHA      string `json:"sha" desc:"The commit that last changed the line."`
	OrigLine int    `json:"orig_line" desc:"The line's number in that commit's version."`
	OrigPath string `json:"orig_path" desc:"The file's name in that commit (differs after a rename), root-relative."`
	Author   string `json:"author" desc:"Author name."`
	Date     int64  `json:"date" desc:"Author date, Unix seconds."`
	Summary  string `json:"summary" desc:"The commit's subject."`
	Text     string `json:"text" desc:"The line, without its line ending."`
}

type GitBlameResponse struct {
	Path       string         `json:"path" desc:"The file, root-relative."`
	TotalLines int            `json:"total_lines" desc:"Lines in the file at rev."`
	Lines      []GitBlameLine `json:"lines" desc:"The requested lines, in order, as git blame --porcelain attributes them."`
}

// blameMaxLines bounds one call's range.
const blameMaxLines = 10000

func init() {
	define("editor::git::blame",
		"git blame of a line range: per line the commit, author, date, subject and text; follows renames.",
		readOnly, (*Service).GitBlame)
}

func (s *Service) GitBlame(ctx context.Context, req *GitBlameRequest) (*GitBlameResponse, error) {
	start, end := 1, 0
	if req.Start != nil {
		if *req.Start < 1 {
			return nil, invalid("start is 1-based; pass 1 or more, not %d", *req.Start)
		}
		start = *req.Start
	}
	if req.End != nil {
		if *req.End < start {
			return nil, invalid("end (%d) is before start (%d)", *req.End, start)
		}
		end = *req.End
	} else {
		end = start + 199
	}
	if end-start >= blameMaxLines {
		// Every line carries its commit's author and subject: a range is
		// bounded so that the reply is.
		return nil, invalid("start %d to end %d is %d lines; at most %d per call: page with start and end", start, end, end-start+1, blameMaxLines)
	}
	root, r, err := s.gitRepo()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	l, rel, err := s.gitPath(root, r, req.Path, "path")
	if err != nil {
		return nil, err
	}
	rows, total, err := r.Blame(ctx, gitops.BlameOptions{Rev: req.Rev, Path: rel, Start: start, End: end})
	if err != nil {
		return nil, err
	}
	out := &GitBlameResponse{Path: l.stored, TotalLines: total, Lines: make([]GitBlameLine, 0, len(rows))}
	for _, b := range rows {
		text := b.Text
		if n := len(text); n > 0 && text[n-1] == '\n' {
			text = text[:n-1]
			if n := len(text); n > 0 && text[n-1] == '\r' {
				text = text[:n-1]
			}
		}
		out.Lines = append(out.Lines, GitBlameLine{Line: b.Line, SHA: b.SHA, OrigLine: b.OrigLine, OrigPath: fromRepo(root, r, b.OrigPath),
			Author: b.Author, Date: b.Date, Summary: b.Summary, Text: text})
	}
	return out, nil
}
