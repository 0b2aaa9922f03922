award_data.Count()
// Output:
// 2000
