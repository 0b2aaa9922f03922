f := 2.5
m := map[string]int{"a": 1}
clear(m)
fmt.Println(min(3, 1, 2), max(1, f), min(3, 1.5), len(m))
// Output:
// 1 2.5 1.5 0
