n := 0
for i := 0; i < 3; i++ { n += i }; if m := n * 2; m > 4 { fmt.Println("big", m) }
switch k := n; k { case 3: fmt.Println("three") }
// Output:
// big 6
// three
