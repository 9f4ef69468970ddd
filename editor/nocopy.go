package editor

import "unsafe"

// Large contents are passed between string and []byte without a copy where
// neither side is ever written again: a file read for a call (a fresh
// buffer), a request's decoded content, a string built for a new content.
// Each copy of a 50 MB file was 50 MB more of peak memory, and a
// single-file call is to stay within three times the file's size.

// stringView is b as a string; b must not be written afterwards.
func stringView(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// bytesView is s as bytes, which must not be written.
func bytesView(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }
