package protocol

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// cliAdvice matches text that sends the caller to a program outside
// editord (docs/contract.md §8, "no message advises a function the caller does
// not have"; issue 13: "messages name the next step that will work, never
// use git stash pop"): an agent may have no git, no ssh and no shell, and
// the step must work inside editord, or the message states the fact
// plainly. Comparisons ("as git stash list shows it", "git refuses that
// too") are fine; instructions are not.
var cliAdvice = regexp.MustCompile("(?i)" + strings.Join([]string{
	`\b(use|run|try|call|with|via|using)\s+` + "`?" + `(git|ssh|ssh-keygen|ssh-add|ssh-agent)([\s.,;)` + "`" + `]|$)`,
	"`(git|ssh|ssh-keygen|ssh-add) ",
	`\bgit (init|remote\b|update-ref|update-index|config --|branch --set-upstream|ls-tree|merge --(continue|abort)|stash (pop|apply|drop)|reset --hard|add -A|commit --)`,
	`\b(ssh-keygen|ssh-add|ssh-agent)\b`,
	`\bconnect once\b`,
}, "|"))

// TestNoMessageAdvisesACommandLine reads every string literal of the
// non-test Go files (struct tags, which hold field descriptions, and
// comments aside) and fails on one that tells the caller to run git, ssh
// or another program.
func TestNoMessageAdvisesACommandLine(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	checked := 0
	var bad []string
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); p != root && (strings.HasPrefix(n, ".") || n == "testdata" || n == "web" || n == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		checked++
		tags := map[*ast.BasicLit]bool{}
		ast.Inspect(f, func(n ast.Node) bool {
			if fld, ok := n.(*ast.Field); ok && fld.Tag != nil {
				tags[fld.Tag] = true
			}
			return true
		})
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING || tags[lit] {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil {
				return true
			}
			if m := cliAdvice.FindString(s); m != "" {
				rel, _ := filepath.Rel(root, p)
				bad = append(bad, rel+":"+strconv.Itoa(fset.Position(lit.Pos()).Line)+": "+strconv.Quote(m)+" in "+strconv.Quote(s))
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 50 {
		t.Fatalf("checked only %d files under %s", checked, root)
	}
	for _, b := range bad {
		t.Error(b)
	}
}
