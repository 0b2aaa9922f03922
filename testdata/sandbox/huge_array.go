var a [1 << 40]byte
// Error:
// NotAllowed: line 1, column 7: an array of 1099511627776 elements is not allowed
