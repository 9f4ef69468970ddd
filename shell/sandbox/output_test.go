package sandbox

import (
	"bytes"
	"fmt"
	"path/filepath"
	"testing"
)

func TestLogKeepsTheEnd(t *testing.T) {
	base := filepath.Join(t.TempDir(), "stdout")
	l, err := NewLog(base, 1000, 64)
	if err != nil {
		t.Fatal(err)
	}
	var all bytes.Buffer
	for i := 0; all.Len() < 5000; i++ {
		line := fmt.Sprintf("line %d\n", i)
		all.WriteString(line)
		l.Write([]byte(line))
		// Any process may page it meanwhile.
		data, first, total, err := ReadLog(base, 0, 10_000)
		if err != nil {
			t.Fatal(err)
		}
		if total != int64(all.Len()) || !bytes.Equal(data, all.Bytes()[first:]) || total-first > 1000 {
			t.Fatalf("after %d bytes: first %d total %d, %d bytes read", all.Len(), first, total, len(data))
		}
	}
	l.Close()
	tail, total := l.Tail()
	if total != int64(all.Len()) || !bytes.Equal(tail, all.Bytes()[all.Len()-64:]) {
		t.Fatalf("tail %q of %d", tail, total)
	}
	// A page in the middle, and one cut by n.
	_, first, _, _ := ReadLog(base, 0, 1)
	data, _, _, err := ReadLog(base, first+10, 25)
	if err != nil || !bytes.Equal(data, all.Bytes()[first+10:first+35]) {
		t.Fatalf("page %q %v", data, err)
	}
	if segs, _ := segments(base); len(segs) > 2 {
		t.Fatalf("%d segments kept", len(segs))
	}
	// A big write is cut across segments too.
	big := bytes.Repeat([]byte("x"), 3000)
	l2, _ := NewLog(base+"2", 1000, 10)
	l2.Write(big)
	l2.Close()
	data, first, total, err = ReadLog(base+"2", 0, 5000)
	if err != nil || total != 3000 || first < 2000 || len(data) != int(total-first) {
		t.Fatalf("big write: first %d total %d len %d %v", first, total, len(data), err)
	}
	if _, _, _, err := ReadLog(base+"none", 0, 10); err == nil {
		t.Fatal("an absent stream read without error")
	}
}

// Changed wakes a reader on the next write and on the end; once ended it
// is nil, so a follower stops waiting on the stream.
func TestLogChanged(t *testing.T) {
	l, err := NewLog(filepath.Join(t.TempDir(), "stdout"), 1000, 64)
	if err != nil {
		t.Fatal(err)
	}
	ch := l.Changed()
	select {
	case <-ch:
		t.Fatal("closed before any write")
	default:
	}
	l.Write([]byte("x"))
	<-ch // closed by the write, or the test hangs
	ch = l.Changed()
	l.Close()
	<-ch
	if l.Changed() != nil {
		t.Fatal("Changed after the end is not nil")
	}
}
