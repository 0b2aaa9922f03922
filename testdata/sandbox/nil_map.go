var m map[string]int
m["a"] = 1
// Error:
// RuntimeError: assignment to entry in nil map
