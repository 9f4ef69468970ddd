package protocol

import (
	"strconv"

	"github.com/editord/editord/editor"
)

// openJSON writes an editor::open response exactly as marshalJSON would,
// into one buffer of its size: encoding/json's buffer doubled its way up
// to a 50 MB file's content and was then copied whole, holding about three
// times the file at once (the goal is three times in all).
// TestOpenJSONMatchesMarshal keeps the two equal, field for field.
func openJSON(o *editor.OpenResponse) []byte {
	b := make([]byte, 0, len(o.Content)+len(o.Content)/16+len(o.Path)+len(o.Root)+256)
	b = append(b, `{"path":`...)
	b = appendJSONString(b, o.Path)
	b = append(b, `,"content":`...)
	b = appendJSONString(b, o.Content)
	b = append(b, `,"language":`...)
	b = appendJSONString(b, o.Language)
	b = append(b, `,"size":`...)
	b = strconv.AppendInt(b, o.Size, 10)
	b = append(b, `,"mtime":`...)
	b = strconv.AppendInt(b, o.Mtime, 10)
	b = append(b, `,"version":`...)
	b = appendJSONString(b, o.Version)
	b = append(b, `,"truncated":`...)
	b = strconv.AppendBool(b, o.Truncated)
	b = append(b, `,"eol":`...)
	b = appendJSONString(b, o.EOL)
	b = append(b, `,"start_line":`...)
	b = strconv.AppendInt(b, int64(o.StartLine), 10)
	b = append(b, `,"end_line":`...)
	b = strconv.AppendInt(b, int64(o.EndLine), 10)
	b = append(b, `,"total_lines":`...)
	b = strconv.AppendInt(b, int64(o.TotalLines), 10)
	b = append(b, `,"root":`...)
	b = appendJSONString(b, o.Root)
	if o.Draft != nil {
		b = append(b, `,"draft":`...)
		d, err := marshalJSON(o.Draft)
		if err != nil {
			d = []byte("null")
		}
		b = append(b, d...)
	}
	return append(b, '}')
}
