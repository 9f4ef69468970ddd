//go:build !unix

package shell

import "io/fs"

// ownerOf is the uid that owns a file: unknown (-1) here.
func ownerOf(fs.FileInfo) int { return -1 }

// Euid is the effective uid of this process: none (-1) here.
func Euid() int { return -1 }
