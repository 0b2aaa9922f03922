package interp

import (
	"reflect"
	"sync"
)

// sbir patch 83: a struct value of an interpreted type that has no methods
// is stored in an interface (any) as its reflect value alone, and the
// reflect type yaegi makes for it has no name and renames unexported
// fields (x to Xx, patch 6); fmt then printed `var v any = point{1, 2}`
// with %+v as {Xx:1 Xy:2} and with %T as struct { Xx int "json:\"-\"..." }
// where gc prints {x:1 y:2} and main.point. srcTypes maps the reflect
// types of the named struct types the interpreter declared back to them,
// so that the fmt operands of patch 7 find the declared type again.

// srcTypes is the interpreter's map from the reflect type of each named
// struct type it declared to that type.
type srcTypes struct {
	mu  sync.Mutex
	m   map[reflect.Type]*itype   // nil: types printed differently share the reflect type
	all map[reflect.Type][]*itype // sbir patch 89: every type declared with the reflect type
}

// add records the named struct type t, whose reflect type is built. Two
// declarations with the same fields get the same reflect type: the type
// is then unknown (nil), unless both print alike (a type declared again).
func (s *srcTypes) add(t *itype) {
	if s == nil || t.rtype == nil || t.name == "" {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = map[reflect.Type]*itype{}
		s.all = map[reflect.Type][]*itype{}
	}
	if len(s.all[t.rtype]) < 64 {
		s.all[t.rtype] = append(s.all[t.rtype], t)
	}
	old, seen := s.m[t.rtype]
	switch {
	case !seen:
		s.m[t.rtype] = t
	case old != nil && typeString(old) == typeString(t):
		s.m[t.rtype] = t // declared again: the latest declaration
	default:
		s.m[t.rtype] = nil
	}
}

// declared returns the named struct types declared with the reflect type
// rt (at most 64), for patch 89 to tell when it cannot know which one a
// value has.
func (s *srcTypes) declared(rt reflect.Type) []*itype {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*itype(nil), s.all[rt]...)
}

// of returns the interpreted type of a value of reflect type rt when rt
// is, or is made of, a named struct type the interpreter declared
// (pointers, slices, arrays and maps of it), or of interfaces, whose
// dynamic values writeGo looks up in turn; otherwise nil.
func (s *srcTypes) of(rt reflect.Type, depth int) *itype {
	if s == nil || rt == nil || depth > 8 {
		return nil
	}
	switch rt.Kind() {
	case reflect.Struct:
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.m[rt]
	case reflect.Interface:
		if depth > 0 {
			// An element or value of interface type: writeGo looks up
			// what each one holds.
			if rt.NumMethod() == 0 {
				return &itype{cat: interfaceT, str: "interface{}", rtype: rt}
			}
			return valueTOf(rt)
		}
	case reflect.Pointer:
		if e := s.of(rt.Elem(), depth+1); e != nil {
			return ptrOf(e)
		}
	case reflect.Slice:
		if e := s.of(rt.Elem(), depth+1); e != nil {
			return sliceOf(e)
		}
	case reflect.Array:
		if e := s.of(rt.Elem(), depth+1); e != nil {
			return arrayOf(e, rt.Len())
		}
	case reflect.Map:
		k, v := s.of(rt.Key(), depth+1), s.of(rt.Elem(), depth+1)
		if k == nil && v == nil {
			return nil
		}
		if k == nil {
			k = valueTOf(rt.Key())
		}
		if v == nil {
			v = valueTOf(rt.Elem())
		}
		return mapOf(k, v)
	}
	return nil
}
