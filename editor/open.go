package editor

import (
	"context"

	"github.com/editord/editord/shell"
	"github.com/editord/editord/workspace"
)

type OpenRequest struct {
	Path   string `json:"path" desc:"File path, root-relative or absolute."`
	Offset int    `json:"offset,omitempty" desc:"First line to read, 1-based."`
	Limit  int    `json:"limit,omitempty" desc:"Lines to read (default: to the end)."`
	Tab    *bool  `json:"tab,omitempty" default:"true" desc:"false: read without adding a tab in the user's editor."`
}

type OpenResponse struct {
	Path       string `json:"path" desc:"The file, in stored form (root-relative)."`
	Content    string `json:"content" desc:"The lines asked for (the whole file by default), byte for byte with their line endings."`
	Language   string `json:"language" desc:"Monaco language id, e.g. go, typescript, plaintext."`
	Size       int64  `json:"size" desc:"Full size of the file in bytes."`
	Mtime      int64  `json:"mtime" desc:"Modification time, Unix seconds."`
	Version    string `json:"version" desc:"The whole file's version, for expected_version of editor::save or editor::edit (only a truncated whole-file read gives its prefix's version)."`
	Truncated  bool   `json:"truncated" desc:"True when what was asked for was over max_file_bytes and was cut: a whole-file read returns its beginning and records no buffer; a range ends early at end_line."`
	EOL        string `json:"eol" enum:"lf,crlf,mixed,none" desc:"Line endings present: lf, crlf, mixed, or none (no line ending at all)."`
	StartLine  int    `json:"start_line" desc:"Line number of the first line of content, 1-based."`
	EndLine    int    `json:"end_line" desc:"Line number of the last line of content (start_line-1 when content is empty)."`
	TotalLines int    `json:"total_lines" desc:"Lines in the whole file (a last line without a newline counts)."`
	Root       string `json:"root" desc:"The workspace root the call used: relative paths are relative to it."`
	// Draft comes last: protocol's openJSON writes the fields before it
	// by hand.
	Draft *DraftNotice `json:"draft,omitempty" desc:"Someone else (the person, in their editor) holds unsaved edits of this file: who, over which version, and which lines they are editing. The disk's content is what you got."`
}

func init() {
	define("editor::open",
		"Read a text file as numbered lines: all of it, or limit lines from offset. "+
			"version is the whole file's: pass it as expected_version. Adds a tab in the user's editor unless tab: false. "+
			"Example: {\"path\": \"a.go\", \"offset\": 120, \"limit\": 40, \"tab\": false}.",
		readOnly, (*Service).Open)
}

func (s *Service) Open(ctx context.Context, req *OpenRequest) (*OpenResponse, error) {
	root, l, err := s.target(req.Path, "path")
	if err != nil {
		return nil, err
	}
	if req.Offset < 0 {
		return nil, invalid("offset must be 1 or more (a 1-based line number), not %d", req.Offset)
	}
	if req.Limit < 0 {
		return nil, invalid("limit must be 1 or more, not %d", req.Limit)
	}
	var out *OpenResponse
	if req.Offset > 0 || req.Limit > 0 {
		out, err = s.openRange(l, max(req.Offset, 1), req.Limit)
	} else {
		out, err = s.openWhole(l)
	}
	if err != nil {
		return nil, err
	}
	out.Root = root
	// The version handed out is kept, so that a save or edit guarded by it
	// can be merged if the file changes meanwhile (merge.go).
	switch {
	case out.Truncated:
	case out.StartLine == 1 && out.EndLine == out.TotalLines:
		s.handOut(out.Version, bytesView(out.Content))
	default:
		s.handOutRead(l, out.Version, out.Size)
	}
	out.Draft = s.draftNotice(ctx, root, l)
	// A file over max_file_bytes is never a buffer: the user's editor could
	// not hold it whole.
	if (req.Tab == nil || *req.Tab) && out.Size <= s.cfg.Limits.MaxFileBytes {
		b := workspace.Buffer{Path: l.stored, Version: out.Version, Mtime: out.Mtime, Language: out.Language}
		if err := s.remember(ctx, root, b); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// openWhole reads the whole file, or its first max_file_bytes (CONTRACT.md
// §4: the version is then the prefix's, and no buffer is recorded).
func (s *Service) openWhole(l loc) (*OpenResponse, error) {
	res, err := s.jail.ReadFile(l.abs, s.cfg.Limits.MaxFileBytes)
	if err != nil {
		return nil, err
	}
	data := res.Data
	if res.Truncated {
		data = cutUTF8(data, len(data))
	}
	// The same test as editor::save's, NUL anywhere included: content that
	// save would refuse must not be handed out as an editable text buffer.
	if !isText(data) {
		return nil, binaryError(l, "has a NUL byte or is not valid UTF-8")
	}
	out := &OpenResponse{
		Path:      l.stored,
		Content:   stringView(data), // the read's own buffer
		Language:  Language(l.stored),
		Size:      res.Info.Size,
		Mtime:     res.Info.ModTime,
		Version:   s.versions.of(l.abs, data),
		Truncated: res.Truncated,
		EOL:       EOL(data),
		StartLine: 1,
	}
	out.EndLine = countLines(data)
	out.TotalLines = out.EndLine
	if res.Truncated {
		// Count the lines of the whole file; the content stays the prefix.
		if r, err := s.scanRange(l, 1, 0); err == nil {
			out.TotalLines = r.total
		}
	}
	return out, nil
}

// openRange reads limit lines from line offset (0: to the end), streaming
// the file so that memory stays bounded by max_file_bytes whatever its size.
func (s *Service) openRange(l loc, offset, limit int) (*OpenResponse, error) {
	r, err := s.scanRange(l, offset, limit)
	if err != nil {
		return nil, err
	}
	if r.nul || !isText(r.content) {
		return nil, binaryError(l, "has a NUL byte or is not valid UTF-8")
	}
	return &OpenResponse{
		Path:       l.stored,
		Content:    string(r.content),
		Language:   Language(l.stored),
		Size:       r.size,
		Mtime:      r.mtime,
		Version:    r.version,
		Truncated:  r.truncated,
		EOL:        r.eol,
		StartLine:  offset,
		EndLine:    r.end,
		TotalLines: r.total,
	}, nil
}

// scanRange streams l through readLines.
func (s *Service) scanRange(l loc, offset, limit int) (lineRange, error) {
	rc, info, err := s.jail.OpenRead(l.abs)
	if err != nil {
		return lineRange{}, err
	}
	defer rc.Close()
	maxRead := s.jail.MaxReadBytes()
	tooLarge := func(size int64) error {
		return shell.Errorf(shell.CodeTooLarge, l.stored, "%s is %d bytes, over max_read_bytes (%d); it cannot be read through the editor", display(l.stored), size, maxRead)
	}
	if maxRead > 0 && info.Size > maxRead {
		return lineRange{}, tooLarge(info.Size)
	}
	r, err := readLines(rc, offset, limit, s.cfg.Limits.MaxFileBytes)
	if err != nil {
		return lineRange{}, shell.AsError(err, l.stored)
	}
	if maxRead > 0 && r.size > maxRead {
		return lineRange{}, tooLarge(r.size)
	}
	r.mtime = info.ModTime
	return r, nil
}

// countLines is the number of lines of data: its newlines, plus one for a
// last line without one.
func countLines(data []byte) int {
	n := 0
	for _, c := range data {
		if c == '\n' {
			n++
		}
	}
	if len(data) > 0 && data[len(data)-1] != '\n' {
		n++
	}
	return n
}

func binaryError(l loc, why string) error {
	return shell.Errorf(shell.CodeBinary, l.stored, "%s %s, so it is treated as binary and not opened or written as text", display(l.stored), why)
}
