package award_data

// LoadFixture is loadFixtureOnce for the external test package's TestMain.
var LoadFixture = loadFixtureOnce

// UpdateGolden is the -update flag, for the external test package.
var UpdateGolden = update
