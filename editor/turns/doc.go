// Package turns keeps the turns of a workspace: each writer's changes
// between boundaries, so that a person or an agent can review a turn as a
// whole, keep part of it and undo the rest (editor::turn, editor::history,
// editor::revert).
//
// # Boundaries
//
// A turn is one writer's (one `by`) run of changes. It begins with an
// explicit editor::turn begin, or with the writer's first change after an
// idle gap (turns.idle_ms); it ends with editor::turn end, the writer's next
// begin, or, for a turn nobody began, the idle gap. A change made by
// another program (cause external) joins the turn of whoever was at work
// (the turn with the latest change within the idle gap), flagged as
// external; with nobody at work it is a turn of "external".
//
// Turns are assigned where changes are journaled (workspace.Stamper, under
// the journal lock), so every write of every kind lands in a turn, in the
// journal's order, whichever process made it, with no work by the function
// that wrote.
//
// # What is kept
//
// The journal keeps only changes_kept events, with patches cut at
// event_patch_bytes; a turn must be shown and undone exactly, long after.
// So the book keeps two things of its own in the state dir's turns/ folder:
//
//   - log.jsonl, an append-only log of small records (a turn began, a change
//     of it with the versions before and after, it ended, a file of it was
//     kept or undone). Every process holds the log's meaning in memory and
//     reads only what was appended since it last looked. It is rewritten
//     down to the last turns.kept turns once a quarter more have come.
//   - packs/, the contents before and after each change, appended by the
//     stamp that records the change (whose record says where): a change
//     costs one append, and a content already in the current pack (a
//     save's "before" is the last save's "after") is not appended again.
//     They are bounded by turns.keep_bytes: the oldest pack goes whole,
//     with the contents of the oldest turns (their detail then says so),
//     and a content over turns.keep_file_bytes is not kept at all.
//
// Nothing here grows with history: memory and disk hold at most the kept
// turns and keep_bytes of contents, and a change costs two appends (its
// record, its contents), without fsync: the state dir's files are caches
// of the workspace's history, like the record.
//
// # Reverting
//
// A turn's change to a file is one or more stretches (before -> after), its
// hunks those of the stretch's diff with git's three lines of context. A
// hunk is undone three-way, with git's own merge (gitops.Merge3): the base
// is the content the turn left, "ours" the file now, "theirs" the base with
// that hunk undone. A hunk later writers did not touch merges cleanly and is
// undone; one they changed is a conflict, refused with its three sides and
// never overwritten; every other byte of the file now is kept as it is.
// Hunks are taken last to first, each on the result of the one before, so
// a partial revert (chosen hunks) is exact. Creates, deletes and moves are
// undone too: a created file is removed only while it is still as the turn
// left it, a deleted file comes back with its bytes and mode where nothing
// took its place, a moved file goes back where nothing took its place.
//
// This package plans; it never writes a workspace file. The service carries
// the plan out through its guarded writes (editor/revert.go), which record
// the revert as a turn of its own, so a revert can be reverted too.
package turns
