// Package gosym is editord's index of a workspace's Go declarations, for
// editor::symbols' workspace queries.
//
// gopls answers a workspace symbol query by decoding every package's
// symbol table from its file cache and fuzzy-matching each qualified name,
// every time: about 110 ms on kubernetes on two cores, past the 100 ms an
// agent's "where is X defined" should cost. The index parses each Go file
// once (go/parser, declarations only, the build's file selection for this
// platform), keeps each declaration's pkg.Name text prepared for the ranker
// editor::find uses (search.PrepareQualified), and answers in
// milliseconds. Its owner (editor/symbols_index.go) feeds it: the files
// editor::find lists, then the change journal's Go files and the person's
// drafts before each query, the same stream the language servers are fed,
// so both see one workspace. gopls keeps what needs type information:
// definitions, references, rename, hover, diagnostics, outlines.
//
// The declarations are gopls's symbols (functions, methods as
// Type.Method, types, struct fields as Type.Field, interface methods,
// constants, variables) with gopls's kind names, so that a query and an
// outline agree.
package gosym
