package search

import "strings"

// Vendored trees hold other projects' code checked into this one: a
// go-to-file query that names a file of the project (main.go, config.go)
// finds as many copies under vendor/ as in the project, often on shorter
// paths. They rank below the project's own files of the same tier
// (vendorPenalty), so a file name match in a vendored tree still beats a
// match that needs the project's folders, and the order stays a function
// of each path alone (deterministic, independent of candidate order).

// vendorPenalty is subtracted from a vendored path's score: larger than
// any score difference within a tier (scores without tierBasename stay far
// below it, see maxFuzzyRunes), smaller than tierBasename.
const vendorPenalty = 1 << 31

// vendored reports whether a folder of a path, given lowercased (not its
// file name), is a vendored tree: vendor, vendored, vendor-internal and
// other vendor-/vendor_ names, third_party and its spellings, node_modules.
func vendored(lower string) bool {
	dir := lower[:max(strings.LastIndexByte(lower, '/'), 0)]
	if dir == "" || !hasVendorWord(dir) {
		return false
	}
	for seg := range strings.SplitSeq(dir, "/") {
		if vendorFolder(seg) {
			return true
		}
	}
	return false
}

// hasVendorWord is the cheap test before the folder-by-folder one: most
// paths hold none of these words at all.
func hasVendorWord(dir string) bool {
	return strings.Contains(dir, "vendor") || strings.Contains(dir, "third") ||
		strings.Contains(dir, "3rdparty") || strings.Contains(dir, "node_modules")
}

func vendorFolder(seg string) bool {
	switch seg {
	case "vendor", "vendored", "vendors", "_vendor", "third_party", "third-party", "thirdparty", "3rdparty", "node_modules":
		return true
	}
	return strings.HasPrefix(seg, "vendor-") || strings.HasPrefix(seg, "vendor_") ||
		strings.HasSuffix(seg, "-vendor") || strings.HasSuffix(seg, "_vendor") ||
		strings.HasPrefix(seg, "third_party") || strings.HasPrefix(seg, "third-party")
}
