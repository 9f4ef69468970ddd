package shell

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"syscall"
)

// Code is a stable error class that every surface (MCP, CLI) shows verbatim,
// so clients can branch on it without parsing prose.
type Code string

const (
	CodeInvalidArgument Code = "invalid_argument"
	CodeNotFound        Code = "not_found"
	CodeOutsideJail     Code = "outside_jail"
	CodeDenied          Code = "denied"
	CodeExists          Code = "exists"
	CodeNotEmpty        Code = "not_empty"
	CodeNotADirectory   Code = "not_a_directory"
	CodeIsADirectory    Code = "is_a_directory"
	CodeTooLarge        Code = "too_large"
	CodeBinary          Code = "binary"
	CodeNotARepository  Code = "not_a_repository"
	CodeGitFailed       Code = "git_failed"
	CodeTimeout         Code = "timeout"
	CodeInternal        Code = "internal"
	// CodeRootChanged refuses a write with a relative path when the shared
	// active root is no longer the one the caller last saw (docs/contract.md §5).
	CodeRootChanged Code = "root_changed"
	// CodeNoSpace: the file system is full, or the user's quota on it is
	// spent (ENOSPC, EDQUOT). Nothing was changed.
	CodeNoSpace Code = "no_space"
	// CodeNoMatch and CodeAmbiguous are editor::edit's: an old_text found
	// nowhere, or more than once without replace_all (docs/contract.md §8).
	CodeNoMatch   Code = "no_match"
	CodeAmbiguous Code = "ambiguous"
	// CodeSandboxUnavailable: editor::run cannot confine a command on
	// this machine (no Landlock, no user namespaces), so it runs none.
	// CodeNotAllowed: the configuration does not allow it (run is off,
	// a program or environment variable not on its lists).
	CodeSandboxUnavailable Code = "sandbox_unavailable"
	CodeNotAllowed         Code = "not_allowed"
)

// Error is a refusal a caller can act on: a code, a message that names the
// path, the cause and one next step, and the path it concerns.
type Error struct {
	Code    Code   `json:"code"`
	Message string `json:"message"`
	Path    string `json:"path,omitempty"`
	Err     error  `json:"-"`
}

func (e *Error) Error() string { return e.Message }
func (e *Error) Unwrap() error { return e.Err }

// Errorf builds an *Error with a formatted message.
func Errorf(code Code, path, format string, args ...any) *Error {
	return &Error{Code: code, Path: path, Message: fmt.Sprintf(format, args...)}
}

// CodeOf returns the code of err, or internal when err carries none.
func CodeOf(err error) Code {
	var e *Error
	if errors.As(err, &e) && e != nil {
		return e.Code
	}
	return CodeInternal
}

// AsError converts any error to an *Error (nil for nil; beware returning
// that *Error as an error interface), classifying operating-system
// errors so the caller sees a stable code instead of an errno string.
func AsError(err error, path string) *Error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return classify(err, path)
}

func noSpaceCause(err error) string {
	if errors.Is(err, syscall.EDQUOT) {
		return "the disk quota on its file system is used up (EDQUOT)"
	}
	return "no space is left on its file system (ENOSPC)"
}

// classify maps an operating-system error for path to a coded Error.
func classify(err error, path string) *Error {
	msg := err.Error()
	switch {
	case strings.Contains(msg, "path escapes from parent"):
		return &Error{Code: CodeOutsideJail, Path: path, Err: err,
			Message: fmt.Sprintf("%s resolves outside the jail (a symlink or .. leads out of it); use a path inside the workspace", path)}
	case errors.Is(err, fs.ErrNotExist):
		return &Error{Code: CodeNotFound, Path: path, Err: err,
			Message: fmt.Sprintf("%s does not exist; check the path with editor::tree or editor::find", path)}
	case errors.Is(err, syscall.ENOTEMPTY):
		// Before ErrExist: Go counts ENOTEMPTY as ErrExist too.
		return &Error{Code: CodeNotEmpty, Path: path, Err: err,
			Message: fmt.Sprintf("%s is a folder that is not empty; pass recursive: true to remove it with its contents", path)}
	case errors.Is(err, fs.ErrExist):
		return &Error{Code: CodeExists, Path: path, Err: err,
			Message: fmt.Sprintf("%s already exists; choose another name or remove it first", path)}
	case errors.Is(err, syscall.ENOTDIR):
		return &Error{Code: CodeNotADirectory, Path: path, Err: err,
			Message: fmt.Sprintf("%s (or one of its parents) is not a folder", path)}
	case errors.Is(err, syscall.EISDIR):
		return &Error{Code: CodeIsADirectory, Path: path, Err: err,
			Message: fmt.Sprintf("%s is a folder; pass a file path", path)}
	case errors.Is(err, syscall.ELOOP):
		return &Error{Code: CodeInvalidArgument, Path: path, Err: err,
			Message: fmt.Sprintf("%s goes through too many levels of symbolic links (a loop, or a link being replaced while it was followed: try again)", path)}
	case errors.Is(err, syscall.ENAMETOOLONG):
		return &Error{Code: CodeInvalidArgument, Path: path, Err: err,
			Message: fmt.Sprintf("path is too long: %.80s…", path)}
	case errors.Is(err, fs.ErrPermission):
		return &Error{Code: CodeDenied, Path: path, Err: err,
			Message: fmt.Sprintf("%s: permission denied by the operating system", path)}
	case errors.Is(err, syscall.ENOSPC), errors.Is(err, syscall.EDQUOT):
		return &Error{Code: CodeNoSpace, Path: path, Err: err,
			Message: fmt.Sprintf("%s: %s; nothing was changed. Free space on that file system (or raise the quota) and try again", path, noSpaceCause(err))}
	case errors.Is(err, syscall.ENXIO):
		// open(2) on a socket (or a device with nothing behind it).
		return &Error{Code: CodeInvalidArgument, Path: path, Err: err,
			Message: fmt.Sprintf("%s is not a regular file (a socket or device); pass a file path", path)}
	case errors.Is(err, syscall.EINVAL):
		return &Error{Code: CodeInvalidArgument, Path: path, Err: err,
			Message: fmt.Sprintf("%s: invalid path: %v", path, err)}
	}
	return &Error{Code: CodeInternal, Path: path, Err: err, Message: fmt.Sprintf("%s: %v", path, err)}
}
