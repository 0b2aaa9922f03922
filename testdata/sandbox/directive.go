//go:noinline
func f() {}
// Error:
// NotAllowed: line 1, column 1: the directive //go:noinline is not allowed
