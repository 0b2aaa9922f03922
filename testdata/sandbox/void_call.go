func hi() { fmt.Println("hi") }
hi()
// Output:
// hi
