package interp_test

import "testing"

// Patch 47: a constant key of delete takes the map's key type.
func TestSbirDeleteConstantKey(t *testing.T) {
	i, out, _ := newTestInterp(t)
	for _, s := range []string{
		`import "fmt"`,
		`const C = 0`,
		`type K uint16`,
		`func run() {
	m := map[int8]int32{6: C, 0: 1}
	delete(m, C)
	n := map[K]string{3: "a", 4: "b"}
	const D = 4.0
	delete(n, D)
	f := map[float32]bool{1: true, 2: true}
	delete(f, 1)
	a := map[any]int{1: 1, "x": 2}
	delete(a, 1)
	fmt.Println(m, n, f, a)
}`,
		`run()`,
	} {
		if _, err := i.Eval(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	if got, want := out.String(), "map[6:0] map[3:a] map[2:true] map[x:2]\n"; got != want {
		t.Errorf("stdout %q, want %q", got, want)
	}
}
