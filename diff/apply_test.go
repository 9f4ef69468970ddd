package diff

import "testing"

// Apply refuses a patch made against other content instead of guessing.
func TestApplyRefusesOtherContent(t *testing.T) {
	res := Unified("a\nb\nc\n", "a\nB\nc\n", Options{Path: "f", Context: 1})
	if got, err := Apply("a\nb\nc\n", res.Patch); err != nil || got != "a\nB\nc\n" {
		t.Fatalf("Apply = %q, %v", got, err)
	}
	for _, other := range []string{"a\nx\nc\n", "x\nb\nc\n", "a\n", ""} {
		if got, err := Apply(other, res.Patch); err == nil {
			t.Errorf("Apply to %q = %q, want an error", other, got)
		}
	}
	if _, err := Apply("a\n", "garbage"); err == nil {
		t.Error("a patch with no header applied")
	}
}
