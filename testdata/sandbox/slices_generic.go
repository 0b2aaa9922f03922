xs := []int{3, 1, 2}
slices.Sort(xs)
fmt.Println(xs, slices.Max(xs), slices.Contains(xs, 2), slices.Index(xs, 3))
// Output:
// [1 2 3] 3 true 2
