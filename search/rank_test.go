package search

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/sahilm/fuzzy"
)

func paths(ms []Match) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.Path
	}
	return out
}

func TestRankOrder(t *testing.T) {
	for _, tc := range []struct {
		name  string
		query string
		cands []string
		want  []string // the top of the ranking, in order
	}{
		{"basename first", "mod", []string{"src/models/user.rs", "src/tree/mod.rs"}, []string{"src/tree/mod.rs", "src/models/user.rs"}},
		{"basename beats a folder run", "mod", []string{"mod/a/b/c.rs", "src/tree/my_old_db.rs"}, []string{"src/tree/my_old_db.rs", "mod/a/b/c.rs"}},
		{"exact case", "App", []string{"app.go", "App.tsx"}, []string{"App.tsx", "app.go"}},
		{"exact case over a separator hop", "App", []string{"src/app.py", "ui/src/App.tsx"}, []string{"ui/src/App.tsx", "src/app.py"}},
		{"run beats separators", "ctl", []string{"src/user_controller.go", "cmd/ctl.go"}, []string{"cmd/ctl.go", "src/user_controller.go"}},
		{"run at a folder start", "trie/builder", []string{"x/sub/trie/builder.go", "x/subtrie/builder.go"}, []string{"x/sub/trie/builder.go", "x/subtrie/builder.go"}},
		{"exact case lower", "app", []string{"App.go", "app.go"}, []string{"app.go", "App.go"}},
		{"consecutive run", "editor", []string{"src/e_d_i_t_o_r.go", "src/editor.go", "src/edit_order.go"}, []string{"src/editor.go"}},
		{"prefix of the name", "main", []string{"cmd/domain.go", "cmd/main.go"}, []string{"cmd/main.go", "cmd/domain.go"}},
		{"tie: shorter path", "x", []string{"aa/x.go", "b/x.go", "a/x.go"}, []string{"a/x.go", "b/x.go", "aa/x.go"}},
		{"path query", "tree/mod", []string{"src/trees/x/model.rs", "src/tree/mod.rs"}, []string{"src/tree/mod.rs", "src/trees/x/model.rs"}},
		{"path query exact", "src/http/server.go", []string{"src/http/server_test.go", "x/src/http/server.go", "src/http/server.go"}, []string{"src/http/server.go", "x/src/http/server.go", "src/http/server_test.go"}},
		{"leading ./", "./mod", []string{"src/models/user.rs", "src/tree/mod.rs"}, []string{"src/tree/mod.rs"}},
		{"no match", "zzz", []string{"a.go", "b.go"}, []string{}},
		{"unicode", "été", []string{"docs/ete.md", "docs/été.md", "docs/Été.md"}, []string{"docs/été.md", "docs/Été.md"}},
		{"spaces and quotes", "my \"file", []string{"a/my \"file\".txt", "a/myfile.txt"}, []string{"a/my \"file\".txt"}},
		{"a space as written beats a space as anything between", "my file", []string{"a/my \"file\".txt", "a/myfile.txt", "docs/my file.txt"}, []string{"docs/my file.txt"}},
		{"words: a space is anything between", "cluster autoscaler main.go", []string{
			"cluster-autoscaler/cloudprovider/aws/aws_manager.go",
			"vertical-pod-autoscaler/pkg/main.go",
			"cluster-autoscaler/core/main_test.go",
			"cluster-autoscaler/main.go",
		}, []string{"cluster-autoscaler/main.go", "cluster-autoscaler/core/main_test.go"}},
		{"words keep their order", "main autoscaler", []string{"cluster-autoscaler/main.go"}, []string{}},
		{"words: the last one in the file name first", "api server", []string{"apiserver/pkg/x.go", "pkg/api/server.go"}, []string{"pkg/api/server.go", "apiserver/pkg/x.go"}},
		{"vendored trees below the project's own files", "main.go", []string{
			"vendor/x/main.go",
			"vendor-internal/a/main.go",
			"third_party/m/main.go",
			"node_modules/p/main.go",
			"cluster-autoscaler/main.go",
			"main/x.go",
		}, []string{"cluster-autoscaler/main.go", "vendor/x/main.go", "third_party/m/main.go", "node_modules/p/main.go", "vendor-internal/a/main.go", "main/x.go"}},
		{"a file named vendor is not vendored", "vendor", []string{"x/vendor/a.go", "pkg/vendor.go"}, []string{"pkg/vendor.go"}},
		{"long query", "internal/service/handlers/user_profile_handler.go", []string{
			"internal/service/handlers/user_profile_handler_test.go",
			"internal/service/handlers/user_profile_handler.go",
			"pkg/internal/service/handlers/user_profile_handler.go",
		}, []string{"internal/service/handlers/user_profile_handler.go", "pkg/internal/service/handlers/user_profile_handler.go", "internal/service/handlers/user_profile_handler_test.go"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := paths(Rank(tc.query, tc.cands, 10))
			if len(got) < len(tc.want) || !reflect.DeepEqual(got[:len(tc.want)], tc.want) {
				t.Fatalf("Rank(%q) = %q, want it to start with %q", tc.query, got, tc.want)
			}
			if len(tc.want) == 0 && len(got) != 0 {
				t.Fatalf("Rank(%q) = %q, want nothing", tc.query, got)
			}
		})
	}
}

func TestRankEmptyQuery(t *testing.T) {
	cands := []string{"b.go", "a/b.go", "a.go", "a-b.go"}
	got := paths(Rank("", cands, 3))
	if want := []string{"a-b.go", "a.go", "a/b.go"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("empty query = %q, want %q (byte order)", got, want)
	}
	for _, m := range Rank("  ", cands, 10) {
		if m.Positions == nil || len(m.Positions) != 0 {
			t.Fatalf("empty query positions = %v, want []", m.Positions)
		}
	}
	if got := Rank("a", cands, 0); len(got) != 0 {
		t.Fatalf("limit 0 = %v", got)
	}
}

// randomPaths makes a candidate list with plenty of near-ties.
func randomPaths(rng *rand.Rand, n int) []string {
	segs := []string{"src", "lib", "tree", "models", "mod", "user", "App", "app", "editor", "Edit", "cfg", "config", "x", "a_b", "é", "K"}
	exts := []string{".go", ".rs", ".ts", ".tsx", ""}
	seen := map[string]bool{}
	var out []string
	for len(out) < n {
		var sb strings.Builder
		for d := rng.IntN(4); d >= 0; d-- {
			if sb.Len() > 0 {
				sb.WriteByte('/')
			}
			sb.WriteString(segs[rng.IntN(len(segs))])
			if rng.IntN(3) == 0 {
				sb.WriteString(segs[rng.IntN(len(segs))])
			}
		}
		sb.WriteString(exts[rng.IntN(len(exts))])
		if p := sb.String(); !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

func TestRankIndependentOfOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 9))
	n := 20_000 // large enough to rank on several goroutines
	if raceEnabled {
		n = parallelRankMin + 100
	}
	cands := randomPaths(rng, n)
	for _, q := range []string{"mod", "App", "edit", "cfg", "tree/mod", "x", "é", "k", "s/a", "src mod", "tree App .go"} {
		want := Rank(q, cands, 40)
		for i := 0; i < 3; i++ {
			shuffled := append([]string(nil), cands...)
			rng.Shuffle(len(shuffled), func(a, b int) { shuffled[a], shuffled[b] = shuffled[b], shuffled[a] })
			got := Rank(q, shuffled, 40)
			for k := range got {
				// The index is the candidate's place in its list, which the
				// shuffle moves; the paths are unique, so nothing else is.
				if shuffled[got[k].Index] != got[k].Path {
					t.Fatalf("query %q: match %q has index %d, which is %q", q, got[k].Path, got[k].Index, shuffled[got[k].Index])
				}
				got[k].Index = want[k].Index
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("query %q: ranking depends on candidate order:\n%v\n%v", q, paths(got), paths(want))
			}
		}
		// The order is total: score, then length, then bytes.
		for i := 1; i < len(want); i++ {
			a, b := want[i-1], want[i]
			if !better(scored{path: a.Path, score: a.Score}, scored{path: b.Path, score: b.Score}) {
				t.Fatalf("query %q: %v ranked before %v", q, a, b)
			}
		}
	}
}

func TestRankPositions(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	cands := randomPaths(rng, 3000)
	for _, q := range []string{"mod", "App", "edit", "cfg", "tree/mod", "é", "K", "srcmod", "app", "ée", "src mod", "tree K .go", "é e"} {
		qr := []rune(strings.Join(strings.Fields(q), "")) // words: their characters, not the spaces
		for _, m := range Rank(q, cands, 100) {
			if len(m.Positions) != len(qr) {
				t.Fatalf("%q in %q: %d positions for %d characters", q, m.Path, len(m.Positions), len(qr))
			}
			for k, at := range m.Positions {
				if at < 0 || at >= len(m.Path) || !utf8.RuneStart(m.Path[at]) || (k > 0 && at <= m.Positions[k-1]) {
					t.Fatalf("%q in %q: bad positions %v", q, m.Path, m.Positions)
				}
				r, _ := utf8.DecodeRuneInString(m.Path[at:])
				if !equalFold(r, qr[k]) {
					t.Fatalf("%q in %q: position %d is %q, not %q", q, m.Path, at, r, qr[k])
				}
			}
		}
	}
}

// The prefilter admits exactly what fuzzy matches, so no candidate is lost
// and none is scored twice.
func TestPrefilterIsFuzzyMatch(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	alphabet := []rune("abkKsS/_.-\u212a\u017féÉ ")
	word := func(n int) string {
		rs := make([]rune, n)
		for i := range rs {
			rs[i] = alphabet[rng.IntN(len(alphabet))]
		}
		return string(rs)
	}
	for i := 0; i < 20000; i++ {
		q, s := word(1+rng.IntN(4)), word(rng.IntN(12))
		r := newRanker(q)
		c := Prepare([]string{s})
		_, got := r.matches(c, 0)
		fq := q
		if words := strings.Fields(q); len(words) > 1 {
			fq = strings.Join(words, "") // a space between words is anything between
		}
		want := len(fuzzy.Find(fq, []string{s})) == 1
		if got != want {
			t.Fatalf("query %q in %q: prefilter says %v, fuzzy says %v", q, s, got, want)
		}
	}
}

func TestRankLimitAndScores(t *testing.T) {
	var cands []string
	for i := 0; i < 500; i++ {
		cands = append(cands, fmt.Sprintf("dir%d/file%d.go", i%7, i))
	}
	got := Rank("file", cands, 25)
	if len(got) != 25 {
		t.Fatalf("got %d matches, want 25", len(got))
	}
	all := Rank("file", cands, 1000)
	sort.SliceStable(all, func(i, j int) bool {
		return better(scored{path: all[i].Path, score: all[i].Score}, scored{path: all[j].Path, score: all[j].Score})
	})
	if !reflect.DeepEqual(paths(got), paths(all[:25])) {
		t.Fatalf("top 25 differs from the first 25 of the full ranking")
	}
}
