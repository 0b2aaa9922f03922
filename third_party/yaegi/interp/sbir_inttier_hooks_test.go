package interp

// DisableIntTier keeps every function i runs out of the int tier (sbir
// patch S9): the interpreter's own answer, to compare the tier's with.
func DisableIntTier(i *Interpreter) { i.noIntTier = true }

// IntTierFunctions returns how many functions (declared or literal) i
// compiled for the int tier (sbir patch S9): a test of the tier that
// counts none tests nothing.
func IntTierFunctions(i *Interpreter) int { return int(i.intTiers.Load()) }

// IntTierMethods returns how many of those functions are methods (sbir
// patch S17).
func IntTierMethods(i *Interpreter) int { return int(i.intMethods.Load()) }

// IntTierDeopts returns how many calls of the int tier i ran panicked and
// ran again in the interpreter (sbir patch S9).
func IntTierDeopts(i *Interpreter) int { return int(i.intDeopts.Load()) }

// StopRunning does to i what an interrupt does (EvalWithContext's cancel,
// the kernel's end of a cell): the running evaluation's code stops, and
// the next evaluation runs in a new run id. It is called at most once per
// evaluation, as EvalWithContext makes the channel stop closes.
func StopRunning(i *Interpreter) {
	i.mutex.Lock()
	i.done = make(chan struct{})
	i.mutex.Unlock()
	i.stop()
}

// PointerWordsProbed reports whether the int tier reads a pointer
// receiver's Value through its words (sbir patch S17).
func PointerWordsProbed() bool { return ptrIndir.ok }

// InterfaceMethodsLearnt returns how many (call site, concrete type)
// pairs of calls through interfaces i runs directly (sbir patch S18).
func InterfaceMethodsLearnt(i *Interpreter) int { return int(i.ifaceMethods.Load()) }
