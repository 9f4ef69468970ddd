package shell

import (
	"os"
	"testing"
)

// ReplaceFile replaces a state file whole (parents made), leaves no temp
// file, and describes the new file as a stat of it does.
func TestReplaceFile(t *testing.T) {
	f := newFixture(t)
	for i, data := range []string{"one\n", "two, longer\n", ""} {
		info, err := f.j.ReplaceFile(f.abs("d/e/state.json"), []byte(data), true)
		if err != nil {
			t.Fatal(err)
		}
		if got := f.read("d/e/state.json"); got != data {
			t.Fatalf("write %d: %q", i, got)
		}
		st, err := f.j.StatFile(f.abs("d/e/state.json"))
		if err != nil {
			t.Fatal(err)
		}
		if st.Ino != info.Ino || st.ModNano != info.ModNano || st.Size != info.Size {
			t.Errorf("write %d: ReplaceFile's info %+v, a stat after it %+v", i, info, st)
		}
	}
	fi, _ := os.Stat(f.abs("d/e/state.json"))
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", fi.Mode().Perm())
	}
	if tmp := tempFiles(t, f.root); len(tmp) != 0 {
		t.Errorf("temp files left: %v", tmp)
	}
	_, err := f.j.ReplaceFile(f.abs("x/y"), []byte("z"), false)
	wantCode(t, err, CodeNotFound)
}
