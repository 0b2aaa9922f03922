import "os"
// Error:
// NotAllowed: line 1, column 8: import "os" is not allowed
