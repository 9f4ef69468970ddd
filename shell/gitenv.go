package shell

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// Git reads a few files outside the jail that are the user's own git
// setup: /etc/gitconfig, ~/.gitconfig, $XDG_CONFIG_HOME/git/config, the
// global excludes file, and for ssh remotes the default keys in ~/.ssh.
// gitops needs them to find the author of a commit, the ignore rules git
// applies and the credentials git's ssh would offer, exactly as git finds
// them. They are read here, capped, and never written.

// maxGitUserFile caps each of those reads.
const maxGitUserFile = 1 << 20

// GitConfigFile is one configuration file git reads, in git's order.
type GitConfigFile struct {
	Path string
	Data []byte
}

// Getenv reads the process environment (GIT_AUTHOR_NAME and the like).
func Getenv(key string) string { return os.Getenv(key) }

// HomeDir is the user's home folder, or "" when unknown.
func HomeDir() string {
	if h := os.Getenv("HOME"); h != "" {
		return h
	}
	h, _ := os.UserHomeDir()
	return h
}

// XDGConfigHome is $XDG_CONFIG_HOME, or ~/.config.
func XDGConfigHome() string {
	if x := os.Getenv("XDG_CONFIG_HOME"); x != "" {
		return x
	}
	if h := HomeDir(); h != "" {
		return filepath.Join(h, ".config")
	}
	return ""
}

// GitUserConfig returns the system and global git configuration files that
// exist, lowest priority first, honouring GIT_CONFIG_NOSYSTEM,
// GIT_CONFIG_SYSTEM and GIT_CONFIG_GLOBAL as git does. A missing file is
// skipped (so is one git could not read either, which git only warns
// about); one that is there but is not a regular file (a FIFO would hang
// every git function, as it hangs git) is an error naming it.
func GitUserConfig() ([]GitConfigFile, error) {
	var paths []string
	if os.Getenv("GIT_CONFIG_NOSYSTEM") == "" {
		if p, ok := os.LookupEnv("GIT_CONFIG_SYSTEM"); ok {
			paths = append(paths, p)
		} else {
			paths = append(paths, "/etc/gitconfig")
		}
	}
	if p, ok := os.LookupEnv("GIT_CONFIG_GLOBAL"); ok {
		paths = append(paths, p)
	} else {
		if x := XDGConfigHome(); x != "" {
			paths = append(paths, filepath.Join(x, "git", "config"))
		}
		if h := HomeDir(); h != "" {
			paths = append(paths, filepath.Join(h, ".gitconfig"))
		}
	}
	var out []GitConfigFile
	for _, p := range paths {
		if p == "" || p == "/dev/null" {
			continue
		}
		data, err := ReadGitUserFile(p)
		switch {
		case err == nil:
			out = append(out, GitConfigFile{Path: p, Data: data})
		case errors.Is(err, fs.ErrInvalid): // there, but not a regular file
			return out, err
		}
	}
	return out, nil
}

// ReadGitUserFile reads one file of the user's git setup (core.excludesFile,
// an ssh key), capped at 1 MiB. "~/" is expanded. Only gitops calls it, and
// only for paths git itself would read.
func ReadGitUserFile(p string) ([]byte, error) {
	if strings.HasPrefix(p, "~/") {
		p = filepath.Join(HomeDir(), p[2:])
	}
	if err := CheckPath(p); err != nil {
		return nil, err
	}
	// Non-blocking: a FIFO there must not hang every git function.
	f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, AsError(err, p)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, AsError(err, p)
	}
	if !fi.Mode().IsRegular() {
		return nil, &Error{Code: CodeInvalidArgument, Path: p, Err: fs.ErrInvalid,
			Message: fmt.Sprintf("%s (part of your git setup) is %s, not a regular file; git functions read only regular files there (remove it, or replace it with a file)", p, kindWords(fi.Mode()))}
	}
	return io.ReadAll(io.LimitReader(f, maxGitUserFile))
}
