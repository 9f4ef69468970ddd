package protocol

import (
	"embed"
	"io/fs"
	"net/http"
	"net/url"
	"strings"
)

// The person's editor page (protocol/web): a static bundle built by `make
// web` and committed under web/dist, so `go build` needs no npm. The assets
// hold no data and need no token; the page asks /mcp for everything, with
// the token it took from its URL's fragment (docs/contract.md §9).
//
//go:embed all:web/dist
var webDist embed.FS

// pageCSP allows this origin's scripts, styles and /mcp and nothing else:
// no inline script, no other host (the page works offline), no framing.
const pageCSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; font-src 'self'; " +
	"base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// pageHandler serves the bundle at /: index.html for "/", the assets by
// name, no directory listings.
func pageHandler() http.Handler {
	dist, err := fs.Sub(webDist, "web/dist")
	if err != nil {
		panic(err)
	}
	files := http.FileServerFS(dist)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "Method Not Allowed", http.StatusMethodNotAllowed)
			return
		}
		if r.URL.Path != "/" && strings.HasSuffix(r.URL.Path, "/") || r.URL.Path == "/index.html" {
			http.NotFound(w, r)
			return
		}
		// The bundle changes with the binary; revalidate rather than cache.
		w.Header().Set("Cache-Control", "no-cache")
		files.ServeHTTP(w, r)
	})
}

// secureHeaders sets the page's security headers on every response, /mcp
// included.
func secureHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", pageCSP)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		h.Set("Cross-Origin-Resource-Policy", "same-origin")
		next.ServeHTTP(w, r)
	})
}

// sameOrigin accepts a browser's Origin only when it is this server's own
// (the page it served): scheme http or https and the host the request was
// sent to. A page from any other origin, another local port included, is
// refused; so is a rebinding attack, whose Host is not loopback.
func sameOrigin(origin string, r *http.Request) bool {
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Path != "" && u.Path != "/" {
		return false
	}
	return strings.EqualFold(u.Host, r.Host)
}

// PageURL is the link a person opens: the page, with the token in the
// fragment (never sent to the server, so never in a request log).
func PageURL(addr, token string) string {
	return "http://" + browsable(addr) + "/#token=" + url.QueryEscape(token)
}

// MCPURL is the MCP endpoint of a server listening on addr.
func MCPURL(addr string) string { return "http://" + browsable(addr) + "/mcp" }

// browsable turns a listen address into one a browser can open: an
// unspecified host (0.0.0.0, [::]) becomes loopback.
func browsable(addr string) string {
	switch {
	case strings.HasPrefix(addr, "0.0.0.0:"):
		return "127.0.0.1" + addr[len("0.0.0.0"):]
	case strings.HasPrefix(addr, "[::]:"):
		return "[::1]" + addr[len("[::]"):]
	}
	return addr
}
