v := 1
// -- cell --
v := "now a string"
v
// Output:
// "now a string"
