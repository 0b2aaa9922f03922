type T struct{ a T }
// Error:
// NotAllowed: line 1, column 6: the recursive type T is not allowed
