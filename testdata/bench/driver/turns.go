package main

// Turns (issue 21): what they add to a write, and what reading them costs.
//
//   - a guarded save of a 10 KiB file, p50, next to the same on
//     BENCH_BASE_BIN (a binary from before turns), in interleaved blocks on
//     roots and state dirs of their own (goal: within 10%);
//   - editor::history listing 1,000 turns (goal: 20 ms);
//   - editor::history's detail of a turn of 20 files (goal: 50 ms), and a
//     dry run of its revert.

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

func benchTurns(r *report) {
	if !r.served["editor::history"] || !r.served["editor::turn"] {
		r.na("turns: save cost, listing 1,000 turns, a 20-file turn's detail", "", "", "function not served")
		return
	}
	benchTurnsSave(r)
	benchTurnsRead(r)
}

// benchTurnsSave times guarded saves with turns and, when BENCH_BASE_BIN
// names one, on a binary without them.
func benchTurnsSave(r *report) {
	a, b := tenKiB()
	mk := func(bin string) (*server, func() time.Duration) {
		root := filepath.Join(tmpBase, fmt.Sprintf("turns-save-%d", time.Now().UnixNano()))
		check(os.MkdirAll(root, 0o755))
		check(os.WriteFile(filepath.Join(root, "ten_kib.txt"), []byte(a), 0o644))
		s := startServerBin(bin, root, "")
		raw, _ := s.mustCall("editor::open", map[string]any{"path": "ten_kib.txt", "tab": false})
		var o struct {
			Version string `json:"version"`
		}
		json.Unmarshal(raw, &o)
		v, i := o.Version, 0
		return s, func() time.Duration {
			content := a
			if i++; i%2 == 0 {
				content = b
			}
			raw, d := s.mustCall("editor::save", map[string]any{"path": "ten_kib.txt", "content": content, "expected_version": v})
			var sv struct {
				Saved   bool   `json:"saved"`
				Version string `json:"version"`
			}
			json.Unmarshal(raw, &sv)
			if !sv.Saved {
				panic(fmt.Sprintf("save did not save: %s", raw))
			}
			v = sv.Version
			return d
		}
	}
	srv, save := mk(*binPath)
	defer srv.close()
	base := os.Getenv("BENCH_BASE_BIN")
	var baseSave func() time.Duration
	if base != "" {
		bs, f := mk(base)
		defer bs.close()
		baseSave = f
	}
	const blocks, per = 50, 20
	var with, without durs
	for k := -1; k < blocks; k++ { // block -1 warms both
		for i := 0; i < per; i++ {
			if d := save(); k >= 0 {
				with = append(with, d)
			}
		}
		if baseSave == nil {
			continue
		}
		for i := 0; i < per; i++ {
			if d := baseSave(); k >= 0 {
				without = append(without, d)
			}
		}
	}
	if baseSave == nil {
		r.add("save 10 KiB file, guarded, with turns (stdio; p50 / p99)", fmtDur(with.q(0.5))+" / "+fmtDur(with.q(0.99)),
			"n/a (set BENCH_BASE_BIN to a binary from before turns)", "", "≤ 1.10×", "")
		return
	}
	ratio := float64(with.q(0.5)) / float64(without.q(0.5))
	r.add("save 10 KiB file, guarded, with turns (stdio; p50 / p99)", fmtDur(with.q(0.5))+" / "+fmtDur(with.q(0.99)),
		"before turns "+fmtDur(without.q(0.5))+" / "+fmtDur(without.q(0.99)), fmt.Sprintf("%.2f×", ratio), "≤ 1.10×", verdict(ratio, 1.10))
}

// benchTurnsRead makes 1,000 turns and one of 20 files, then times
// reading them.
func benchTurnsRead(r *report) {
	root := filepath.Join(tmpBase, "turns-read")
	check(os.MkdirAll(filepath.Join(root, "many"), 0o755))
	check(os.MkdirAll(filepath.Join(root, "twenty"), 0o755))
	var text strings.Builder
	for i := 0; i < 200; i++ {
		fmt.Fprintf(&text, "line %03d: the quick brown fox jumps over the lazy dog\n", i)
	}
	base := text.String()
	for i := 0; i < 20; i++ {
		check(os.WriteFile(filepath.Join(root, "twenty", fmt.Sprintf("f%02d.txt", i)), []byte(base), 0o644))
	}
	s := startServerAt(root, "")
	defer s.close()
	t0 := time.Now()
	for i := 0; i < 1000; i++ {
		s.mustCall("editor::turn", map[string]any{"action": "begin", "title": fmt.Sprintf("task %d", i)})
		s.mustCall("editor::save", map[string]any{"path": fmt.Sprintf("many/f%d.txt", i%50), "content": fmt.Sprintf("turn %d\n", i), "force": true})
	}
	s.mustCall("editor::turn", map[string]any{"action": "begin", "title": "twenty files"})
	for i := 0; i < 20; i++ {
		p := fmt.Sprintf("twenty/f%02d.txt", i)
		edited := strings.NewReplacer("line 020:", "LINE 020:", "line 100:", "LINE 100:", "line 180:", "LINE 180:").Replace(base)
		s.mustCall("editor::save", map[string]any{"path": p, "content": edited, "force": true})
	}
	s.mustCall("editor::turn", map[string]any{"action": "end"})
	logf("  made 1,001 turns in %s", time.Since(t0).Round(time.Millisecond))

	var list durs
	var n int
	for i := -3; i < max(30, *runsF); i++ {
		raw, d := s.mustCall("editor::history", map[string]any{"limit": 1000})
		var h struct {
			Turns []json.RawMessage `json:"turns"`
		}
		json.Unmarshal(raw, &h)
		n = len(h.Turns)
		if i >= 0 {
			list = append(list, d)
		}
	}
	if n != 1000 {
		panic(fmt.Sprintf("history listed %d turns, not 1000", n))
	}
	r.add("editor::history: list 1,000 turns (stdio, p50 / p99)", fmtDur(list.q(0.5))+" / "+fmtDur(list.q(0.99)), "", "", "p50 ≤ 20 ms", verdict(float64(list.q(0.5))/1e6, 20))

	raw, _ := s.mustCall("editor::history", map[string]any{"limit": 1})
	var last struct {
		Turns []struct {
			Turn string `json:"turn"`
		} `json:"turns"`
	}
	json.Unmarshal(raw, &last)
	id := last.Turns[0].Turn
	var detail, dry durs
	hunks := 0
	for i := -3; i < max(30, *runsF); i++ {
		raw, d := s.mustCall("editor::history", map[string]any{"turn": id})
		var h struct {
			Files []struct {
				Hunks []json.RawMessage `json:"hunks"`
			} `json:"files"`
		}
		json.Unmarshal(raw, &h)
		hunks = 0
		for _, f := range h.Files {
			hunks += len(f.Hunks)
		}
		if len(h.Files) != 20 {
			panic(fmt.Sprintf("the 20-file turn has %d files", len(h.Files)))
		}
		_, dd := s.mustCall("editor::revert", map[string]any{"turn": id, "dry_run": true})
		if i >= 0 {
			detail = append(detail, d)
			dry = append(dry, dd)
		}
	}
	r.add(fmt.Sprintf("editor::history: one turn of 20 files, %d hunks, in detail (stdio, p50 / p99)", hunks), fmtDur(detail.q(0.5))+" / "+fmtDur(detail.q(0.99)), "", "", "p50 ≤ 50 ms", verdict(float64(detail.q(0.5))/1e6, 50))
	r.note("turns: editor::revert dry run of that 20-file turn p50 %s, p99 %s", fmtDur(dry.q(0.5)), fmtDur(dry.q(0.99)))
}
