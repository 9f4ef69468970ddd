// Package watch is editord's filesystem watcher: writes made by other
// programs inside the active root (an editor, sed -i, git checkout) become
// editor::changed events with cause "external", each once, with its patch
// when the content before is known (docs/contract.md §5).
//
// Its place in the stack (docs/design.md): a room beside editor, in
// editor's layer. It imports shell (the jail, inotify), workspace (the
// record, the journal, the election) and diff, never editor: it sees the
// service only through Service, about ten members (editor.WatchHost serves
// them), and cmd/editord runs it beside the service:
//
//	watch.New().Run(ctx, svc.WatchHost())
//
// watcher.go holds the election, the status and the tunables; each step
// of a watched root has a file (its list is there). A new rule goes in the
// file of its step, with its test in watch_test.go; the tests run the
// watcher beside a real editor.Service, as cmd/editord does.
package watch
