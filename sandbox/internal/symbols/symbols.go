package symbols

import "reflect"

// Symbols is filled by the generated zz_*.go files: one entry per extracted
// package, keyed "importpath/name" as yaegi expects. Never hand it to an
// interpreter directly; use Exports.
var Symbols = map[string]map[string]reflect.Value{}
