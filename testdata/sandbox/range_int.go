n := 3
for i := range n {
	fmt.Print(i, " ")
}
for range 2 {
	fmt.Print("x")
}
fmt.Println()
// Output:
// 0 1 2 xx
