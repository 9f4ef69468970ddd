package main

import (
	"bytes"
	"strings"
	"testing"
)

// Asking for help prints the usage and succeeds; nothing after it reads
// like an error (issue 23: "editord: flag: help requested").
func TestHelpIsNotAnError(t *testing.T) {
	for _, args := range [][]string{{"serve", "--help"}, {"serve", "-h"}, {"call", "--help"}, {"functions", "-h"}} {
		var out, errOut bytes.Buffer
		code := run(args, strings.NewReader(""), &out, &errOut)
		if code != 0 {
			t.Errorf("%v: exit %d, want 0", args, code)
		}
		all := out.String() + errOut.String()
		if !strings.Contains(all, "Usage:") {
			t.Errorf("%v: no usage printed: %q", args, all)
		}
		if strings.Contains(all, "help requested") || strings.Contains(all, "editord: flag") {
			t.Errorf("%v: help reads like an error: %q", args, all[max(0, len(all)-120):])
		}
	}
}
