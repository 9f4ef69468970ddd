package editor

// Suite 1 of issue 6: jail fuzzing. Random paths go to every function of
// the catalog that takes a path, on a workspace full of symlinks that point
// in, out, in-then-out, nowhere and at themselves, beside a canary folder.
// The invariant: nothing outside the jail is read, written, listed or
// deleted, and every refusal carries one of stAllowedCodes.
//
//	go test ./editor -run FuzzJailPaths            # the seed corpus (CI)
//	go test ./editor -run '^$' -fuzz FuzzJailPaths # explore; new finds land in testdata/fuzz

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/editord/editord/editor/wire"
	"github.com/editord/editord/shell"
)

// stPathFields are the request fields that name paths (or, for find and
// search, select them); the fuzzer fills them with its inputs.
var stPathFields = map[string]bool{
	"path": true, "from": true, "to": true, "root": true,
	"expand": true, "collapse": true, "paths": true,
	"query": true, "pattern": true, "include_glob": true, "exclude_glob": true,
}

// stJailFixture is the workspace the fuzzer attacks. It is rebuilt after
// every input, since moves and deletes change it.
type stJailFixture struct {
	base, root, canary, state string
	s                         *Service
	warns                     *stWarnings
	canarySnap                map[string]string
	baseNames                 []string
	repoAbove                 bool // a git repository contains the temp dir
}

func stNewJailFixture(t testing.TB) *stJailFixture {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	fx := &stJailFixture{
		base:   base,
		root:   filepath.Join(base, "ws"),
		canary: filepath.Join(base, "canary"),
		state:  filepath.Join(base, "state"),
		warns:  &stWarnings{},
	}
	if err := os.MkdirAll(fx.root, 0o755); err != nil {
		t.Fatal(err)
	}
	stCanary(t, fx.canary)
	// A file inside the jail hard-linked to one beside it: indistinguishable
	// from a plain file, but a save must replace the link, never write
	// through it into the canary.
	tcWriteFile(t, filepath.Join(fx.canary, "hard.txt"), "hard-linked\n", 0o644)
	fx.build(t)
	fx.canarySnap = tcSnapshot(t, fx.canary)
	s, err := New(DefaultConfig(), Options{Root: fx.root, StateDir: fx.state, Warn: fx.warns.add})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	fx.s = s
	fx.baseNames = stNames(t, base)
	for d := base; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			fx.repoAbove = true
		}
		if d == filepath.Dir(d) {
			break
		}
	}
	return fx
}

func stNames(t testing.TB, dir string) []string {
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		out = append(out, e.Name())
	}
	return out
}

// build empties the workspace and lays out the fixture again.
func (fx *stJailFixture) build(t testing.TB) {
	t.Helper()
	ents, err := os.ReadDir(fx.root)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if err := os.RemoveAll(filepath.Join(fx.root, e.Name())); err != nil {
			t.Fatal(err)
		}
	}
	for rel, content := range map[string]string{
		"a.txt":                "alpha\n",
		"x":                    "inside x\n",
		"sub/b.txt":            "bravo\n",
		"sub/deep/c.txt":       "charlie\r\n",
		"Mixed/Case.TXT":       "case\n",
		"ünï/çødé.txt":         "unicode\n",
		"spaces in name.txt":   "spaces\n",
		"bin.dat":              "bin\x00ary",
		".env":                 stDeniedMarker + "\n",
		"sub/.env":             stDeniedMarker + "\n",
		"secrets/k.txt":        stDeniedMarker + "\n",
		"key.pem":              stDeniedMarker + "\n",
		"empty/.keep":          "",
		"node_modules/m/i.js":  "noise\n",
		".env.example":         "TOKEN=\n",
		"trailing./dot.txt":    "trailing dot\n",
		"-dash/--x.txt":        "dash\n",
		"sub/deep/deeper/d.md": "# d\n",
	} {
		p := filepath.Join(fx.root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		tcWriteFile(t, p, content, 0o644)
	}
	if err := os.Mkdir(filepath.Join(fx.root, "emptydir"), 0o755); err != nil {
		t.Fatal(err)
	}
	links := [][2]string{
		{"sub", "in"},                                   // in, relative
		{filepath.Join(fx.root, "sub"), "inabs"},        // in, absolute
		{".", "self.dir"},                               // the root itself
		{"..", "sub/up"},                                // up to the root: still in
		{fx.canary, "out"},                              // out, absolute
		{"../canary", "outrel"},                         // out, relative
		{"../canary/secret.txt", "outfile"},             // out, to a file
		{"/etc/hostname", "etcfile"},                    // out, a system file
		{"/", "slash"},                                  // out, the whole disk
		{"sub/esc", "hop"},                              // in, then...
		{"../../canary", "sub/esc"},                     // ...out
		{"../ws/a.txt", "reenter"},                      // leaves and re-enters lexically
		{"nowhere/missing.txt", "dangling"},             // dangling
		{"loop2", "loop1"},                              // loop
		{"loop1", "loop2"},                              //
		{"selfloop", "selfloop"},                        // a link to itself
		{"../../../../../../../../../etc", "sub/climb"}, // deep climb out
	}
	for _, l := range links {
		if err := os.Symlink(l[0], filepath.Join(fx.root, filepath.FromSlash(l[1]))); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Link(filepath.Join(fx.canary, "hard.txt"), filepath.Join(fx.root, "hard.txt")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(fx.root, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// stVariant is one way to call a function: its JSON arguments.
type stVariant struct {
	id   string
	args map[string]any
}

// stVariants builds the calls of one function for the inputs p1 and p2:
// every path field gets p1 (to gets p2, and the other way round), other
// required fields get a plain value (each enum value in turn), and a
// second set of calls turns every optional flag on (recursive, overwrite,
// force, literal...). ok is false for a function that takes no path or a
// required field the fuzzer cannot fill.
func stVariants(f *Function, p1, p2 string) (out []stVariant, ok bool) {
	type field struct {
		name string
		typ  reflect.Type
		opt  bool
		enum []string
	}
	var fs []field
	hasPath := false
	for _, sf := range wire.Fields(f.Request) {
		name, opt := wire.JSONName(sf)
		var enum []string
		if e := sf.Tag.Get("enum"); e != "" {
			enum = strings.Split(e, ",")
		}
		fs = append(fs, field{name, sf.Type, opt, enum})
		if stPathFields[name] {
			hasPath = true
		}
	}
	if !hasPath {
		return nil, false
	}
	pathValue := func(name string, t reflect.Type, a, b string) any {
		v := a
		if name == "to" {
			v = b
		}
		if t.Kind() == reflect.Slice {
			return []string{v, b}
		}
		return v
	}
	orders := [][2]string{{p1, p2}}
	for _, fl := range fs {
		if fl.name == "to" {
			orders = append(orders, [2]string{p2, p1})
		}
	}
	// Every combination of enum values of the required fields.
	combos := []map[string]any{{}}
	for _, fl := range fs {
		if stPathFields[fl.name] || fl.opt {
			continue
		}
		var vals []any
		switch {
		case len(fl.enum) > 0:
			for _, e := range fl.enum {
				vals = append(vals, e)
			}
		case fl.typ.Kind() == reflect.String:
			vals = []any{"fuzz\n"}
		case fl.typ.Kind() == reflect.Bool:
			vals = []any{false}
		case fl.typ.Kind() == reflect.Int || fl.typ.Kind() == reflect.Int64:
			vals = []any{0}
		default:
			return nil, false
		}
		var next []map[string]any
		for _, c := range combos {
			for _, v := range vals {
				m := stCopy(c)
				m[fl.name] = v
				next = append(next, m)
			}
		}
		combos = next
	}
	for _, ord := range orders {
		for _, c := range combos {
			for flags := range 2 {
				args := stCopy(c)
				for _, fl := range fs {
					switch {
					case stPathFields[fl.name]:
						if fl.opt && flags == 0 && fl.typ.Kind() == reflect.Slice {
							continue // optional lists: absent, then filled
						}
						args[fl.name] = pathValue(fl.name, fl.typ, ord[0], ord[1])
					case fl.opt && flags == 1 && fl.typ.Kind() == reflect.Bool:
						args[fl.name] = true
					case fl.opt && flags == 1 && fl.name == "content":
						args[fl.name] = "fuzz content\n"
					}
				}
				out = append(out, stVariant{id: f.ID, args: args})
			}
		}
	}
	return out, true
}

func stCopy(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// stCallBounded runs one catalog call with a deadline, so a call that
// blocks (a FIFO opened for reading, a lock never released) fails the
// test instead of hanging it.
func stCallBounded(t testing.TB, s *Service, f *Function, args []byte) (resp any, err error) {
	type result struct {
		resp  any
		err   error
		panic any
	}
	done := make(chan result, 1)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	go func() {
		var r result
		defer func() {
			if p := recover(); p != nil {
				r.panic = p
			}
			done <- r
		}()
		r.resp, r.err = f.Call(ctx, s, args)
	}()
	select {
	case r := <-done:
		if r.panic != nil {
			t.Fatalf("%s %s panicked: %v", f.ID, args, r.panic)
		}
		return r.resp, r.err
	case <-time.After(30 * time.Second):
		t.Fatalf("%s %s did not return within 30s", f.ID, args)
	}
	return nil, nil
}

// run sends p1 and p2 through every path-taking function and checks the
// invariants after every call. It returns how many calls ran.
func (fx *stJailFixture) run(t testing.TB, p1, p2 string) int {
	t.Helper()
	defer func() {
		fx.build(t)
		if _, err := fx.s.WorkspaceOpen(context.Background(), &WorkspaceOpenRequest{Root: fx.root}); err != nil {
			t.Fatalf("resetting the root: %v", err)
		}
	}()
	inputHasMarker := strings.Contains(p1+p2, "CANARY") || strings.Contains(p1+p2, "DENIED")
	calls := 0
	for _, f := range Catalog() {
		if fx.repoAbove && strings.HasPrefix(f.ID, "editor::git::") {
			continue // never commit or stash into a repository around the temp dir
		}
		vs, ok := stVariants(f, p1, p2)
		if !ok {
			continue
		}
		for _, v := range vs {
			args, err := json.Marshal(v.args)
			if err != nil {
				t.Fatal(err)
			}
			calls++
			resp, err := stCallBounded(t, fx.s, f, args)
			if err != nil {
				code := tcCode(err)
				if !stAllowedCodes[code] {
					t.Fatalf("%s %s: refused with %q: %v", f.ID, args, code, err)
				}
				if shell.CodeOf(err) != code || err.Error() == "" {
					t.Fatalf("%s %s: error without a message: %#v", f.ID, args, err)
				}
			} else {
				g, raw := stToJSON(t, resp)
				if !inputHasMarker && (strings.Contains(raw, stCanaryMarker) || strings.Contains(raw, stDeniedMarker)) {
					t.Fatalf("%s %s: the response carries content from outside the jail or a denied file:\n%.2000s", f.ID, args, raw)
				}
				for _, p := range stJSONPaths(g) {
					if !stInside(p, fx.root) {
						t.Fatalf("%s %s: the response names %q, outside the jail", f.ID, args, p)
					}
				}
			}
			if !f.Annotations.ReadOnly {
				fx.check(t, f.ID, args) // read-only calls are checked below
			}
		}
	}
	fx.check(t, "the read-only calls", []byte(fmt.Sprintf("%q %q", p1, p2)))
	// The record still points inside the jail and lists nothing outside.
	v, err := fx.s.WorkspaceGet(context.Background(), nil)
	if err != nil {
		t.Fatalf("workspace::get after the input: %v", err)
	}
	g, _ := stToJSON(t, v)
	for _, p := range stJSONPaths(g) {
		if !stInside(p, fx.root) {
			t.Fatalf("the record names %q, outside the jail", p)
		}
	}
	// Searching for the markers finds nothing: neither the canary nor a
	// denied file is ever read.
	if f, ok := Lookup("editor::search"); ok {
		for _, m := range []string{stCanaryMarker, stDeniedMarker} {
			resp, err := stCallBounded(t, fx.s, f, []byte(fmt.Sprintf(`{"pattern": %q, "literal": true}`, m)))
			if err != nil {
				t.Fatalf("search for a marker: %v", err)
			}
			if _, raw := stToJSON(t, resp); strings.Contains(raw, m) {
				t.Fatalf("search found the marker %s: %s", m, raw)
			}
		}
	}
	return calls
}

// check fails if anything beside the jail changed.
func (fx *stJailFixture) check(t testing.TB, id string, args []byte) {
	t.Helper()
	now := tcSnapshot(t, fx.canary)
	if !reflect.DeepEqual(now, fx.canarySnap) {
		var diff []string
		for k, v := range fx.canarySnap {
			if now[k] != v {
				diff = append(diff, fmt.Sprintf("%s: %q -> %q", k, v, now[k]))
			}
		}
		for k, v := range now {
			if _, had := fx.canarySnap[k]; !had {
				diff = append(diff, fmt.Sprintf("%s: new %q", k, v))
			}
		}
		sort.Strings(diff)
		t.Fatalf("%s %s changed the canary beside the jail:\n%s", id, args, strings.Join(diff, "\n"))
	}
	if names := stNames(t, fx.base); !slices.Equal(names, fx.baseNames) {
		t.Fatalf("%s %s changed the folder holding the jail: %v, was %v", id, args, names, fx.baseNames)
	}
}

// stJailSeeds are the hand-picked inputs; the checked-in corpus in
// testdata/fuzz/FuzzJailPaths holds these and more, and replays in every
// `go test`.
var stJailSeeds = [][2]string{
	{"a.txt", "b.txt"},
	{"..", "a.txt"},
	{"../canary/secret.txt", "a.txt"},
	{"out/secret.txt", "a.txt"},
	{"hop/x", "sub/new.txt"},
	{"/etc/passwd", "a.txt"},
	{"a.txt\x00.png", "a.txt"},
	{"loop1", "a.txt"},
	{"sub//deep///c.txt/", "Mixed/case.txt"},
}

// FuzzJailPaths attacks the jail through the catalog.
func FuzzJailPaths(f *testing.F) {
	for _, s := range stJailSeeds {
		f.Add(s[0], s[1])
	}
	fx := stNewJailFixture(f)
	f.Fuzz(func(t *testing.T, p1, p2 string) {
		fx.run(t, p1, p2)
	})
}

// TestStressJailCoverage proves the fuzzer reaches the functions the issue
// names: each of them takes a path field the fuzzer fills.
func TestStressJailCoverage(t *testing.T) {
	var covered []string
	calls := 0
	for _, f := range Catalog() {
		if vs, ok := stVariants(f, "a", "b"); ok {
			covered = append(covered, f.ID)
			calls += len(vs)
		}
	}
	t.Logf("each fuzz input makes %d calls on %d functions (plus two searches for the markers)", calls, len(covered))
	for _, want := range []string{"editor::open", "editor::save", "editor::tree", "editor::move", "editor::create",
		"editor::delete", "editor::buffers::close", "editor::workspace::open"} {
		if !slices.Contains(covered, want) {
			t.Errorf("the jail fuzzer does not reach %s", want)
		}
	}
	for _, f := range Catalog() {
		if (strings.HasPrefix(f.ID, "editor::git::") || f.ID == "editor::find" || f.ID == "editor::search") && !slices.Contains(covered, f.ID) {
			if _, ok := stVariants(f, "a", "b"); !ok {
				t.Logf("%s takes no path field; not fuzzed", f.ID)
			}
		}
	}
	t.Logf("fuzzed functions: %s", strings.Join(covered, ", "))
}
