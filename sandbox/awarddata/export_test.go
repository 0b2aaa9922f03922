package award_data

// LoadFixture is loadFixtureOnce for the external test package's TestMain.
var LoadFixture = loadFixtureOnce
