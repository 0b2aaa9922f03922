import "./secrets"
// Error:
// NotAllowed: line 1, column 8: the relative import "./secrets" is not allowed
