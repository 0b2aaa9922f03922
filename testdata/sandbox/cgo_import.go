import "C"
// Error:
// NotAllowed: line 1, column 8: import "C" is not allowed: cgo
