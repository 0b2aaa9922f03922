package award_data

// LoadFixture is loadFixtureOnce for the external test package's TestMain.
var LoadFixture = loadFixtureOnce

// UpdateGolden is the -update flag, for the external test package.
var UpdateGolden = update

// BuildBitIndex builds the bitmap index of a column of the loaded data
// afresh (not cached), for the benchmarks; false if it has none.
func BuildBitIndex(column string) bool {
	t := loaded.Load()
	return buildBitIndex(t.cols[t.byName[column]]) != nil
}
