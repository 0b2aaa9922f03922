fmt.Println("hello")
// Output:
// hello
