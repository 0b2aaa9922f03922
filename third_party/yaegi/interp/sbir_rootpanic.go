package interp

// sbir patch 87: a host running the deferred calls of top-level
// statements itself (a notebook cell's `defer f()`, called after the
// cell's statements, from a later evaluation) needs recover in f to take
// the statements' panic, as recover in a function main defers takes
// main's. After an evaluation whose statements panicked, the global frame
// keeps that panic until the next evaluation ends, and recover in a
// function called directly from the global frame takes it from there;
// RootPanic and SetRootPanic let the host read and set it around the calls
// it makes.

// RootPanic returns the panic that the statements of the last evaluation
// left in the global frame and that no recover has taken, or nil.
func (interp *Interpreter) RootPanic() any {
	f := interp.frame
	f.mutex.RLock()
	defer f.mutex.RUnlock()
	return f.recovered
}

// SetRootPanic makes v (a value as panic was called with, nil for none)
// the panic that recover takes in a function called directly from the
// global frame, until the evaluation under way ends.
func (interp *Interpreter) SetRootPanic(v any) {
	f := interp.frame
	f.mutex.Lock()
	f.recovered = v
	f.mutex.Unlock()
}
