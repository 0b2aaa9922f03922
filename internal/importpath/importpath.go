// Package importpath classifies Go import paths the way the go command
// does. It is the one copy of that rule for the supervisor's import check
// (sandbox/internal/cellprep), the package environments (pkgenv) and the
// worker's completion and pre-flight.
package importpath

import "strings"

// IsStdlib reports whether path names a standard library package: its
// first element has no dot (module paths outside the standard library have
// one, as the go command decides).
func IsStdlib(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}
