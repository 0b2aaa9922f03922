reflect.ValueOf(1)
// Error:
// CompileError: line 1, column 1: undefined: reflect
