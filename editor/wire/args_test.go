package wire

// saveArgs and searchArgs have the shapes of editor's SaveRequest and
// SearchRequest: the kinds of members requests take (strings, optional
// pointers, numbers, booleans, lists).
type saveArgs struct {
	Path            string  `json:"path"`
	Content         string  `json:"content"`
	ExpectedVersion *string `json:"expected_version,omitempty"`
	ExpectedMtime   *int64  `json:"expected_mtime,omitempty"`
	Force           bool    `json:"force,omitempty"`
}

type searchArgs struct {
	Pattern      string   `json:"pattern"`
	Literal      bool     `json:"literal,omitempty"`
	IgnoreCase   bool     `json:"ignore_case,omitempty"`
	WholeWord    bool     `json:"whole_word,omitempty"`
	IncludeGlob  []string `json:"include_glob,omitempty"`
	ExcludeGlob  []string `json:"exclude_glob,omitempty"`
	MaxMatches   int      `json:"max_matches,omitempty"`
	ContextLines int      `json:"context_lines,omitempty"`
	Output       string   `json:"output,omitempty"`
}
