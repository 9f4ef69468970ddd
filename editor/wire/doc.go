// Package wire is editord's hand-written JSON: the fast paths that read
// and write messages once, where encoding/json would read a save's
// megabytes four times or spend a third of a capped search on reflection.
//
//   - scan.go: the ends of JSON tokens and an object's members, found
//     without decoding (the stdio loop, the argument decoder);
//   - decode.go, decode_fast.go: a function's arguments into its request
//     struct, refusing what a careless client would get silently wrong
//     (unknown, missing or mistyped fields, text that is not UTF-8); the
//     fast path reads a plain object once, the careful path says what is
//     wrong;
//   - encode.go: JSON strings and arrays appended to a buffer, and
//     encoding/json without HTML escaping;
//   - html.go: undoing the HTML escaping of JSON that others wrote.
//
// Every fast path here has a slow twin in encoding/json it is proven equal
// to: by the equivalence tests beside it, and by the fuzz targets in
// fuzz_test.go, which feed both random input (make stress runs them).
//
// Its place in the stack (docs/design.md): a leaf beside shell and diff,
// imported by editor (requests) and protocol (messages, which it assembles
// from these pieces); it imports no package of editord. A new fast path
// goes here with its equivalence test and its fuzz target.
package wire
