// Package textcut cuts text to a size in bytes without splitting a
// character: the one copy of that rule for the worker's output and value
// rendering, the kernel's stream batching and the MCP server's results.
package textcut

import "unicode/utf8"

// Prefix returns the longest prefix of s of at most n bytes that does not
// split a UTF-8 encoded character (n < 0 is taken as 0).
func Prefix(s string, n int) string {
	if n <= 0 {
		return ""
	}
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
