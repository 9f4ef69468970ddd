package protocol

import (
	"strconv"

	"github.com/editord/editord/editor"
	"github.com/editord/editord/editor/wire"
)

// searchJSON writes an editor::search response exactly as marshalJSON
// would, without reflection: a capped search of 20,000 hits is a 1 MB
// object, and encoding/json spent a third of the call on it
// (BenchmarkStdioSearchCapped). TestSearchJSONMatchesMarshal keeps the two
// equal, field for field.
func searchJSON(r *editor.SearchResponse) ([]byte, error) {
	n := 256
	for _, f := range r.Files {
		n += len(f.Path) + 40
		for _, h := range f.Hits {
			n += len(h.Text) + 48 + 12*len(h.Ranges)
		}
		for _, c := range f.Context {
			n += len(c.Text) + 24
		}
	}
	b := make([]byte, 0, n)
	b = append(b, `{"files":`...)
	b = wire.AppendArray(b, r.Files, appendSearchFile)
	b = append(b, `,"total":`...)
	b = strconv.AppendInt(b, int64(r.Total), 10)
	b = append(b, `,"files_scanned":`...)
	b = strconv.AppendInt(b, int64(r.FilesScanned), 10)
	b = append(b, `,"truncated":`...)
	b = strconv.AppendBool(b, r.Truncated)
	b = append(b, `,"root":`...)
	b = appendJSONString(b, r.Root)
	// The rest is small: encoding/json, as for every other response.
	skipped, err := marshalJSON(r.Skipped)
	if err != nil {
		return nil, err
	}
	b = append(b, `,"skipped":`...)
	b = append(b, skipped...)
	b = append(b, `,"skipped_total":`...)
	b = strconv.AppendInt(b, int64(r.SkippedTotal), 10)
	if r.ContextOmitted != 0 {
		b = append(b, `,"context_omitted":`...)
		b = strconv.AppendInt(b, int64(r.ContextOmitted), 10)
	}
	return append(b, '}'), nil
}

func appendSearchFile(b []byte, f editor.SearchFile) []byte {
	b = append(b, `{"path":`...)
	b = appendJSONString(b, f.Path)
	b = append(b, `,"hits":`...)
	b = wire.AppendArray(b, f.Hits, appendSearchHit)
	if f.Count != 0 {
		b = append(b, `,"count":`...)
		b = strconv.AppendInt(b, int64(f.Count), 10)
	}
	if len(f.Context) > 0 {
		b = append(b, `,"context":`...)
		b = wire.AppendArray(b, f.Context, func(b []byte, c editor.ContextLine) []byte {
			b = append(b, `{"line":`...)
			b = strconv.AppendInt(b, int64(c.Line), 10)
			b = append(b, `,"text":`...)
			b = appendJSONString(b, c.Text)
			return append(b, '}')
		})
	}
	return append(b, '}')
}

func appendSearchHit(b []byte, h editor.SearchHit) []byte {
	b = append(b, `{"line":`...)
	b = strconv.AppendInt(b, int64(h.Line), 10)
	b = append(b, `,"column":`...)
	b = strconv.AppendInt(b, int64(h.Column), 10)
	b = append(b, `,"text":`...)
	b = appendJSONString(b, h.Text)
	b = append(b, `,"ranges":`...)
	b = wire.AppendArray(b, h.Ranges, func(b []byte, rg [2]int) []byte {
		b = append(b, '[')
		b = strconv.AppendInt(b, int64(rg[0]), 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(rg[1]), 10)
		return append(b, ']')
	})
	return append(b, '}')
}

// encodeResponse is a response's structuredContent.
func encodeResponse(resp any) ([]byte, error) {
	switch r := resp.(type) {
	case *editor.SearchResponse:
		if r != nil {
			return searchJSON(r)
		}
	case *editor.OpenResponse:
		if r != nil {
			return openJSON(r), nil
		}
	}
	return marshalJSON(resp)
}
