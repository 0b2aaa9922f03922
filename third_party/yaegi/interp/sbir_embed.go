package interp

import "reflect"

// embeddableAlone reports whether reflect.StructOf accepts f as the
// embedded (anonymous) field of a struct of one field (sbir patch 67).
// It panics ("embedded interface with unexported method(s) not
// implemented") for a pointer to a compiled type whose method set
// includes unexported methods, such as a struct embedding *log.Logger:
// `type T struct{ *log.Logger }` (or `*T` of it) failed to compile. Such
// a field is a named one in the reflect type; the interpreter still
// promotes its fields and methods from the source's type.
func embeddableAlone(f reflect.StructField) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	f.Anonymous = true
	reflect.StructOf([]reflect.StructField{f})
	return true
}
