package gitops

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// approxDates are texts git's approxidate reads: strict dates, relative
// ones, words, and junk.
var approxDates = []string{
	"now", "yesterday", "1.hour.ago", "1 hour ago", "2.hours.ago", "90.minutes.ago", "10 seconds ago", "3 days ago", "3.days",
	"2 weeks ago", "1 month ago", "3.months.ago", "14 months ago", "1 year ago", "two days ago", "ten weeks ago", "last week",
	"last friday", "friday", "2 fridays ago", "noon", "midnight", "tea", "yesterday noon", "noon yesterday", "5pm", "5 PM", "9am",
	"last tuesday 3pm", "2026-01-01", "2025-10-01", "2025-10-01 10:00", "2025-10-01 10:00:00", "2025-10-01T10:00:00Z",
	"2025-10-01 10:00:00 +0200", "2025-10-01 10:00:00 -05:00", "2025/10/01", "10/01/2025", "01.10.2025", "1.10.25", "20251001",
	"Oct 1 2025", "1 Oct 2025", "October 1, 2025 10:30", "Wed, 1 Oct 2025 10:00:00 +0000", "Dec 6", "Dec 06", "Dec 0006",
	"Mar 1", "1700000000", "@1700000000 +0100", "123456789", "99999999", "1970-01-01", "2099-12-31", "2100-01-01", "12:30",
	"12:30:45", "12.30.45", "25:00", "never", "yesterday 23:59", "3 days 2 hours ago", "last month", "last year", "June",
	"june 3", "3 june", "in 2 days", "tomorrow", "today", "garbage", "ago", "", " ", "0", "00", "07", "2025", "1399",
	"2 3 4", "10/13/2025", "13/10/2025", "31.12.2025", "2025-13-01", "2025-02-30", "1.5.days.ago", "PST", "10:00 PST",
	"10:00 CEST", "Sat", "saturdays", "five", "lastfriday",
}

// TestApproxidateMatchesGit: every text gives the time git rev-parse
// --since gives (it prints approxidate's answer) for the same "now", in
// UTC and, through a child process, in two other time zones.
func TestApproxidateMatchesGit(t *testing.T) {
	needGit(t)
	if os.Getenv("EDITORD_APPROX_CHILD") == "" {
		for _, tz := range []string{"Europe/Berlin", "America/New_York"} {
			if _, err := time.LoadLocation(tz); err != nil {
				t.Logf("no zone data for %s: %v", tz, err)
				continue
			}
			cmd := exec.Command(os.Args[0], "-test.run=^TestApproxidateMatchesGit$", "-test.count=1")
			cmd.Env = append(os.Environ(), "TZ="+tz, "EDITORD_APPROX_CHILD=1")
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("in %s: %v\n%s", tz, err, out)
			}
		}
	}
	dir := t.TempDir()
	if out, err := gitCmd(dir, "init", "-q"); err != nil {
		t.Fatal(err, out)
	}
	// A "now" in summer and one in winter, at odd times of day.
	for _, now := range []int64{1760000000, 1767000000 + 12345} {
		args := []string{"rev-parse"}
		for _, d := range approxDates {
			args = append(args, "--since="+d)
		}
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_TEST_DATE_NOW="+strconv.FormatInt(now, 10))
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("git rev-parse --since: %v", err)
		}
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		if len(lines) != len(approxDates) {
			t.Fatalf("git printed %d lines for %d dates", len(lines), len(approxDates))
		}
		for i, d := range approxDates {
			want, _ := strconv.ParseInt(strings.TrimPrefix(lines[i], "--max-age="), 10, 64)
			if got, _ := approxidate(d, time.Unix(now, 0)); got != want {
				t.Errorf("TZ %s now %d: approxidate(%q) = %d (%s), git %d (%s)", time.Local, now, d, got,
					time.Unix(got, 0).Format(time.RFC3339), want, time.Unix(want, 0).Format(time.RFC3339))
			}
		}
	}
}

// TestApproxidateErrors: only a text in which nothing was understood is
// an error (git rev-parse refuses @{garbage} and accepts @{one.week}).
func TestApproxidateErrors(t *testing.T) {
	now := time.Unix(1760000000, 0)
	for _, d := range []string{"garbage", "", "ago", "today", "tomorrow"} {
		if _, ok := approxidate(d, now); ok {
			t.Errorf("%q understood", d)
		}
	}
	for _, d := range []string{"yesterday", "1.week.ago", "one.week", "2025-01-01", "noon", "1700000000"} {
		if _, ok := approxidate(d, now); !ok {
			t.Errorf("%q not understood", d)
		}
	}
}
