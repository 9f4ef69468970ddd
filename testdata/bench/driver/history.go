package main

// editor::git::log, editor::git::blame and editor::git::sync against git,
// on a history made for the purpose (the corpus has one commit): a
// repository of 10,000 commits over 2,000 small files and one 5,000-line
// file edited all along, served by a bare remote that has 3 commits more,
// over file:// and over http:// (git http-backend). Sync runs are
// `editord call` processes next to `git fetch`/`git pull` processes, each
// on a fresh copy of the clone.

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math/rand"
	"net"
	"net/http"
	"net/http/cgi"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

const (
	histCommits  = 10000
	histFiles    = 2000
	histBigLines = 5000
)

// makeHistory writes the history with git fast-import into a bare
// repository and returns the clone template (3 commits behind the remote).
func makeHistory(dir string) (bare, template string) {
	bare = filepath.Join(dir, "remote.git")
	template = filepath.Join(dir, "clone")
	done := filepath.Join(dir, ".done")
	if _, err := os.Stat(done); err == nil {
		return bare, template
	}
	os.RemoveAll(dir)
	check(os.MkdirAll(dir, 0o755))
	mustRun(dir, "git", "init", "-q", "--bare", "-b", "main", bare)
	cmd := exec.Command("git", "fast-import", "--quiet")
	cmd.Dir = bare
	in, err := cmd.StdinPipe()
	check(err)
	check(cmd.Start())
	w := bufio.NewWriterSize(in, 1<<20)
	rng := rand.New(rand.NewSource(13))
	files := make([][]string, histFiles)
	for i := range files {
		files[i] = make([]string, 40)
		for k := range files[i] {
			files[i][k] = fmt.Sprintf("line %d of file %d", k, i)
		}
	}
	big := make([]string, histBigLines)
	for k := range big {
		big[k] = fmt.Sprintf("\tbig line %d: some code here", k)
	}
	blob := func(path string, lines []string) {
		data := strings.Join(lines, "\n") + "\n"
		fmt.Fprintf(w, "M 100644 inline %s\ndata %d\n%s\n", path, len(data), data)
	}
	for c := 0; c < histCommits; c++ {
		when := 1600000000 + int64(c)*60
		msg := fmt.Sprintf("commit %d", c)
		fmt.Fprintf(w, "commit refs/heads/main\nauthor Dev %d <dev%d@example.com> %d +0000\ncommitter Dev <dev@example.com> %d +0000\ndata %d\n%s\n",
			c%7, c%7, when, when, len(msg), msg)
		if c == 0 {
			for i := range files {
				blob(fmt.Sprintf("d%d/s%d/f%d.txt", i%40, i%7, i), files[i])
			}
			blob("big.txt", big)
		} else {
			for k := 0; k < 1+rng.Intn(3); k++ {
				i := rng.Intn(histFiles)
				j := rng.Intn(len(files[i]))
				files[i][j] = fmt.Sprintf("changed in %d", c)
				if rng.Intn(3) == 0 {
					files[i] = append(files[i][:j], append([]string{fmt.Sprintf("added in %d", c)}, files[i][j:]...)...)
				}
				blob(fmt.Sprintf("d%d/s%d/f%d.txt", i%40, i%7, i), files[i])
			}
			if c%3 == 0 {
				j := rng.Intn(len(big))
				big[j] = fmt.Sprintf("\tbig line changed in %d", c)
				if rng.Intn(4) == 0 {
					big = append(big[:j], append([]string{fmt.Sprintf("\tinserted in %d", c)}, big[j:]...)...)
				}
				blob("big.txt", big)
			}
		}
		w.WriteString("\n")
	}
	check(w.Flush())
	in.Close()
	check(cmd.Wait())
	// Deltas between versions, as a real repository's pack has them
	// (fast-import writes most blobs whole).
	mustRun(bare, "git", "repack", "-a", "-d", "-f", "-q")
	mustRun(dir, "git", "clone", "-q", "file://"+bare, template)
	mustRun(template, "git", "config", "user.name", "Bench")
	mustRun(template, "git", "config", "user.email", "bench@localhost")
	// The remote moves on by 3 commits.
	pusher := filepath.Join(dir, "pusher")
	mustRun(dir, "git", "clone", "-q", "file://"+bare, pusher)
	for i := 1; i <= 3; i++ {
		p := filepath.Join(pusher, fmt.Sprintf("d%d/s%d/f%d.txt", i%40, i%7, i))
		f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
		check(err)
		fmt.Fprintf(f, "remote change %d\n", i)
		f.Close()
		mustRun(pusher, "git", "-c", "user.name=P", "-c", "user.email=p@x", "commit", "-q", "-am", fmt.Sprintf("remote %d", i))
	}
	mustRun(pusher, "git", "push", "-q", "origin", "main")
	os.RemoveAll(pusher)
	check(os.WriteFile(done, nil, 0o644))
	return bare, template
}

// runCPU is run that also returns the CPU time (user + system) the
// process used: on a machine shared with other work, CPU time compares
// the two tools more steadily than wall time does.
func runCPU(dir, name string, args ...string) (runResult, time.Duration) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	var out strings.Builder
	cmd.Stdout = &out
	t0 := time.Now()
	err := cmd.Run()
	d := time.Since(t0)
	var cpu time.Duration
	if cmd.ProcessState != nil {
		cpu = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	return runResult{out: []byte(out.String()), dur: d, err: err}, cpu
}

// serverCPU is the CPU time a call took in the warm server (10 ms ticks).
func serverCPU(srv *server, call func()) time.Duration {
	before := cpuTicks(srv.pid())
	call()
	return time.Duration(cpuTicks(srv.pid())-before) * 10 * time.Millisecond
}

// againstGit runs git with gitArgs in repo and the editord function
// editor::<what> with args on srv, once to warm up and then *runsF times
// each, notes their CPU times, and returns the last outputs and the wall
// times.
func againstGit(r *report, srv *server, repo, what string, gitArgs []string, args map[string]any) (gitOut []byte, edRaw json.RawMessage, edT, gitT durs) {
	var edC, gitC durs
	for i := -1; i < *runsF; i++ {
		res, gc := runCPU(repo, "git", gitArgs...)
		gitOut = res.out
		var d time.Duration
		ec := serverCPU(srv, func() { edRaw, d = srv.mustCall("editor::"+what, args) })
		if i >= 0 {
			gitT = append(gitT, res.dur)
			edT = append(edT, d)
			gitC, edC = append(gitC, gc), append(edC, ec)
		}
	}
	cpuNote(r, what, edC, gitC)
	return gitOut, edRaw, edT, gitT
}

func cpuNote(r *report, what string, ed, ref durs) {
	rs, _ := ratio(ed.median(), ref.median())
	r.note("%s: CPU time editord %s, git %s (ratio %s)", what, fmtDur(ed.median()), fmtDur(ref.median()), rs)
}

func mustRun(dir, name string, args ...string) string {
	r := run(dir, name, args...)
	if r.err != nil {
		panic(fmt.Sprintf("%s %s: %v", name, strings.Join(args, " "), r.err))
	}
	return string(r.out)
}

// freshCopy replaces dst with a copy of src (untimed).
func freshCopy(src, dst string) {
	os.RemoveAll(dst)
	mustRun("/", "cp", "-a", src, dst)
}

// httpRemote serves dir's repositories with git http-backend.
func httpRemote(dir string) (url string, stop func()) {
	execPath := strings.TrimSpace(mustRun("/", "git", "--exec-path"))
	h := &cgi.Handler{
		Path: filepath.Join(execPath, "git-http-backend"),
		Env:  []string{"GIT_PROJECT_ROOT=" + dir, "GIT_HTTP_EXPORT_ALL=1"},
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	check(err)
	srv := &http.Server{Handler: h}
	go srv.Serve(ln)
	return "http://" + ln.Addr().String(), func() { srv.Close() }
}

type logResp struct {
	Entries []struct {
		SHA   string `json:"sha"`
		Added int    `json:"added"`
	} `json:"entries"`
}

type blameResp struct {
	Lines []struct {
		SHA string `json:"sha"`
	} `json:"lines"`
}

func benchHistory(r *report) {
	dir := filepath.Join(filepath.Dir(*corpus), "history")
	logf("history: building %d commits in %s (once)", histCommits, dir)
	bare, template := makeHistory(dir)
	repo := filepath.Join(tmpBase, "history-repo")
	freshCopy(template, repo)

	// log and blame: a warm server on the clone, next to the git CLI.
	srv := startServerAt(repo, "")
	defer srv.close()
	if srv.has("editor::git::log") {
		gitArgs := []string{"log", "--numstat", "--format=%x01%H %P%n%an%n%ae%n%at%n%s", "-n", fmt.Sprint(histCommits)}
		gitOut, edRaw, edT, gitT := againstGit(r, srv, repo, "git::log", gitArgs, map[string]any{"limit": histCommits})
		rs, x := ratio(edT.median(), gitT.median())
		r.add(fmt.Sprintf("git::log %d commits (with +/- counts)", histCommits), fmtDur(edT.median()), "git log --numstat "+fmtDur(gitT.median()), rs, "≤ 1.5", verdict(x, 1.5))
		var lr logResp
		json.Unmarshal(edRaw, &lr)
		gitAdded, edAdded := 0, 0
		for _, l := range strings.Split(string(gitOut), "\n") {
			if f := strings.Split(l, "\t"); len(f) == 3 {
				var a int
				fmt.Sscan(f[0], &a)
				gitAdded += a
			}
		}
		for _, e := range lr.Entries {
			edAdded += e.Added
		}
		agree := "agree"
		if len(lr.Entries) != strings.Count(string(gitOut), "\x01") || edAdded != gitAdded {
			agree = "DIFFER"
		}
		r.note("git::log: editord %d entries, %d lines added in all; git %d commits, %d lines added — %s",
			len(lr.Entries), edAdded, strings.Count(string(gitOut), "\x01"), gitAdded, agree)
	} else {
		r.na(fmt.Sprintf("git::log %d commits", histCommits), "git log --numstat", "≤ 1.5", "function not served")
	}
	if srv.has("editor::git::blame") {
		gitOut, edRaw, edT, gitT := againstGit(r, srv, repo, "git::blame", []string{"blame", "--porcelain", "big.txt"},
			map[string]any{"path": "big.txt", "start": 1, "end": histBigLines * 2})
		rs, x := ratio(edT.median(), gitT.median())
		r.add(fmt.Sprintf("git::blame a %d-line file", histBigLines), fmtDur(edT.median()), "git blame --porcelain "+fmtDur(gitT.median()), rs, "≤ 1.5", verdict(x, 1.5))
		var br blameResp
		json.Unmarshal(edRaw, &br)
		var gitShas []string
		for _, l := range strings.Split(string(gitOut), "\n") {
			if len(l) > 41 && l[40] == ' ' && !strings.ContainsAny(l[:40], " \t") {
				gitShas = append(gitShas, l[:40])
			}
		}
		same := len(gitShas) == len(br.Lines)
		for i := 0; same && i < len(gitShas); i++ {
			same = gitShas[i] == br.Lines[i].SHA
		}
		agree := "agree line for line"
		if !same {
			agree = "DIFFER"
		}
		r.note("git::blame: editord %d lines, git %d — %s", len(br.Lines), len(gitShas), agree)
	} else {
		r.na(fmt.Sprintf("git::blame a %d-line file", histBigLines), "git blame", "≤ 1.5", "function not served")
	}
	srv.close()

	// sync: fetch and pull of 3 new commits, file:// and http://.
	httpURL, stop := httpRemote(dir)
	defer stop()
	for _, scheme := range []string{"file", "http"} {
		url := "file://" + bare
		if scheme == "http" {
			url = httpURL + "/" + filepath.Base(bare)
		}
		for _, action := range []string{"fetch", "pull"} {
			gitArgs := []string{"fetch", "-q"}
			if action == "pull" {
				gitArgs = []string{"pull", "-q", "--ff-only"}
			}
			var edT, gitT, edC, gitC durs
			okAll := true
			var lastSummary string
			for i := -1; i < *runsF; i++ {
				gdir, edir := filepath.Join(tmpBase, "sync-git"), filepath.Join(tmpBase, "sync-ed")
				freshCopy(template, gdir)
				freshCopy(template, edir)
				mustRun(gdir, "git", "remote", "set-url", "origin", url)
				mustRun(edir, "git", "remote", "set-url", "origin", url)
				res, gc := runCPU(gdir, "git", gitArgs...)
				if res.err != nil {
					panic(fmt.Sprintf("git %s: %v", action, res.err))
				}
				state := newStateDir()
				js, _ := json.Marshal(map[string]any{"action": action})
				er, ec := runCPU(edir, *binPath, "call", "editor::git::sync", string(js), "--root", edir, "--state-dir", state)
				d := er.dur
				var resp struct {
					OK      bool   `json:"ok"`
					Behind  int    `json:"behind"`
					Summary string `json:"summary"`
				}
				json.Unmarshal(er.out, &resp)
				lastSummary = resp.Summary
				if er.err != nil || !resp.OK || action == "pull" && resp.Behind != 0 {
					okAll = false
				}
				if i >= 0 {
					gitT = append(gitT, res.dur)
					edT = append(edT, d)
					gitC, edC = append(gitC, gc), append(edC, ec)
				}
			}
			cpuNote(r, fmt.Sprintf("git::sync %s over %s://", action, scheme), edC, gitC)
			rs, x := ratio(edT.median(), gitT.median())
			r.add(fmt.Sprintf("git::sync %s over %s:// (3 new commits, %d in history)", action, scheme, histCommits),
				fmtDur(edT.median()), fmt.Sprintf("git %s %s", action, fmtDur(gitT.median())), rs, "≤ 2.0", verdict(x, 2.0))
			if !okAll {
				r.note("git::sync %s over %s://: a run did not succeed: %s", action, scheme, lastSummary)
			}
		}
	}
}
