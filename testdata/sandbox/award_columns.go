cols := award_data.Columns()
fmt.Println(len(cols) >= 42, cols[0])
// Output:
// true Company
