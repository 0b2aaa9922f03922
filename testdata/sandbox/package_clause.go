package main
// Error:
// NotAllowed: line 1, column 1: package clause is not allowed
