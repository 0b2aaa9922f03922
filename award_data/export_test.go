package award_data

import (
	"os"
	"path/filepath"

	"github.com/sbirtools/sbir-kernel/internal/columnar"
)

// LoadFixture is loadFixtureOnce for the external test package's TestMain.
var LoadFixture = loadFixtureOnce

// UpdateGolden is the -update flag, for the external test package.
var UpdateGolden = update

// BuildBitIndex builds the bitmap index of a column of the loaded data
// afresh (not cached), for the benchmarks; false if it has none.
func BuildBitIndex(column string) bool {
	t := current().t
	return columnar.BuildBitIndex(t.Cols[t.ByName[column]]) != nil
}

// FixtureArrow is the path of the fixture's Arrow file, for sessions.
func FixtureArrow() string { return filepath.Join(fixtureDir, "awards.arrow") }

// RemoveFixture removes the fixture's Arrow file after the tests.
func RemoveFixture() { os.RemoveAll(fixtureDir) }
