package editor

import (
	"context"

	"github.com/editord/editord/search"
)

type SearchRequest struct {
	Pattern     string   `json:"pattern" desc:"What to look for: an RE2 regular expression (Go regexp syntax), e.g. \"func \\\\w+Handler\", or plain text with literal: true. Matched line by line; a match never spans lines."`
	Literal     bool     `json:"literal,omitempty" default:"false" desc:"Treat pattern as plain text, not a regular expression (no escaping needed)."`
	IgnoreCase  bool     `json:"ignore_case,omitempty" default:"false" desc:"Match regardless of letter case."`
	WholeWord   bool     `json:"whole_word,omitempty" default:"false" desc:"Only matches that start and end at a word boundary (RE2's \\b: ASCII letters, digits and _ are word characters), so \"id\" does not match \"width\" or \"id_map\"."`
	IncludeGlob []string `json:"include_glob,omitempty" desc:"Search only files matching one of these globs. Without \"/\" a glob matches a file or folder name at any depth (\"*.go\", \"src\"); with \"/\" it matches the root-relative path (\"src/**/*.ts\"); \"**\" spans folders. A leading \"!\" excludes."`
	ExcludeGlob []string `json:"exclude_glob,omitempty" desc:"Skip files matching any of these globs (same syntax as include_glob), e.g. [\"*_test.go\", \"vendor\"]."`
	MaxMatches  int      `json:"max_matches,omitempty" default:"2000" desc:"Stop after this many matching lines (default search_max_matches, 2000; at most 20,000). The first ones in path and line order are kept."`
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
	Path string      `json:"path" desc:"Root-relative path of the file."`
	Hits []SearchHit `json:"hits" desc:"Matching lines, in line order."`
}

type SearchResponse struct {
	Files        []SearchFile `json:"files" desc:"Files with matches, in byte order of path (a.txt before a/b.txt)."`
	Total        int          `json:"total" desc:"Matching lines returned (at most max_matches)."`
	FilesScanned int          `json:"files_scanned" desc:"Files considered, in path order, before the search ended (all of them unless truncated)."`
	Truncated    bool         `json:"truncated" desc:"True when more matching lines exist than max_matches; narrow the pattern or the globs."`
	Root         string       `json:"root" desc:"The workspace root the call used: relative paths are relative to it."`
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
	max, err := countArg("max_matches", req.MaxMatches, s.cfg.Limits.SearchMaxMatches, searchMaxCap)
	if err != nil {
		return nil, err
	}
	res, err := s.find.Search(ctx, root, search.SearchOptions{
		Pattern:      req.Pattern,
		MatchOptions: search.MatchOptions{Literal: req.Literal, IgnoreCase: req.IgnoreCase, WholeWord: req.WholeWord},
		Include:      req.IncludeGlob,
		Exclude:      req.ExcludeGlob,
		MaxMatches:   max,
		MaxFileBytes: s.cfg.Limits.MaxFileBytes,
	})
	if err != nil {
		return nil, err
	}
	out := &SearchResponse{Files: make([]SearchFile, len(res.Files)), Total: res.Total, FilesScanned: res.FilesScanned, Truncated: res.Truncated, Root: root}
	for i, f := range res.Files {
		hits := make([]SearchHit, len(f.Hits))
		for k, h := range f.Hits {
			hits[k] = SearchHit(h)
		}
		out.Files[i] = SearchFile{Path: f.Path, Hits: hits}
	}
	return out, nil
}
