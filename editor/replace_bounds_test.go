package editor

// Issue 19 item 1: editor::replace knows the size of its result before it
// makes it. A dry run on one 50 KB line of "x" with a 4 KB replacement
// built 200 MB (577 MiB resident, with its diff) before anything checked.

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/editord/editord/shell"
)

func TestReplaceRefusesAGrowingResultBeforeMakingIt(t *testing.T) {
	e := tcNew(t)
	e.write("one-line.txt", strings.Repeat("x", 50_000))
	f, _ := Lookup("editor::replace")
	call := func(args string) error {
		_, err := f.Call(context.Background(), e.s, json.RawMessage(args))
		return err
	}
	with := strings.Repeat("y", 4096)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	err := call(`{"pattern":"x","literal":true,"with":"` + with + `","paths":["one-line.txt"]}`)
	runtime.ReadMemStats(&after)
	tcWantCode(t, err, shell.CodeTooLarge)
	size := fmt.Sprint(50_000 * 4096)
	for _, want := range []string{"one-line.txt", size, fmt.Sprint(e.cfg.Jail.MaxWriteBytes), "max_write_bytes"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the refusal should name %q: %v", want, err)
		}
	}
	// What the call allocated in all: the file, its hits, the measure;
	// never the 200 MB result.
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 2<<20 {
		t.Errorf("the refused dry run allocated %d MiB", grew>>20)
	}
	// A write is refused the same way, and leaves the file as it was.
	v := e.open("one-line.txt").Version
	tcWantCode(t, call(`{"pattern":"x","literal":true,"with":"`+with+`","write":{"one-line.txt":"`+v+`"}}`), shell.CodeTooLarge)
	if e.read("one-line.txt") != strings.Repeat("x", 50_000) {
		t.Fatal("a refused replace changed the file")
	}
	// The same with a template that repeats a group: measured, not made.
	tcWantCode(t, call(`{"pattern":"(x)","with":"`+strings.Repeat("$1", 2000)+`","paths":["one-line.txt"]}`), shell.CodeTooLarge)
	// The replacement itself is bounded.
	long := strings.Repeat("z", int(e.s.replaceWithLimit())+1)
	err = call(`{"pattern":"x","literal":true,"with":"` + long + `","paths":["one-line.txt"]}`)
	tcWantCode(t, err, shell.CodeTooLarge)
	if !strings.Contains(err.Error(), "with is") {
		t.Errorf("a replacement over the limit: %v", err)
	}
	// Under the limit it works as before.
	res, err := f.Call(context.Background(), e.s, json.RawMessage(`{"pattern":"x","literal":true,"with":"yy","paths":["one-line.txt"]}`))
	if err != nil || res.(*ReplaceResponse).Files[0].Replaced != 50_000 {
		t.Fatalf("a replacement within the limit: %+v, %v", res, err)
	}
}

// A dry run over many files keeps its patches within max_write_bytes in
// all: the rest are counted in patches_omitted.
func TestReplacePatchesBoundedInAll(t *testing.T) {
	e := tcNew(t, func(c *Config) { c.Jail.MaxWriteBytes = 64 << 10 })
	var paths []string
	for i := range 40 {
		p := fmt.Sprintf("f%02d.txt", i)
		e.write(p, strings.Repeat("line x\n", 500))
		paths = append(paths, `"`+p+`"`)
	}
	f, _ := Lookup("editor::replace")
	out, err := f.Call(context.Background(), e.s, json.RawMessage(`{"pattern":"x","literal":true,"with":"y","paths":[`+strings.Join(paths, ",")+`]}`))
	if err != nil {
		t.Fatal(err)
	}
	res, total := out.(*ReplaceResponse), 0
	for _, f := range res.Files {
		total += len(f.Patch)
	}
	if total > 64<<10 || res.PatchesOmitted == 0 || res.PatchesOmitted == len(res.Files) {
		t.Fatalf("patches of %d bytes in all, %d omitted of %d", total, res.PatchesOmitted, len(res.Files))
	}
}
