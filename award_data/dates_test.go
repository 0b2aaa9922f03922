package award_data

import (
	"testing"
	"time"

	"github.com/sbirtools/sbir-kernel/internal/columnar"
)

// TestCivilParts checks the integer date arithmetic against package time
// over four centuries of days, negative ones included.
func TestCivilParts(t *testing.T) {
	for d := int32(-200000); d < 200000; d += 7 {
		tm := columnar.DayTime(d)
		for part, fast := range civilParts {
			if got, want := fast(d), dateParts[part](tm); got != want {
				t.Fatalf("%s of %s: %d, want %d", part, tm.Format(time.DateOnly), got, want)
			}
		}
	}
}
