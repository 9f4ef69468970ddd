package turns

import (
	"bytes"
	"encoding/json"
)

// rec is one line of the log. Op says which fields mean something:
//
//	head   gen: the log's generation (a rewrite makes the next one); first line
//	begin  turn, n, by, title, explicit, reverts, time; side: a revert's own
//	       turn, which never becomes its writer's current turn
//	write  turn and one change: seq, root, path, from, kind, cause, by, ext,
//	       prev, after (versions), pa, aa (where their contents are: pack,
//	       offset, length), mode, added, removed, time; dir: a folder
//	       (a deleted folder's files follow it, each a write of its own)
//	end    turn, time
//	keep   turn, root, path, hunks (none: the whole file), of (the file's hunk
//	       count), by, time: the file or hunks were reviewed and kept
//	undo   the same for hunks a revert undid; in is the revert's turn
//	pack   pack: the contents go to this pack from now on (pack.go)
//	drop   pack: this pack was removed, with the contents in it
type rec struct {
	Op       string  `json:"op"`
	Gen      int64   `json:"gen,omitempty"`
	Turn     string  `json:"turn,omitempty"`
	N        int64   `json:"n,omitempty"`
	By       string  `json:"by,omitempty"`
	Title    string  `json:"title,omitempty"`
	Explicit bool    `json:"explicit,omitempty"`
	Side     bool    `json:"side,omitempty"`
	Reverts  string  `json:"reverts,omitempty"`
	Time     int64   `json:"time,omitempty"` // Unix milliseconds
	Seq      int64   `json:"seq,omitempty"`
	Root     string  `json:"root,omitempty"`
	Path     string  `json:"path,omitempty"`
	From     string  `json:"from,omitempty"`
	Kind     string  `json:"kind,omitempty"`
	Cause    string  `json:"cause,omitempty"`
	Ext      bool    `json:"ext,omitempty"`
	Prev     string  `json:"prev,omitempty"`
	After    string  `json:"after,omitempty"`
	Mode     uint32  `json:"mode,omitempty"`
	Dir      bool    `json:"dir,omitempty"`
	Added    int     `json:"added,omitempty"`
	Removed  int     `json:"removed,omitempty"`
	PA       []int64 `json:"pa,omitempty"`
	AA       []int64 `json:"aa,omitempty"`
	Pack     int64   `json:"pack,omitempty"`
	Hunks    []int   `json:"hunks,omitempty"`
	Of       int     `json:"of,omitempty"`
	In       string  `json:"in,omitempty"`
}

// appendRec adds r's line to buf.
func appendRec(buf []byte, r *rec) []byte {
	line, err := json.Marshal(r)
	if err != nil { // a rec is plain data: unreachable
		return buf
	}
	buf = append(buf, line...)
	return append(buf, '\n')
}

// eachRec calls fn for every whole line of data (ending in '\n'), skipping
// lines that are not records (torn by a crash, or garbage). It returns the
// length of what it consumed: up to the end of the last whole line.
func eachRec(data []byte, fn func(*rec)) int {
	used := 0
	for {
		nl := bytes.IndexByte(data[used:], '\n')
		if nl < 0 {
			return used
		}
		line := data[used : used+nl]
		used += nl + 1
		if len(line) == 0 || line[0] != '{' {
			continue
		}
		var r rec
		if json.Unmarshal(line, &r) != nil || r.Op == "" {
			continue
		}
		fn(&r)
	}
}
