package interp

// sbir patch 100: an assignment to a variable that a closure captured
// sets the variable.
//
// A closure runs in a frame whose ancestor is a copy of the frame it was
// made in (getFunc clones it, sbir patch 13a): the copy's slots hold the
// same values as the original's, so setting a value through either is
// seen by both, but pointing a slot of the copy at another value is not.
// A struct literal and a channel receive assigned to a variable point
// its slot at the value they make (an optimization of the assignment):
// in a closure, `v = T{...}` and `v = <-c` left the captured v as it was.

// enclosingFrameLevel reports whether level, how many frames up a
// variable is, names the frame of an enclosing function, which a
// closure sees through a copy, rather than the running frame or the
// global one.
func enclosingFrameLevel(level int) bool {
	return level != 0 && level != globalFrame
}
