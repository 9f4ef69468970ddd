package gosym

import (
	"bytes"
	"strconv"
	"strings"
)

// ModulePath is the module a go.mod declares ("" when it declares none):
// its module line, quoted or not, comments left out.
func ModulePath(gomod []byte) string {
	for line := range bytes.Lines(gomod) {
		l := string(line)
		if i := strings.Index(l, "//"); i >= 0 {
			l = l[:i]
		}
		f := strings.Fields(l)
		if len(f) != 2 || f[0] != "module" {
			continue
		}
		if p, err := strconv.Unquote(f[1]); err == nil {
			return p
		}
		return f[1]
	}
	return ""
}
