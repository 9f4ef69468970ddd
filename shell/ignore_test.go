package shell

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

type decideCheck struct {
	rel              string
	dir              bool
	matched, exclude bool
}

type c = decideCheck

// decideCases are checked against Decide here and against git itself (via
// Excludes) in TestDecideMatchesGit.
var decideCases = []struct {
	name     string
	patterns []string
	checks   []decideCheck
}{
	{"name at any depth", []string{".env"}, []c{
		{".env", false, true, true}, {"sub/.env", false, true, true}, {"a/b/.env", true, true, true},
		{".envrc", false, false, false}, {"x.env", false, false, false},
	}},
	{"negation, last wins", []string{".env", ".env.*", "!.env.example"}, []c{
		{".env.local", false, true, true}, {".env.example", false, true, false}, {"sub/.env.example", false, true, false},
	}},
	{"negation then re-exclusion", []string{"*.log", "!keep.log", "keep.log"}, []c{
		{"keep.log", false, true, true},
	}},
	{"directory only", []string{"build/"}, []c{
		{"build", true, true, true}, {"build", false, false, false}, {"src/build", true, true, true},
	}},
	{"anchored by a leading slash", []string{"/root-only"}, []c{
		{"root-only", false, true, true}, {"sub/root-only", false, false, false},
	}},
	{"anchored by a middle slash", []string{"a/b"}, []c{
		{"a/b", false, true, true}, {"x/a/b", false, false, false}, {"a/b/c", false, false, false},
	}},
	{"leading **", []string{"**/logs"}, []c{
		{"logs", true, true, true}, {"a/logs", false, true, true}, {"a/b/logs", true, true, true}, {"a/logsx", false, false, false},
	}},
	{"trailing **", []string{"logs/**"}, []c{
		{"logs", true, false, false}, {"logs/a", false, true, true}, {"logs/a/b", false, true, true}, {"x/logs/a", false, false, false},
	}},
	{"middle **", []string{"a/**/b"}, []c{
		{"a/b", false, true, true}, {"a/x/b", false, true, true}, {"a/x/y/b", false, true, true}, {"a/x/c", false, false, false}, {"b", false, false, false},
	}},
	{"** inside a segment is *", []string{"a**z"}, []c{
		{"abcz", false, true, true}, {"x/az", false, true, true},
	}},
	{"** alone matches everything", []string{"**"}, []c{
		{"a", false, true, true}, {"a/b", true, true, true},
	}},
	{"deny secrets", []string{"**/secrets/**"}, []c{
		{"secrets", true, false, false}, {"secrets/x", false, true, true}, {"a/secrets/x", false, true, true},
		{"a/secrets/b/c", false, true, true}, {"secrets.txt", false, false, false}, {"a/secrets", true, false, false},
	}},
	{"character classes", []string{"[abc]?.dat", "[!a-c]z.bin", "[^x]y.dat", "[[:digit:]]*.num", "[]]br", "[a-]dash"}, []c{
		{"a1.dat", false, true, true}, {"d1.dat", false, false, false}, {"az.dat", false, true, true}, {"dz.bin", false, true, true}, {"az.bin", false, false, false},
		{"ay.dat", false, true, true}, {"xy.dat", false, false, false}, {"1abc.num", false, true, true}, {"a1.num", false, false, false},
		{"]br", false, true, true}, {"-dash", false, true, true}, {"adash", false, true, true}, {"bdash", false, false, false},
	}},
	{"more classes", []string{"[[:upper:]][[:lower:]]", "[[:space:]]sp", "[[:bogus:]]x", "x[[:a]q", "unterminated[ab", `[\]]bk`, `[\\x]y`, `[a\-z]m`, `tail\`}, []c{
		{"Ab", false, true, true}, {"aB", false, false, false}, {" sp", false, true, true},
		{"bx", false, false, false}, {"x[q", false, true, true}, {"x:q", false, true, true}, {"xaq", false, true, true}, {"xbq", false, false, false},
		{"unterminated[ab", false, false, false}, {"unterminateda", false, false, false},
		{`\bk`, false, false, false}, {"]bk", false, true, true}, {`\y`, false, true, true}, {"xy", false, true, true}, {"-m", false, true, true}, {"bm", false, false, false},
		{"tail", false, false, false}, {`tail\`, false, false, false},
	}},
	{"? and * stop at a slash", []string{"a?b", "x*y"}, []c{
		{"axb", false, true, true}, {"a/b", false, false, false}, {"xy", false, true, true}, {"x/y", false, false, false},
	}},
	{"escapes", []string{`\#hash`, `\!bang`, `\*star`, `q\?`}, []c{
		{"#hash", false, true, true}, {"!bang", false, true, true}, {"*star", false, true, true}, {"xstar", false, false, false},
		{"q?", false, true, true}, {"qx", false, false, false},
	}},
	{"comments and blanks", []string{"# a comment", "", "   ", "#*.go"}, []c{
		{"# a comment", false, false, false}, {"x.go", false, false, false},
	}},
	{"trailing spaces", []string{"trail   ", `esc\ `, `two\ \ `, `bs\\ `}, []c{
		{"trail", false, true, true}, {"trail ", false, false, false}, {"esc ", false, true, true}, {"esc", false, false, false},
		{"two  ", false, true, true}, {`bs\`, false, true, true},
	}},
	{"crlf lines", []string{"crlf.txt\r"}, []c{
		{"crlf.txt", false, true, true},
	}},
	{"? is one byte, as in git", []string{"caf?", "na??ve"}, []c{
		{"cafe", false, true, true}, {"café", false, false, false}, {"naïve", false, true, true},
	}},
}

func TestDecide(t *testing.T) {
	for _, tc := range decideCases {
		t.Run(tc.name, func(t *testing.T) {
			p := ParsePatterns(tc.patterns)
			for _, ch := range tc.checks {
				m, ex := p.Decide(ch.rel, ch.dir)
				if m != ch.matched || ex != ch.exclude {
					t.Errorf("Decide(%q, dir=%v) = %v, %v; want %v, %v", ch.rel, ch.dir, m, ex, ch.matched, ch.exclude)
				}
			}
		})
	}
}

// Every TestDecide case, asked of git check-ignore (which also looks at
// the parent folders, like Excludes).
func TestDecideMatchesGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not on PATH")
	}
	for _, tc := range decideCases {
		t.Run(tc.name, func(t *testing.T) {
			dir, _ := filepath.EvalSymlinks(t.TempDir())
			dir = filepath.Join(dir, "repo")
			os.Mkdir(dir, 0o755)
			git(t, dir, nil, "init", "-q")
			mustWrite(t, filepath.Join(dir, ".gitignore"), strings.Join(tc.patterns, "\n")+"\n", 0o644)
			p := ParsePatterns(tc.patterns)
			// Folders are made on disk (git looks); files are left out, which
			// git, like us, takes for "not a folder".
			var in []string
			var ours []string
			for _, ch := range tc.checks {
				if ch.dir {
					if err := os.MkdirAll(filepath.Join(dir, ch.rel), 0o755); err != nil {
						t.Fatal(err)
					}
				}
				in = append(in, ch.rel)
				if p.Excludes(ch.rel, ch.dir) {
					ours = append(ours, ch.rel)
				}
			}
			sort.Strings(ours)
			theirs := splitZ(git(t, dir, []byte(strings.Join(in, "\x00")+"\x00"), "check-ignore", "--no-index", "--stdin", "-z"))
			if d := setDiff(ours, theirs); d != "" {
				t.Errorf("Excludes and git check-ignore differ for %q:\n%s", tc.patterns, d)
			}
		})
	}
}

func TestExcludes(t *testing.T) {
	p := ParsePatterns(defaultDeny)
	cases := map[string]bool{
		".env": true, "sub/.env": true, ".env.local": true, ".env.example": false, "sub/.env.example": false,
		"k.pem": true, "a/b/c.key": true, "a/secrets/x": true, "secrets/x/y": true, "secrets.txt": false,
		"a/secrets": false, "a.txt": false, ".": false, "": false, ".env/x": true, "x.pem/y": true,
	}
	for rel, want := range cases {
		if got := p.Excludes(rel, false); got != want {
			t.Errorf("Excludes(%q) = %v", rel, got)
		}
	}
	// A path inside an excluded folder stays excluded whatever later rules say.
	p = ParsePatterns([]string{"out/", "!out/keep.txt"})
	if !p.Excludes("out/keep.txt", false) {
		t.Error("out/keep.txt re-included inside an excluded folder")
	}
	var nilP *Patterns
	if nilP.Excludes("a", false) || nilP.Len() != 0 {
		t.Error("nil patterns exclude")
	}
	if m, _ := nilP.Decide("a", false); m {
		t.Error("nil patterns match")
	}
	if n := ParseIgnoreFile([]byte("a\n\n# c\r\nb\r\n!c\n")).Len(); n != 3 {
		t.Errorf("ParseIgnoreFile: %d rules", n)
	}
}

// gitFixtureIgnores are the .gitignore files of a repository that
// exercise every rule of gitignore(5). Paths are files unless they end in
// "/".
var gitFixtureIgnores = map[string]string{
	".gitignore": strings.Join([]string{
		"# a comment",
		"*.log",
		"!keep.log",
		"build/",
		"/root-only",
		"a/b",
		"**/logs",
		"cache/**",
		"x/**/y",
		"[abc]?.dat",
		"[!a-c]z.dat",
		"[[:digit:]]*.num",
		`\#hash`,
		`\!bang`,
		`\[lit\]`,
		"trail   ",
		`esc\ `,
		`bs\\ `,
		"*.tmp",
		"!important.tmp",
		"docs/*.md",
		"!docs/README.md",
		"m*/",
		"out/",
		"!out/keep.txt",
		"caf?",
		"crlf.txt\r",
		"  lead",
		"gen[0-9]",
	}, "\n") + "\n",
	"sub/.gitignore": strings.Join([]string{
		"/local-only",
		"*.txt",
		"!keep.txt",
		"deep/",
		"!*.log",
	}, "\n") + "\n",
	"sub/inner/.gitignore": "!*.txt\nother.txt\n/deep/\n",
	".git/info/exclude":    "excluded-by-info\n!sub/excluded-by-info\n",
}

var gitFixturePaths = []string{
	"top.txt", "a.log", "keep.log", "sub/keep.log", "sub/x.log", "sub/inner/y.log",
	"build/out", "sub/build/out", "src/build", "root-only", "sub/root-only",
	"a/b", "a/c", "sub/a/b", "logs/x", "sub/logs/y", "deep/er/logs/z", "logsfile", "sub2/logs",
	"cache/c1", "cache/sub/c2", "x/y", "x/m/y", "x/m/n/y", "x/y2", "y",
	"a1.dat", "d1.dat", "az.dat", "dz.dat", "1abc.num", "a1.num",
	"#hash", "!bang", "[lit]", "l", "trail", "trail ", "esc ", "esc", `bs\`,
	"a.tmp", "important.tmp", "sub/important.tmp",
	"docs/a.md", "docs/README.md", "docs/sub/b.md",
	"mdir/x", "mfile", "sub/mx/z",
	"out/keep.txt", "out/other.txt",
	"cafe", "café", "crlf.txt", "  lead", "lead", "gen1", "gen10",
	"sub/local-only", "sub/inner/local-only", "sub/a.txt", "sub/keep.txt",
	"sub/inner/b.txt", "sub/inner/other.txt", "sub/deep/x", "sub/inner/deep/y", "sub/inner/more/deep/z",
	"excluded-by-info", "sub/excluded-by-info",
	"emptyish/.keep",
}

func gitEnv(home string) []string {
	return append(os.Environ(),
		"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "HOME="+home, "XDG_CONFIG_HOME="+home,
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
}

func git(t *testing.T, dir string, stdin []byte, args ...string) []byte {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = gitEnv(filepath.Dir(dir))
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 1 && args[0] == "check-ignore" {
			return out // nothing ignored
		}
		t.Fatalf("git %v: %v\n%s", args, err, stderr.Bytes())
	}
	return out
}

func splitZ(b []byte) []string {
	var out []string
	for _, s := range strings.Split(string(b), "\x00") {
		if s != "" {
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}

// The gitignore matcher agrees with git itself: the files a walk honouring
// .gitignore returns are exactly the untracked, non-ignored files git
// lists, and every path the walk leaves out is one git calls ignored.
func TestGitignoreMatchesGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not on PATH")
	}
	f := newFixture(t, withDeny())
	git(t, f.root, nil, "init", "-q")
	for p, content := range gitFixtureIgnores {
		mustWrite(t, f.abs(p), content, 0o644)
	}
	for _, p := range gitFixturePaths {
		f.file(p, "x\n")
	}
	f.link("build", "buildlink") // a link is never a folder to dir-only rules
	f.link("cache", "sub/cachelink")

	var walked []string
	all := map[string]bool{}
	err := f.j.Walk(f.root, WalkOptions{Gitignore: true}, func(e WalkEntry) error {
		all[e.Rel] = true
		if e.Kind != KindDir {
			walked = append(walked, e.Rel)
		}
		return nil
	})
	wantCode(t, err, "")
	sort.Strings(walked)
	gitFiles := splitZ(git(t, f.root, nil, "ls-files", "-z", "--others", "--exclude-standard"))
	if d := setDiff(walked, gitFiles); d != "" {
		t.Errorf("walk (Gitignore) and git ls-files --others --exclude-standard differ:\n%s", d)
	}

	// Every path (files and folders) a plain walk sees: which does git
	// call ignored, and which did our walk leave out?
	var everything []string
	f.j.Walk(f.root, WalkOptions{}, func(e WalkEntry) error {
		everything = append(everything, e.Rel)
		return nil
	})
	var ours []string
	for _, p := range everything {
		if !all[p] {
			ours = append(ours, p)
		}
	}
	sort.Strings(ours)
	stdin := []byte(strings.Join(everything, "\x00") + "\x00")
	theirs := splitZ(git(t, f.root, stdin, "check-ignore", "--no-index", "--stdin", "-z"))
	if d := setDiff(ours, theirs); d != "" {
		t.Errorf("paths left out by the walk and git check-ignore differ:\n%s", d)
	}
	if len(walked) < 30 || len(ours) < 30 {
		t.Fatalf("fixture too small: %d kept, %d ignored", len(walked), len(ours))
	}
}

func setDiff(ours, git []string) string {
	o, g := map[string]bool{}, map[string]bool{}
	for _, s := range ours {
		o[s] = true
	}
	for _, s := range git {
		g[s] = true
	}
	var b strings.Builder
	for _, s := range ours {
		if !g[s] {
			b.WriteString("  only ours: " + strings.ReplaceAll(s, " ", "␠") + "\n")
		}
	}
	for _, s := range git {
		if !o[s] {
			b.WriteString("  only git:  " + strings.ReplaceAll(s, " ", "␠") + "\n")
		}
	}
	return b.String()
}
