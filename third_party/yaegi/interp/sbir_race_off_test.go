//go:build !race

package interp_test

// raceEnabled: the race detector is on (sync.Pool then drops items on
// purpose, and allocation counts mean nothing).
const raceEnabled = false
