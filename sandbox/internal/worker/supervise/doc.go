// Package supervise keeps a cell's goroutines in hand, as a Go program's
// are: every goroutine a cell's go statement (or sync.WaitGroup.Go)
// starts, and every top-level defer, belongs to the cell (Goroutines,
// Cell); a panic in one ends the cell; at most 10,000 are alive per
// worker; a program ends when its main returns and a snippet waits for
// its goroutines; and goroutines still running when a cell ends are
// stopped, or, when they are inside compiled code and cannot be, counted
// so that the worker is replaced (Cell.WaitStopped).
//
// It also detects what the Go runtime reports as "all goroutines are
// asleep - deadlock!", which the worker's own goroutines hide from the
// runtime's detector: WatchDeadlock reads stack dumps of the goroutines
// that run interpreted code, keyed on the interpreter's function names
// (checked against the interpreter by TestInterpreterStackFormat), and
// TimerWatch records the timers cells make, which can still wake a
// goroutine.
package supervise
