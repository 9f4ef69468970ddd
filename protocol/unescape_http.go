package protocol

import (
	"io"
	"net/http"

	"github.com/editord/editord/editor/wire"
)

// unescapeHTTP is wire.UnescapeHTML for the Streamable HTTP transport,
// whose bodies (a JSON response, or SSE events of JSON) mcp-go also
// encodes with HTML escaping.
func unescapeHTTP(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(&unescapingResponse{ResponseWriter: w, u: wire.UnescapeHTML(w)}, r)
	})
}

type unescapingResponse struct {
	http.ResponseWriter
	u io.Writer
}

func (w *unescapingResponse) Write(p []byte) (int, error) { return w.u.Write(p) }

// Flush keeps streaming (SSE) working through the wrapper.
func (w *unescapingResponse) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the real writer.
func (w *unescapingResponse) Unwrap() http.ResponseWriter { return w.ResponseWriter }
