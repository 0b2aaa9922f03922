z := 0
10 / z
// Error:
// RuntimeError: runtime error: integer divide by zero
