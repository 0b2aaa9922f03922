big := make([]int, 1000)
_ = big
x := 1
x++
// Output:
