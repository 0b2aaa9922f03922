package interp

import (
	"io"
	"reflect"
	"testing"
	"unsafe"

	"github.com/traefik/yaegi/stdlib"
)

// TestSbirSliceWordsProbed checks that this toolchain's reflect.Value of
// a slice is read by its words (sbir patch S14): the header of an
// addressable slice in place and of a copied one, and nothing for a
// Value of another type.
func TestSbirSliceWordsProbed(t *testing.T) {
	if !sliceWordsOK {
		t.Fatal("slice Values are not read by their words on this toolchain: S14's fast reads are off")
	}
	type celsius int
	s := []celsius{3, 4, 5}
	typ := typeWord(reflect.TypeOf(s))
	for _, v := range []reflect.Value{reflect.ValueOf(&s).Elem(), reflect.ValueOf(s)} {
		h := sliceWords(&v, typ)
		if h == nil || h.data != unsafe.Pointer(&s[0]) || h.len != 3 {
			t.Errorf("addressable %v: header %+v, want data %p, len 3", v.CanAddr(), h, &s[0])
		}
		if h := sliceWords(&v, typeWord(reflect.TypeOf([]int(nil)))); h != nil {
			t.Errorf("addressable %v: read as []int", v.CanAddr())
		}
	}
	var zero reflect.Value
	if h := sliceWords(&zero, typ); h != nil {
		t.Error("the zero Value read as a slice")
	}
}

// TestSbirSliceReadsMissType points a global slice's slot at a value of
// another slice type with elements of the same size, which the
// interpreter never does: the fast reads (of a leaf and of the tier's
// registers) find another type descriptor than compiled and read through
// reflect, with the same answers. Elements of another size are not read
// at all: the calls run in the interpreter.
func TestSbirSliceReadsMissType(t *testing.T) {
	i := New(Options{Stdout: io.Discard, Stderr: io.Discard})
	if err := i.Use(stdlib.Symbols); err != nil {
		t.Fatal(err)
	}
	if _, err := i.Eval(`
import "sort"
var g = []int{0}
func leaf(k int) bool { return g[k] >= 3 }
func regs(k int) bool { j := k; return g[j] >= 3 }
func both(a, b int) bool { return g[a] < g[b] }`); err != nil {
		t.Fatal(err)
	}
	type other int
	sym := i.scopes[mainID].sym["g"]
	if sym == nil {
		t.Fatal("no global g")
	}
	i.frame.data[sym.index] = reflect.ValueOf([]other{1, 2, 3, 4, 5})
	v, err := i.Eval(`[3]int{sort.Search(5, leaf), sort.Search(5, regs), map[bool]int{true: 1}[sort.SliceIsSorted(make([]int, 5), both)]}`)
	if err != nil {
		t.Fatal(err)
	}
	if got := v.Interface().([3]int); got != [3]int{2, 2, 1} {
		t.Errorf("got %v, want [2 2 1]", got)
	}
	if i.intFast.leaves.Load() < 2 || i.intTiers.Load() < 3 {
		t.Errorf("%d leaves of %d functions in the tier, want 2 of 3", i.intFast.leaves.Load(), i.intTiers.Load())
	}
	if i.intFast.missed.Load() == 0 {
		t.Error("no read missed the type: the test tests nothing")
	}
	// Elements of another size: the tier reads none, and the calls run in
	// the interpreter.
	i.frame.data[sym.index] = reflect.ValueOf([]int32{1, 2, 3, 4, 5})
	deopts := i.intDeopts.Load()
	v, err = i.Eval(`[2]int{sort.Search(5, leaf), sort.Search(5, regs)}`)
	if err != nil {
		t.Fatal(err)
	}
	if got := v.Interface().([2]int); got != [2]int{2, 2} {
		t.Errorf("int32 elements: got %v, want [2 2]", got)
	}
	if i.intDeopts.Load() == deopts {
		t.Error("int32 elements read by the tier, as ints")
	}
}
