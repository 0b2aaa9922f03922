package interp

import "reflect"

// sbir patch S5: maps with string keys and int, float64, string or bool
// values are read and updated as Go maps.
//
// m[k] through reflect.Value.MapIndex copies the element into a new
// allocation; m[k]++ read the element that way and wrote it back with
// SetMapIndex, hashing the key twice. Counting words in a map[string]int
// spent most of its time there. For these map types (the element type
// and the key type are the frame's types, known when the code is
// compiled) the interpreter type-asserts the map and indexes it as gc
// does: one lookup, no allocation.

var (
	mapStringInt     = reflect.TypeOf(map[string]int(nil))
	mapStringFloat64 = reflect.TypeOf(map[string]float64(nil))
	mapStringString  = reflect.TypeOf(map[string]string(nil))
	mapStringBool    = reflect.TypeOf(map[string]bool(nil))
)

// mapGetter reads m[k] of a map of type t into dest, which has the map's
// element type, and reports whether k was in m; nil if t is not one of
// the map types above.
type mapGetter func(m reflect.Value, k string, dest reflect.Value) bool

func typedMapGetter(t reflect.Type) mapGetter {
	switch t {
	case mapStringInt:
		return func(m reflect.Value, k string, d reflect.Value) bool {
			v, ok := m.Interface().(map[string]int)[k]
			d.SetInt(int64(v))
			return ok
		}
	case mapStringFloat64:
		return func(m reflect.Value, k string, d reflect.Value) bool {
			v, ok := m.Interface().(map[string]float64)[k]
			d.SetFloat(v)
			return ok
		}
	case mapStringString:
		return func(m reflect.Value, k string, d reflect.Value) bool {
			v, ok := m.Interface().(map[string]string)[k]
			d.SetString(v)
			return ok
		}
	case mapStringBool:
		return func(m reflect.Value, k string, d reflect.Value) bool {
			v, ok := m.Interface().(map[string]bool)[k]
			d.SetBool(v)
			return ok
		}
	}
	return nil
}

// mapKey returns the function giving the string key of the index
// expression n (constant or not).
func mapKey(n *node) func(*frame) string {
	k := n.child[1]
	if k.rval.IsValid() {
		s := k.rval.String()
		return func(*frame) string { return s }
	}
	value := genValue(k)
	return func(f *frame) string { return value(f).String() }
}

// typedMapKey reports whether the index expression n indexes a map of
// one of the map types above with a string key, and returns its type.
func typedMapKey(n *node) (reflect.Type, bool) {
	if len(n.child) < 2 || n.child[0].typ == nil || n.child[1].typ == nil {
		return nil, false
	}
	t := n.child[0].typ.frameType()
	if typedMapGetter(t) == nil {
		return nil, false
	}
	kt := n.child[1].typ.TypeOf()
	return t, kt != nil && kt.Kind() == reflect.String
}

// directMapIndex sets n.exec to read m[k] with a typed map (sbir patch
// S5), for an index expression whose value is stored (n.fnext nil) or
// decides a branch (a map of bools), and reports whether it did.
func directMapIndex(n *node, tnext bltn) bool {
	t, ok := typedMapKey(n)
	if !ok {
		return false
	}
	get := typedMapGetter(t)
	dest := genValue(n)
	value0 := genValue(n.child[0])
	key := mapKey(n)
	if n.fnext != nil {
		if t != mapStringBool {
			return false
		}
		fnext := getExec(n.fnext)
		n.exec = func(f *frame) bltn {
			d := dest(f)
			get(value0(f), key(f), d)
			if d.Bool() {
				return tnext
			}
			return fnext
		}
		return true
	}
	n.exec = func(f *frame) bltn {
		get(value0(f), key(f), dest(f))
		return tnext
	}
	return true
}

// directMapIndex2 sets n.exec to run v, ok := m[k] with a typed map (sbir
// patch S5) and reports whether it did. dest and status are the
// locations of v and ok, nil for a blank.
func directMapIndex2(n *node, dest, status func(*frame) reflect.Value, next bltn) bool {
	t, ok := typedMapKey(n)
	if !ok {
		return false
	}
	get := typedMapGetter(t)
	value0 := genValue(n.child[0])
	key := mapKey(n)
	scratch := t.Elem()
	n.exec = func(f *frame) bltn {
		var d reflect.Value
		if dest != nil {
			d = dest(f)
		} else {
			d = reflect.New(scratch).Elem()
		}
		found := get(value0(f), key(f), d)
		if status != nil {
			status(f).SetBool(found)
		}
		return next
	}
	return true
}

// directMapUpdate sets n.exec to run m[k] op= x, or m[k]++ and m[k]--
// when x is nil, with a typed map of ints or float64s (sbir patch S5),
// and reports whether it did. op is '+' or '-'. The index expression
// computes nothing then: its exec would look the element up once more.
func directMapUpdate(n *node, op byte, x *node) bool {
	c0 := n.child[0]
	if !isMapEntry(c0) || c0.exec != nil {
		return false
	}
	t, ok := typedMapKey(c0)
	if !ok || (t != mapStringInt && t != mapStringFloat64) {
		return false
	}
	next := getExec(n.tnext)
	mapValue := genValue(c0.child[0])
	key := mapKey(c0)
	switch t {
	case mapStringInt:
		delta := func(*frame) int { return 1 }
		switch {
		case x == nil:
		case x.rval.IsValid():
			d := int(vInt(x.rval))
			delta = func(*frame) int { return d }
		default:
			v := genValue(x)
			delta = func(f *frame) int { return int(v(f).Int()) }
		}
		if op == '-' {
			n.exec = func(f *frame) bltn {
				mapValue(f).Interface().(map[string]int)[key(f)] -= delta(f)
				return next
			}
		} else {
			n.exec = func(f *frame) bltn {
				mapValue(f).Interface().(map[string]int)[key(f)] += delta(f)
				return next
			}
		}
	case mapStringFloat64:
		delta := func(*frame) float64 { return 1 }
		switch {
		case x == nil:
		case x.rval.IsValid():
			d := vFloat(x.rval)
			delta = func(*frame) float64 { return d }
		default:
			v := genValue(x)
			delta = func(f *frame) float64 { return v(f).Float() }
		}
		if op == '-' {
			n.exec = func(f *frame) bltn {
				mapValue(f).Interface().(map[string]float64)[key(f)] -= delta(f)
				return next
			}
		} else {
			n.exec = func(f *frame) bltn {
				mapValue(f).Interface().(map[string]float64)[key(f)] += delta(f)
				return next
			}
		}
	}
	c0.gen = nop
	return true
}
