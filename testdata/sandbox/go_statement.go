x := 1
go func() { x++ }()
// Error:
// NotAllowed: line 2, column 1: a go statement is not allowed
