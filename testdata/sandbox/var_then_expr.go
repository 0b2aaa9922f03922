var y = 3; y
// Output:
// 3
