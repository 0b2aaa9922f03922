package interp

// DisableIntTier keeps every function i runs out of the int tier (sbir
// patch S9): the interpreter's own answer, to compare the tier's with.
func DisableIntTier(i *Interpreter) { i.noIntTier = true }

// IntTierFunctions returns how many functions of i's main package run in
// their int tier (sbir patch S9): a test of the tier that counts none
// tests nothing.
func IntTierFunctions(i *Interpreter) int {
	n := 0
	sc := i.scopes[mainID]
	if sc == nil {
		return 0
	}
	for _, s := range sc.sym {
		if s.node != nil && s.node.kind == funcDecl && s.node.shape != nil && s.node.shape.ints.fn.Load() != nil {
			n++
		}
	}
	return n
}
