x := 
// Error:
// SyntaxError: line 2
