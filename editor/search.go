package editor

import (
	"context"
	"strings"

	"github.com/editord/editord/search"
)

type SearchRequest struct {
	Pattern      string   `json:"pattern" desc:"What to look for: an RE2 regular expression (Go regexp syntax), e.g. \"func \\\\w+Handler\", or plain text with literal: true. Matched line by line; a match never spans lines."`
	Literal      bool     `json:"literal,omitempty" default:"false" desc:"Treat pattern as plain text, not a regular expression (no escaping needed)."`
	IgnoreCase   bool     `json:"ignore_case,omitempty" default:"false" desc:"Match regardless of letter case."`
	WholeWord    bool     `json:"whole_word,omitempty" default:"false" desc:"Only matches that start and end at a word boundary (RE2's \\b: ASCII letters, digits and _ are word characters), so \"id\" does not match \"width\" or \"id_map\"."`
	IncludeGlob  []string `json:"include_glob,omitempty" desc:"Search only files matching one of these globs. Without \"/\" a glob matches a file or folder name at any depth (\"*.go\", \"src\"); with \"/\" it matches the root-relative path (\"src/**/*.ts\"); \"**\" spans folders. A leading \"!\" excludes."`
	ExcludeGlob  []string `json:"exclude_glob,omitempty" desc:"Skip files matching any of these globs (same syntax as include_glob), e.g. [\"*_test.go\", \"vendor\"]."`
	MaxMatches   int      `json:"max_matches,omitempty" default:"2000" desc:"Stop after this many matching lines (files for output files; default 2000, at most 20,000), first in path and line order."`
	ContextLines int      `json:"context_lines,omitempty" default:"0" desc:"Lines shown before and after each match (at most 20), like rg -C."`
	Output       string   `json:"output,omitempty" enum:"lines,files,count" default:"lines" desc:"lines: matching lines (rg); files: only the paths of matching files (rg -l); count: matching lines per file (rg -c)."`
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
}

// searchMaxCap bounds one response.
const searchMaxCap = 20_000

func init() {
	define("editor::search",
		"Search file contents (like ripgrep) and return matching lines with line, column, text and match ranges. Use it when you know what a file contains; use editor::find for file names. "+
			"pattern is RE2 (Go regexp) unless literal; honours .gitignore, skips noise folders (node_modules, target, ...), denied paths, binary files and files over max_file_bytes (2,000,000). "+
			"Results are deterministic: files in path order, lines in order, at most max_matches (default 2000). "+
			`Example: {"pattern": "TODO|FIXME", "include_glob": ["*.go"], "exclude_glob": ["vendor"]}.`,
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
	})
	if err != nil {
		return nil, err
	}
	out := &SearchResponse{Files: make([]SearchFile, len(res.Files)), Total: res.Total, FilesScanned: res.FilesScanned, Truncated: res.Truncated}
	for i, f := range res.Files {
		hits := make([]SearchHit, len(f.Hits))
		for k, h := range f.Hits {
			hits[k] = SearchHit(h)
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

// contextLines reads the lines around hits of the file at rel. A file that
// changed or vanished since the search gives what it holds now, or none.
func (s *Service) contextLines(root, rel string, hits []SearchHit, n int) []ContextLine {
	l, err := locate(root, rel, "path")
	if err != nil {
		return nil
	}
	res, err := s.jail.ReadFile(l.abs, s.cfg.Limits.MaxFileBytes)
	if err != nil || res.Truncated {
		return nil
	}
	lines := strings.Split(string(res.Data), "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	isHit := make(map[int]bool, len(hits))
	for _, h := range hits {
		isHit[h.Line] = true
	}
	var out []ContextLine
	next := 1 // lines before next are already out
	for _, h := range hits {
		for ln := max(h.Line-n, next); ln <= min(h.Line+n, len(lines)); ln++ {
			if !isHit[ln] {
				text := strings.TrimSuffix(lines[ln-1], "\r")
				out = append(out, ContextLine{Line: ln, Text: string(cutUTF8([]byte(text), search.MaxTextBytes))})
			}
			next = ln + 1
		}
	}
	return out
}
