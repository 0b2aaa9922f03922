fmt.Println(nope)
// Error:
// CompileError: line 1, column 13: undefined: nope
