total := 4
// -- cell --
s := 0
for i := range total { s += i }
s
// Output:
// 6
