package editor

import (
	"context"

	"github.com/editord/editord/shell"
	"github.com/editord/editord/workspace"
)

type OpenRequest struct {
	Path string `json:"path" desc:"File to open, root-relative (src/main.go) or absolute inside the jail."`
}

type OpenResponse struct {
	Path      string `json:"path" desc:"The file, in stored form (root-relative)."`
	Content   string `json:"content" desc:"The file's bytes exactly as on disk (line endings, BOM and final newline untouched)."`
	Language  string `json:"language" desc:"Monaco language id, e.g. go, typescript, plaintext."`
	Size      int64  `json:"size" desc:"Full size of the file in bytes (more than len(content) when truncated)."`
	Mtime     int64  `json:"mtime" desc:"Modification time, Unix seconds."`
	Version   string `json:"version" desc:"Version of the returned content; pass it back as expected_version to editor::save."`
	Truncated bool   `json:"truncated" desc:"True when the file was over max_file_bytes and only its beginning is returned. Such a file is not recorded as a buffer and saving it back is refused."`
	EOL       string `json:"eol" enum:"lf,crlf,mixed,none" desc:"Line endings present: lf, crlf, mixed, or none (no line ending at all)."`
	Root      string `json:"root" desc:"The workspace root the call used: relative paths are relative to it."`
}

func init() {
	define("editor::open",
		"Read a text file and record it as an open buffer, so it appears in the user's editor. "+
			"Returns the exact content, its version (pass it to editor::save as expected_version) and mtime. "+
			"Files over max_file_bytes (2,000,000 by default) come back truncated and are not recorded. "+
			`Binary files (a NUL byte, or invalid UTF-8) are refused with code binary. Example: {"path": "src/main.go"}.`,
		readOnly, (*Service).Open)
}

func (s *Service) Open(ctx context.Context, req *OpenRequest) (*OpenResponse, error) {
	root, l, err := s.target(req.Path, "path")
	if err != nil {
		return nil, err
	}
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
		Content:   string(data),
		Language:  Language(l.stored),
		Size:      res.Info.Size,
		Mtime:     res.Info.ModTime,
		Version:   Version(data),
		Truncated: res.Truncated,
		EOL:       EOL(data),
		Root:      root,
	}
	if !res.Truncated {
		b := workspace.Buffer{Path: l.stored, Version: out.Version, Mtime: out.Mtime, Language: out.Language}
		if err := s.remember(ctx, root, b); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func binaryError(l loc, why string) error {
	return shell.Errorf(shell.CodeBinary, l.stored, "%s %s, so it is treated as binary and not opened or written as text", display(l.stored), why)
}
