package cellprep

import "strings"

// IsStdlibPath reports whether path names a standard library package: its
// first element has no dot, as the go command decides.
func IsStdlibPath(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}
