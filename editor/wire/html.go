package wire

import (
	"io"
	"sync"
)

// htmlUnescaper undoes encoding/json's HTML escaping on the wire: mcp-go
// marshals every message with json.Marshal, which writes "<", ">"
// and "&" as \u003c, \u003e and \u0026, six bytes each and unreadable in
// a log. In JSON text a backslash only ever starts an escape inside a
// string, so turning exactly these three escapes back into their
// characters yields the same JSON value. An escape cut between two writes
// waits for the next one.
type htmlUnescaper struct {
	mu    sync.Mutex
	w     io.Writer
	carry []byte
}

// UnescapeHTML wraps w for a writer of JSON made by others (mcp-go's
// types escape HTML in their MarshalJSON whatever the encoder says):
// protocol's transports, editord call and editord functions write JSON as
// editord means it.
func UnescapeHTML(w io.Writer) io.Writer { return &htmlUnescaper{w: w} }

func (u *htmlUnescaper) Write(p []byte) (int, error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	buf := p
	if len(u.carry) > 0 {
		buf = append(u.carry, p...)
		u.carry = nil
	}
	out := make([]byte, 0, len(buf))
	i := 0
	for i < len(buf) {
		c := buf[i]
		if c != '\\' {
			out = append(out, c)
			i++
			continue
		}
		if i+1 >= len(buf) || (buf[i+1] == 'u' && i+6 > len(buf)) {
			break // the rest of the escape comes with the next write
		}
		if buf[i+1] != 'u' {
			out = append(out, c, buf[i+1])
			i += 2
			continue
		}
		switch string(buf[i+2 : i+6]) {
		case "003c":
			out = append(out, '<')
		case "003e":
			out = append(out, '>')
		case "0026":
			out = append(out, '&')
		default:
			out = append(out, buf[i:i+6]...)
		}
		i += 6
	}
	if i < len(buf) {
		u.carry = append([]byte(nil), buf[i:]...)
	}
	if _, err := u.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}
