import . "strings"
// Error:
// the dot import of "strings" is not allowed
