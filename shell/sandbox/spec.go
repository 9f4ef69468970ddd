package sandbox

import (
	"io"
	"time"
)

// Spec is one command and the box it runs in. Paths are absolute.
type Spec struct {
	Path string   // the program, as LookPath found it
	Args []string // argv; Args[0] is the name as asked for
	Dir  string   // working folder
	Env  []string // the command's whole environment
	// Stdin is read to the end and closed; nil reads nothing.
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// Terminal, when set, runs the command on a pseudo-terminal of that
	// size: its standard streams and its controlling terminal, in a
	// session of its own. All it prints (both streams, and the echo of
	// what is typed) goes to Stdout; Stdin is typed first, Process.Input
	// types more, Process.Resize changes the size. Stderr is unused.
	Terminal *TermSize
	// Timeout ends the command (and everything it started); 0: none.
	Timeout time.Duration

	Read     []string // folders or files readable and executable
	Write    []string // folders readable and writable
	Hide     []string // paths made unreadable, unwritable and unremovable
	Cover    []Cover  // files shown with other content, read-only
	ReadOnly []string // folders beneath Write kept read-only (.git)
	Network  bool     // keep the host's network (else only a loopback of its own)
	Limits   Limits
	// Scratch is the sandbox's folder (the voids and the covers' files),
	// outside every Read and Write path; runs may share it at once and keep
	// it for later ones. "" makes (and removes) a temporary one.
	Scratch string
	// piped (StartPiped) leaves the command's stdin and stdout pipes to
	// the caller, unread and unwritten by the sandbox: Stdin and Stdout
	// are unused.
	piped bool
	// Mask are folders covered by an empty read-only tmpfs besides /run,
	// each unless a path given above lies beneath it: the pathname sockets
	// there are reachable whatever Landlock says (before ABI 9).
	Mask []string
}

// TermSize is a terminal's size in characters.
type TermSize struct {
	Rows, Cols int
}

// WithDefaults is the size with 24 rows and 80 columns where unset, and
// at most 1000 of either.
func (t TermSize) WithDefaults() TermSize {
	if t.Rows <= 0 {
		t.Rows = 24
	}
	if t.Cols <= 0 {
		t.Cols = 80
	}
	t.Rows, t.Cols = min(t.Rows, 1000), min(t.Cols, 1000)
	return t
}

// Cover shows a file of the jail with other content (a repository's
// config without its secrets), read-only.
type Cover struct {
	Path    string
	Content []byte
}

// Limits bound the command and everything it starts. Zero means the
// default.
type Limits struct {
	Processes   int   // processes and threads at once (default 1024)
	MemoryBytes int64 // writable memory per process (default 4 GiB)
	FileBytes   int64 // the largest file it may write (default 8 GiB)
}

func (l Limits) withDefaults() Limits {
	if l.Processes <= 0 {
		l.Processes = 1024
	}
	if l.MemoryBytes <= 0 {
		l.MemoryBytes = 4 << 30
	}
	if l.FileBytes <= 0 {
		l.FileBytes = 8 << 30
	}
	return l
}

// Result is how a command ended.
type Result struct {
	ExitCode int    // the exit status; -1 when it ended by a signal or was stopped
	Signal   string // the signal that ended it ("killed", "segmentation fault"), or ""
	TimedOut bool   // stopped at the timeout
	Killed   bool   // stopped by Kill or the end of the context
	Duration time.Duration
	// Limits names the process limit's mechanism: "rlimit" or "cgroup"
	// ("none" when neither could be applied).
	ProcessLimit string
}

// initSpec is what the parent tells the init, as JSON on fd 3.
type initSpec struct {
	Path     string      `json:"path"`
	Args     []string    `json:"args"`
	Dir      string      `json:"dir"`
	Env      []string    `json:"env"`
	Read     []string    `json:"read"`
	Write    []string    `json:"write"`
	Hide     []string    `json:"hide"`
	Covers   [][2]string `json:"covers"` // [the file shown, the path it covers]
	Masks    []string    `json:"masks"`  // folders covered by an empty read-only tmpfs
	ReadOnly []string    `json:"read_only"`
	Network  bool        `json:"network"`
	TTY      string      `json:"tty"` // the terminal on stdin (to become the command's controlling one), or ""
	Limits   Limits      `json:"limits"`
	CPU      uint64      `json:"cpu_seconds"` // 0: unlimited
	VoidFile string      `json:"void_file"`
	VoidDir  string      `json:"void_dir"`
	NoRlimit bool        `json:"no_rlimit_nproc"`
	// Probe sets everything up, checks that Landlock holds, and exits
	// without starting a program.
	Probe bool `json:"probe"`
}
