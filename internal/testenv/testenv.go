// Package testenv says how much slower than a quiet developer machine the
// tests' machine may be, so that the few time limits a test must pick
// (a cell's time limit, how long to wait for a reply that must come)
// grow on a loaded machine instead of failing there.
//
// A test never asserts that something took less than a wall-clock bound;
// where it must choose one, it scales it:
//
//	limits.CellTimeout = testenv.Scale(5 * time.Second)
//
// SBIR_TEST_SLOW=3 (CI on a busy host, a race-detector build) makes every
// such bound three times as long. The default is 1.
package testenv

import (
	"fmt"
	"math"
	"os"
	"strconv"
	"time"
)

// EnvSlow is the environment variable that holds the factor.
const EnvSlow = "SBIR_TEST_SLOW"

// Slow returns the factor SBIR_TEST_SLOW sets: 1 when it is unset or
// empty. A value that is not a number of at least 1 panics, naming the
// variable, so that a typo in CI's settings is never silently ignored.
func Slow() float64 {
	f, err := parseSlow(os.Getenv(EnvSlow))
	if err != nil {
		panic(err)
	}
	return f
}

// parseSlow parses the value of SBIR_TEST_SLOW.
func parseSlow(v string) (float64, error) {
	if v == "" {
		return 1, nil
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || f < 1 || math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, fmt.Errorf("%s=%q: want a number of at least 1 (how many times slower than a quiet machine this one may be)", EnvSlow, v)
	}
	return f, nil
}

// Scale returns d multiplied by Slow, rounded to a millisecond when d is
// at least one, so that limits shown in messages stay readable.
func Scale(d time.Duration) time.Duration {
	s := time.Duration(float64(d) * Slow())
	if d >= time.Millisecond {
		s = s.Round(time.Millisecond)
	}
	return s
}
