package editor

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"unsafe"

	"github.com/editord/editord/search"
)

type SearchRequest struct {
	Pattern      string   `json:"pattern" desc:"RE2 regexp (Go syntax), or plain text with literal; never spans lines."`
	Literal      bool     `json:"literal,omitempty" default:"false" desc:"pattern is plain text."`
	IgnoreCase   bool     `json:"ignore_case,omitempty" default:"false" desc:"Ignore letter case."`
	WholeWord    bool     `json:"whole_word,omitempty" default:"false" desc:"Match whole words only (\\b boundaries)."`
	IncludeGlob  []string `json:"include_glob,omitempty" desc:"Only matching paths: \"*.go\" matches names at any depth, a glob with \"/\" the path, \"**\" any folders, \"!\" excludes."`
	ExcludeGlob  []string `json:"exclude_glob,omitempty" desc:"Skip paths matching a glob (same syntax), e.g. \"vendor\"."`
	MaxMatches   int      `json:"max_matches,omitempty" default:"2000" desc:"Matches kept (files, for output files); at most 20,000."`
	ContextLines int      `json:"context_lines,omitempty" default:"0" desc:"Lines shown around each match (at most 20)."`
	Output       string   `json:"output,omitempty" enum:"lines,files,count" default:"lines" desc:"lines (default), files or count."`
}

// SearchHit is one matching line.
type SearchHit struct {
	Line   int      `json:"line" desc:"1-based line number."`
	Column int      `json:"column" desc:"1-based byte column of the first match in the line."`
	Text   string   `json:"text" desc:"The line without its line ending, cut to 500 bytes on a UTF-8 boundary."`
	Ranges [][2]int `json:"ranges" desc:"Every match in the line as [start, end) byte offsets into text (clipped to it)."`
}

// SearchFile is one file's hits.
type SearchFile struct {
	Path    string        `json:"path" desc:"Root-relative path of the file."`
	Hits    []SearchHit   `json:"hits" desc:"Matching lines, in line order (empty for output files and count)."`
	Count   int           `json:"count,omitempty" desc:"For output count: matching lines in this file."`
	Context []ContextLine `json:"context,omitempty" desc:"With context_lines: the lines around the hits that are not hits themselves, in line order."`
}

// ContextLine is a line shown around a hit.
type ContextLine struct {
	Line int    `json:"line" desc:"1-based line number."`
	Text string `json:"text" desc:"The line without its line ending, cut to 500 bytes."`
}

type SearchResponse struct {
	Files        []SearchFile `json:"files" desc:"Files with matches, in byte order of path (a.txt before a/b.txt)."`
	Total        int          `json:"total" desc:"Matching lines found (at most max_matches); for output files, matching files."`
	FilesScanned int          `json:"files_scanned" desc:"Files considered, in path order, before the search ended (all of them unless truncated)."`
	Truncated    bool         `json:"truncated" desc:"True when more matches exist than max_matches; narrow the pattern or globs, or raise max_matches."`
	Root         string       `json:"root" desc:"The workspace root the call used: relative paths are relative to it."`
	Skipped      []SearchSkip `json:"skipped" desc:"Files considered but not searched to their end, and why (binary, unreadable, a line over 8 MiB); the first 20 in path order."`
	SkippedTotal int          `json:"skipped_total" desc:"How many files were skipped in all."`
}

// SearchSkip is a file a search did not read to its end.
type SearchSkip struct {
	Path   string `json:"path" desc:"Root-relative path of the file."`
	Reason string `prose:"true" json:"reason" desc:"Why: binary (a NUL byte; hits before it are kept), unreadable, not a regular file, or a line longer than 8 MiB."`
}

// searchMaxCap bounds one response.
const searchMaxCap = 20_000

func init() {
	define("editor::search",
		"Search file contents like ripgrep (RE2 or literal, line by line); "+
			"output lines, files (rg -l) or count (rg -c). Honours .gitignore; "+
			"skips noise folders, denied and binary files. "+
			"At most max_matches (2000), in path order. "+
			"Example: {\"pattern\": \"TODO\", \"include_glob\": [\"*.go\"], \"context_lines\": 2}.",
		readOnly, (*Service).Search)
}

func (s *Service) Search(ctx context.Context, req *SearchRequest) (*SearchResponse, error) {
	root, err := s.root()
	if err != nil {
		return nil, err
	}
	def, perFile := s.cfg.Limits.SearchMaxMatches, 0
	switch req.Output {
	case "", "lines":
	case "files":
		perFile = 1
	case "count":
		def = searchMaxCap // counts cost no text: count as far as a search may go
	default:
		return nil, invalid("output must be lines, files or count, not %q", req.Output)
	}
	max, err := countArg("max_matches", req.MaxMatches, def, searchMaxCap)
	if err != nil {
		return nil, err
	}
	if req.ContextLines < 0 {
		return nil, invalid("context_lines must be 0 or more, not %d", req.ContextLines)
	}
	res, err := s.find.Search(ctx, root, search.SearchOptions{
		Pattern:      req.Pattern,
		MatchOptions: search.MatchOptions{Literal: req.Literal, IgnoreCase: req.IgnoreCase, WholeWord: req.WholeWord},
		Include:      req.IncludeGlob,
		Exclude:      req.ExcludeGlob,
		MaxMatches:   max,
		MaxFileBytes: s.cfg.Limits.MaxFileBytes,
		PerFile:      perFile,
		Progress: func(done, total int) {
			ProgressFrom(ctx)(float64(done), float64(total), fmt.Sprintf("searched %d of %d files", done, total))
		},
	})
	if err != nil {
		return nil, err
	}
	out := &SearchResponse{Files: make([]SearchFile, len(res.Files)), Total: res.Total, FilesScanned: res.FilesScanned, Truncated: res.Truncated, Root: root,
		Skipped: make([]SearchSkip, len(res.Skipped)), SkippedTotal: res.SkippedTotal}
	for i, k := range res.Skipped {
		out.Skipped[i] = SearchSkip(k)
	}
	for i, f := range res.Files {
		// SearchHit is search.Hit with the wire's tags: the engine's hits
		// are taken as they are (20,000 of them in a capped search).
		hits := unsafe.Slice((*SearchHit)(unsafe.SliceData(f.Hits)), len(f.Hits))
		if hits == nil {
			hits = []SearchHit{}
		}
		out.Files[i] = SearchFile{Path: f.Path, Hits: hits}
		switch req.Output {
		case "files":
			out.Files[i].Hits = []SearchHit{}
		case "count":
			out.Files[i].Hits, out.Files[i].Count = []SearchHit{}, len(hits)
		default:
			if req.ContextLines > 0 {
				out.Files[i].Context = s.contextLines(root, f.Path, hits, min(req.ContextLines, searchMaxContext))
			}
		}
	}
	return out, nil
}

// searchMaxContext bounds context_lines.
const searchMaxContext = 20

// contextLines reads the lines around hits of the file at rel, streaming
// it to the last line wanted: a file of any size the search read (over
// max_file_bytes or max_read_bytes too) gets its context, in memory bounded
// by one read buffer and the lines kept. A file that changed or vanished
// since the search gives what it holds now, or none.
func (s *Service) contextLines(root, rel string, hits []SearchHit, n int) []ContextLine {
	if len(hits) == 0 {
		return nil
	}
	l, err := locate(root, rel, "path")
	if err != nil {
		return nil
	}
	h, err := s.jail.OpenAt(l.abs)
	if err != nil {
		return nil
	}
	defer h.Close()
	br := bufio.NewReaderSize(io.NewSectionReader(h, 0, 1<<62), 64<<10)
	isHit := make(map[int]bool, len(hits))
	for _, h := range hits {
		isHit[h.Line] = true
	}
	last := hits[len(hits)-1].Line + n
	var out []ContextLine
	var text []byte // the kept beginning of the current line
	next := 0       // the first hit whose context may still come
	for line := 1; line <= last; line++ {
		for next < len(hits) && hits[next].Line+n < line {
			next++
		}
		want := next < len(hits) && hits[next].Line-n <= line && !isHit[line]
		text = text[:0]
		ended, eof := false, false
		for !ended {
			chunk, err := br.ReadSlice('\n')
			if want && len(text) <= search.MaxTextBytes {
				text = append(text, chunk[:min(len(chunk), search.MaxTextBytes+2-len(text))]...)
			}
			switch {
			case err == nil:
				ended = true
			case err == bufio.ErrBufferFull:
			default:
				ended, eof = true, true
			}
		}
		if eof && len(text) == 0 && want {
			break // past the file's end
		}
		if want {
			t := bytes.TrimSuffix(bytes.TrimSuffix(text, []byte("\n")), []byte("\r"))
			out = append(out, ContextLine{Line: line, Text: string(cutUTF8(t, search.MaxTextBytes))})
		}
		if eof {
			break
		}
	}
	return out
}
