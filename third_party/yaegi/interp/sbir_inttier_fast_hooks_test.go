package interp

// IntTierFastReads returns how many slice reads i compiled to read the
// slice's header from its variable's reflect.Value (sbir patch S14).
func IntTierFastReads(i *Interpreter) int { return int(i.intFast.reads.Load()) }

// IntTierFastMissed returns how many runs of those reads found the
// variable holding a value of another type descriptor, and read it
// through reflect (sbir patch S14).
func IntTierFastMissed(i *Interpreter) int { return int(i.intFast.missed.Load()) }

// IntTierLeaves returns how many functions i compiled as leaves, run by
// typed callbacks with their parameters as values (sbir patch S14).
func IntTierLeaves(i *Interpreter) int { return int(i.intFast.leaves.Load()) }
