package turns

// The shapes editor::turn, editor::history and editor::revert answer with;
// their json and desc tags are the contract, as the editor's own types'.

// Summary is one turn in a listing. Flags that are false and lists that
// are empty are left out: a listing of a thousand turns is what a client
// decodes.
type Summary struct {
	Turn       string   `json:"turn" desc:"The turn's id (t42), stable across restarts: pass it to editor::history for its detail, to editor::revert to undo it."`
	By         string   `json:"by" desc:"Whose turn: the writer, as change events name it (claude-code#3f2a, cli, external)."`
	Title      string   `json:"title,omitempty" desc:"What the turn was for, as its writer said (editor::turn begin); absent when it did not."`
	Root       string   `json:"root,omitempty" desc:"The workspace root of its changes' paths, when it is not the response's root."`
	Start      string   `json:"start" desc:"When it began, RFC 3339, UTC."`
	End        string   `json:"end" desc:"Its last change, or when it was ended, RFC 3339, UTC."`
	Open       bool     `json:"open,omitempty" desc:"True while the turn takes its writer's next change: begun and not ended, or its last change within the idle gap (turns.idle_ms)."`
	Explicit   bool     `json:"explicit,omitempty" desc:"True when its writer began it (editor::turn); absent when an idle gap drew its boundaries."`
	Changes    int      `json:"changes" desc:"Changes (change events) in the turn."`
	Files      int      `json:"files" desc:"Files and folders it changed."`
	Added      int      `json:"added" desc:"Lines added, over its changes."`
	Removed    int      `json:"removed" desc:"Lines removed, over its changes."`
	External   bool     `json:"external,omitempty" desc:"True when some of its changes were made by another program (cause external) while this writer was at work, and given to its turn."`
	Paths      []string `json:"paths" desc:"The paths it changed, as it left them, the first 20."`
	Reverts    string   `json:"reverts,omitempty" desc:"For a revert: the turn it undid (in part or whole)."`
	RevertedIn []string `json:"reverted_in,omitempty" desc:"Turns (reverts) that undid some of this one; absent when none did."`
	Reviewed   bool     `json:"reviewed,omitempty" desc:"True once every file of it was kept or undone (editor::turn keep, editor::revert)."`
}

// File is one file of a turn in detail.
type File struct {
	Path     string  `json:"path" desc:"The file as the turn left it (root-relative)."`
	From     *string `json:"from,omitempty" desc:"Where it was before the turn moved it."`
	Kind     string  `json:"kind" enum:"created,modified,deleted,moved" desc:"What the turn did to it, in all."`
	Language string  `json:"language" desc:"Its language id, as editor::open gives it (for highlighting its hunks)."`
	Added    int     `json:"added" desc:"Lines the turn added."`
	Removed  int     `json:"removed" desc:"Lines the turn removed."`
	External bool    `json:"external" desc:"True when another program made (some of) the turn's changes to it."`
	Status   string  `json:"status" enum:"stands,changed,undone,partly,unknown" desc:"stands: every hunk is on disk as the turn left it; changed: later writers changed some (a revert refuses those); undone: none is left; partly: some are undone; unknown: its content is not kept (see note)."`
	Now      *string `json:"now" desc:"Where the file is now when later changes moved it; null when it is where the turn left it."`
	Hunks    []Hunk  `json:"hunks" desc:"The turn's hunks in this file, as editor::git::hunks gives them, each with its status."`
	Patch    string  `json:"patch" desc:"The turn's change as a unified diff (3 lines of context); one section per stretch when other writers wrote between its changes."`
	Reviewed bool    `json:"reviewed" desc:"True once the file was kept or every hunk kept or undone."`
	Note     string  `json:"note,omitempty" desc:"Why the file is not shown or revertible in full (its content was not kept: too large, trimmed, a folder), when so."`
}

// Hunk is one hunk of a turn's change to a file.
type Hunk struct {
	ID         int      `json:"id" desc:"The hunk's number in the file, from 1: pass it in editor::revert's hunks."`
	OldStart   int      `json:"old_start" desc:"First line before the turn, 1-based (0 for an empty side, as git writes it)."`
	OldLines   int      `json:"old_lines" desc:"Lines the hunk covers before the turn."`
	NewStart   int      `json:"new_start" desc:"First line as the turn left the file, 1-based."`
	NewLines   int      `json:"new_lines" desc:"Lines the hunk covers as the turn left the file."`
	Added      int      `json:"added" desc:"Lines added."`
	Removed    int      `json:"removed" desc:"Lines removed."`
	Header     string   `json:"header" desc:"The hunk's @@ line."`
	Status     string   `json:"status" enum:"stands,changed,undone" desc:"stands: on disk as the turn left it (a revert undoes it); changed: later writers changed it (a revert refuses it); undone: it is no longer on disk."`
	ChangedBy  []string `json:"changed_by,omitempty" desc:"For changed: the writers whose later changes touched it (external: a change no writer recorded, such as another program's while no watcher ran)."`
	RevertedIn string   `json:"reverted_in,omitempty" desc:"For undone: the revert turn that undid it, when one did."`
	Kept       bool     `json:"kept" desc:"True when it was reviewed and kept (editor::turn keep)."`
}

// Refusal is a part of a turn a revert left as it is, with why.
type Refusal struct {
	Path      string   `json:"path" desc:"The file (where it is now)."`
	Hunk      int      `json:"hunk" desc:"The hunk refused; 0 for the whole file (a create, delete or move that cannot be undone)."`
	Reason    string   `json:"reason" desc:"Why, and what to do."`
	AsWas     string   `json:"as_was" desc:"The lines as they were before the turn."`
	AsMade    string   `json:"as_made" desc:"The lines as the turn made them."`
	AsNow     string   `json:"as_now" desc:"The lines as they are on disk now, changed since by later writers."`
	ChangedBy []string `json:"changed_by" desc:"The writers whose later changes touched it (for a whole file: who wrote it after the turn)."`
}

// Undone is what a revert undid in one file.
type Undone struct {
	Path  string  `json:"path" desc:"The file, where it is after the revert."`
	From  *string `json:"from,omitempty" desc:"Where it was before the revert, when the revert moved it back."`
	Kind  string  `json:"kind" enum:"modified,deleted,restored,moved" desc:"What the revert did to the file: modified it, deleted it (undoing a create), restored it (undoing a delete, bytes and mode) or moved it back."`
	Hunks []int   `json:"hunks" desc:"The hunks of the turn undone in it."`
	Patch string  `json:"patch" desc:"The revert's change to the file as a unified diff."`
}
