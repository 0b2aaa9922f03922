var s string
fmt.Scanln(&s)
// Error:
// reading input is not supported
