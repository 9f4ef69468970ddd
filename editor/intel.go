package editor

// Code intelligence (editor::symbols, definition, references, hover,
// diagnostics, rename) is asked of language servers (editor/lsp), one per
// configured server and root, run through the jail. Before every question
// the server is brought to what the person sees:
//
//   - the change journal since the server last looked: files written by
//     anyone (this service, or another program the watcher saw) are
//     announced as changed on disk, and documents it holds open from the
//     disk are sent again;
//   - every open buffer with a draft (the person's unsaved text) is held
//     open with the draft's text, and one whose draft is gone is closed, so
//     the server reads the disk again;
//   - the file asked about is held open with its current text.
//
// Answers come back as the contract's positions (1-based lines as
// editor::open numbers them, 1-based columns in characters), with the
// line's text, and only inside the jail: a location elsewhere (the Go
// standard library, a module cache) is counted, not shown.

import (
	"context"
	"errors"
	"path"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/editord/editord/editor/lsp"
	"github.com/editord/editord/shell"
	"github.com/editord/editord/workspace"
)

// CodeLocation is a place in a file of the workspace.
type CodeLocation struct {
	Path      string `json:"path" desc:"The file, root-relative."`
	Line      int    `json:"line" desc:"1-based line, as editor::open numbers them."`
	Column    int    `json:"column" desc:"1-based column in characters."`
	EndLine   int    `json:"end_line" desc:"Line where the range ends."`
	EndColumn int    `json:"end_column" desc:"Column just after the range (characters)."`
	Text      string `json:"text" desc:"The line's text (cut to 500 bytes)."`
}

// intel is the server a call is asked of and the file it is about.
type intel struct {
	root string
	l    loc
	lang string
	srv  *lsp.Server
	text *lsp.Text // the file as the server holds it
}

// intelMaxLine cuts a location's line text, as search cuts a hit's.
const intelMaxLine = 500

// intelTimeout bounds a question to a server that is still loading a
// large workspace.
const intelTimeout = 2 * time.Minute

// intelFile is the preamble of every function about a position or a file:
// the file located, its server running and synced.
func (s *Service) intelFile(ctx context.Context, p string) (*intel, error) {
	root, l, err := s.target(p, "path")
	if err != nil {
		return nil, err
	}
	if err := s.visible(l, ""); err != nil {
		return nil, err
	}
	lang := Language(l.stored)
	name, ok := s.lsp.For(lang)
	if !ok {
		return nil, shell.Errorf(shell.CodeInvalidArgument, l.stored,
			"no language server is configured for %s (language %q); servers serve %s: configure one as [lsp.NAME] with languages = [%q]",
			display(l.stored), lang, strings.Join(s.lsp.Languages(), ", "), lang)
	}
	srv, err := s.intelServer(ctx, name, root)
	if err != nil {
		return nil, err
	}
	content, draft, err := s.currentText(root, l)
	if err != nil {
		return nil, err
	}
	if _, _, err := srv.Sync(l.abs, lsp.LanguageID(l.stored, lang), content, draft); err != nil {
		return nil, intelError(err, l.stored)
	}
	return &intel{root: root, l: l, lang: lang, srv: srv, text: lsp.NewText(content)}, nil
}

// intelServer is server name for root, running and brought up to date.
func (s *Service) intelServer(ctx context.Context, name, root string) (*lsp.Server, error) {
	srv, err := s.lsp.Server(ctx, name, root)
	if err != nil {
		return nil, intelError(err, "")
	}
	if err := s.intelSync(srv, root); err != nil {
		return nil, intelError(err, "")
	}
	return srv, nil
}

// intelError gives a server's trouble a code.
func intelError(err error, p string) error {
	var missing *lsp.MissingError
	var exited *lsp.ExitedError
	var rpc *lsp.RPCError
	switch {
	case err == nil:
		return nil
	case errors.Is(err, context.DeadlineExceeded):
		return shell.Errorf(shell.CodeTimeout, p, "the language server did not answer within %s (a large workspace may still be loading); try again", intelTimeout)
	case errors.As(err, &missing):
		return shell.Errorf(shell.CodeNotFound, p, "%s", missing.Error())
	case errors.As(err, &exited):
		return shell.Errorf(shell.CodeInternal, p, "%s", exited.Error())
	case errors.As(err, &rpc):
		return shell.Errorf(shell.CodeInvalidArgument, p, "the language server refused: %s", rpc.Message)
	case shell.CodeOf(err) != shell.CodeInternal:
		return err
	}
	return shell.Errorf(shell.CodeInternal, p, "%v", err)
}

// currentText is what the person sees of l: their draft when they hold
// one, else the disk.
func (s *Service) currentText(root string, l loc) (string, bool, error) {
	if dirtyIn(s.store.Load(), root, l.stored) {
		if d, err := s.store.ReadDraft(root, l.stored); err == nil && d != nil {
			return d.Content, true, nil
		}
	}
	data, err := s.wholeText(l.abs, l.stored)
	return string(data), false, err
}

// wholeText is the file at abs on disk (stored names it in errors), whole
// and text: code intelligence reads nothing less.
func (s *Service) wholeText(abs, stored string) ([]byte, error) {
	res, err := s.jail.ReadFile(abs, s.cfg.Limits.MaxFileBytes)
	if err != nil {
		return nil, err
	}
	if res.Truncated {
		return nil, shell.Errorf(shell.CodeTooLarge, stored, "%s is over max_file_bytes; language servers are given whole files only", display(stored))
	}
	if !isText(res.Data) {
		return nil, shell.Errorf(shell.CodeBinary, stored, "%s is binary; code intelligence reads text files", display(stored))
	}
	return res.Data, nil
}

func dirtyIn(rec *workspace.Record, root, p string) bool {
	ses := rec.Sessions[root]
	return ses != nil && dirtyAt(ses, p)
}

// intelMaxOpen bounds the documents a server holds open from the disk
// (drafts are held whatever their number).
const intelMaxOpen = 64

// intelSync brings srv up to date with the journal and the drafts.
func (s *Service) intelSync(srv *lsp.Server, root string) error {
	last, err := s.store.LastSeq()
	if err != nil {
		return err
	}
	changed := map[string]int{}
	reset := false
	if seen, ok := srv.Cursor(); ok && seen != last {
		p, err := s.store.Read(workspace.Query{Since: seen, Limit: 2000})
		if err != nil {
			return err
		}
		reset = p.Reset || p.More > 0
		for _, ev := range p.Events {
			if ev.Root != root {
				continue
			}
			abs := path.Join(root, ev.Path)
			if path.IsAbs(ev.Path) {
				abs = ev.Path
			}
			switch ev.Kind {
			case "created":
				changed[abs] = 1
			case "deleted":
				changed[abs] = 3
			case "moved":
				changed[abs] = 1
				if ev.From != nil && *ev.From != "" {
					from := *ev.From
					if !path.IsAbs(from) {
						from = path.Join(root, from)
					}
					changed[from] = 3
				}
			default:
				changed[abs] = 2
			}
		}
		last = p.Next
	}
	srv.SetCursor(last)
	if err := srv.FilesChanged(changed); err != nil {
		return err
	}
	// Drafts: what the person sees.
	rec := s.store.Load()
	drafts := map[string]bool{}
	if ses := rec.Sessions[root]; ses != nil {
		for _, b := range ses.Buffers {
			if !b.Dirty {
				continue
			}
			name, ok := s.lsp.For(b.Language)
			if !ok || name != srv.Name {
				continue
			}
			d, err := s.store.ReadDraft(root, b.Path)
			if err != nil || d == nil {
				continue
			}
			l, err := locate(root, b.Path, "path")
			if err != nil || s.visible(l, "") != nil {
				continue
			}
			drafts[l.abs] = true
			if _, _, err := srv.Sync(l.abs, lsp.LanguageID(l.stored, b.Language), d.Content, true); err != nil {
				return err
			}
		}
	}
	// Documents held from the disk that changed, and drafts that are gone.
	open := srv.Open()
	sort.Slice(open, func(i, j int) bool { return open[i].Used.After(open[j].Used) })
	held := 0
	for _, d := range open {
		if drafts[d.Path] {
			continue
		}
		_, touched := changed[d.Path]
		if d.Draft || touched || reset || held >= intelMaxOpen {
			if err := srv.Close(d.Path); err != nil {
				return err
			}
			continue
		}
		held++
	}
	return nil
}

// intelAt is intelFile for a request about a position: the file's server
// synced, and the position as the server counts it.
func (s *Service) intelAt(ctx context.Context, p string, line, column int) (*intel, lsp.Position, error) {
	in, err := s.intelFile(ctx, p)
	if err != nil {
		return nil, lsp.Position{}, err
	}
	pos, err := in.position(line, column)
	return in, pos, err
}

// position turns a request's line and column into the server's position
// in in.text.
func (in *intel) position(line, column int) (lsp.Position, error) {
	if column < 1 {
		return lsp.Position{}, invalid("column must be 1 or more (1-based, in characters), not %d", column)
	}
	p, ok := in.text.ToLSP(line, column)
	if !ok {
		return lsp.Position{}, shell.Errorf(shell.CodeInvalidArgument, in.l.stored, "%s has %d lines; line %d is not one of them (lines count from 1, as editor::open numbers them)", display(in.l.stored), in.text.Lines(), line)
	}
	return p, nil
}

// docPosition is the params of a request about a position in in's file.
func (in *intel) docPosition(p lsp.Position) map[string]any {
	return map[string]any{"textDocument": map[string]any{"uri": lsp.URI(in.l.abs)}, "position": p}
}

// call asks in's server, within intelTimeout.
func (in *intel) call(ctx context.Context, method string, params, out any) error {
	ctx, cancel := context.WithTimeout(ctx, intelTimeout)
	defer cancel()
	return intelError(in.srv.Call(ctx, method, params, out), in.l.stored)
}

// texts reads the files locations point into, once each: the text the
// server holds when it holds the file (a draft), else the disk's.
type texts struct {
	s     *Service
	srv   *lsp.Server
	root  string
	files map[string]*lsp.Text
	// dirs holds the folders of the files read during a batch (batch).
	dirs *shell.Folders
}

// batch holds the folders the files read until done go through open, so
// that files of one answer under the same folders are looked up from
// there: call done after.
func (t *texts) batch() (done func()) {
	t.dirs = shell.NewFolders()
	return func() { t.dirs.Close(); t.dirs = nil }
}

func (s *Service) texts(srv *lsp.Server, root string) *texts {
	return &texts{s: s, srv: srv, root: root, files: map[string]*lsp.Text{}}
}

// of is the text of abs, or nil when it is outside the jail, denied or
// unreadable.
func (t *texts) of(abs string) *lsp.Text {
	if tx, ok := t.files[abs]; ok {
		return tx
	}
	var tx *lsp.Text
	if t.s.jail.Contains(abs) && !t.s.jail.Denied(abs, false) {
		if held, ok := t.srv.Held(abs); ok {
			tx = lsp.NewText(held)
		} else {
			tx = t.s.lines.text(t.s.jail, t.dirs, abs, t.s.cfg.Limits.MaxFileBytes)
		}
	}
	t.files[abs] = tx
	return tx
}

// location maps a server's location; ok is false for one outside the jail.
func (t *texts) location(loc lsp.Location) (CodeLocation, bool) {
	abs, ok := lsp.Path(loc.URI)
	if !ok {
		return CodeLocation{}, false
	}
	tx := t.of(abs)
	if tx == nil {
		return CodeLocation{}, false
	}
	line, col := tx.FromLSP(loc.Range.Start)
	endLine, endCol := tx.FromLSP(loc.Range.End)
	return CodeLocation{Path: stored(t.root, abs), Line: line, Column: col, EndLine: endLine, EndColumn: endCol,
		Text: cutLine(tx.Line(loc.Range.Start.Line))}, true
}

// cutLine cuts a line to intelMaxLine bytes on a character boundary.
func cutLine(s string) string { return cutLineTo(s, intelMaxLine) }

// locations maps a server's locations, ordered by path and position, the
// first limit of them (0: all); total counts those inside the jail and
// outside the others. Only the files of the locations kept are read.
func (t *texts) locations(ls []lsp.Location, limit int) (out []CodeLocation, total, outside int) {
	type at struct {
		stored string
		abs    string
		r      lsp.Range
	}
	var in []at
	seen := map[at]bool{}
	for _, l := range ls {
		abs, ok := lsp.Path(l.URI)
		if !ok || !t.s.jail.Contains(abs) || t.s.jail.Denied(abs, false) {
			outside++
			continue
		}
		a := at{stored(t.root, abs), abs, l.Range}
		if !seen[a] {
			seen[a] = true
			in = append(in, a)
		}
	}
	slices.SortFunc(in, func(a, b at) int {
		if c := strings.Compare(a.stored, b.stored); c != 0 {
			return c
		}
		if a.r.Start.Line != b.r.Start.Line {
			return a.r.Start.Line - b.r.Start.Line
		}
		return a.r.Start.Character - b.r.Start.Character
	})
	total = len(in)
	if limit > 0 && len(in) > limit {
		in = in[:limit]
	}
	out = make([]CodeLocation, 0, len(in))
	defer t.batch()()
	for _, a := range in {
		if cl, ok := t.location(lsp.Location{URI: lsp.URI(a.abs), Range: a.r}); ok {
			out = append(out, cl)
		} else {
			outside++ // unreadable after all
			total--
		}
	}
	return out, total, outside
}

// intelRootServers are the servers a workspace-wide call asks: language's
// when given, else the servers already running for root, else the ones
// whose marker files the root holds.
func (s *Service) intelRootServers(root, language string) ([]string, error) {
	if language != "" {
		name, ok := s.lsp.For(language)
		if !ok {
			return nil, invalid("no language server is configured for language %q; servers serve %s", language, strings.Join(s.lsp.Languages(), ", "))
		}
		return []string{name}, nil
	}
	var names []string
	for _, srv := range s.lsp.Running() {
		if srv.Root == root && !slices.Contains(names, srv.Name) {
			names = append(names, srv.Name)
		}
	}
	if len(names) > 0 {
		// Go's answer needs no server running (symbols_index.go): a Go
		// root is asked whichever servers run.
		if name, ok := s.lsp.For("go"); ok && !slices.Contains(names, name) && s.rootHolds(root, "go") {
			names = append(names, name)
		}
		return names, nil
	}
	for _, m := range rootMarkers {
		if _, err := s.jail.Stat(path.Join(root, m.file)); err != nil {
			continue
		}
		if name, ok := s.lsp.For(m.language); ok && !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		return nil, invalid("no language server runs for %s yet and its files name none (go.mod, package.json, tsconfig.json, pyproject.toml); pass language (%s)", root, strings.Join(s.lsp.Languages(), ", "))
	}
	return names, nil
}

// rootHolds reports whether root's marker files name language.
func (s *Service) rootHolds(root, language string) bool {
	for _, m := range rootMarkers {
		if m.language == language {
			if _, err := s.jail.Stat(path.Join(root, m.file)); err == nil {
				return true
			}
		}
	}
	return false
}

// rootMarkers tell a workspace's languages from files at its root.
var rootMarkers = []struct{ file, language string }{
	{"go.mod", "go"}, {"go.work", "go"},
	{"tsconfig.json", "typescript"}, {"package.json", "typescript"}, {"jsconfig.json", "javascript"},
	{"pyproject.toml", "python"}, {"setup.py", "python"}, {"requirements.txt", "python"}, {"pyrightconfig.json", "python"},
}
