package interp

import (
	"reflect"
	"runtime"
	"strings"
	"testing"
)

// TestSbirIndexFieldFused checks that sbir patch S10b reads s[i].f in one
// step (the index expression's step is fusedIndexField's) for a slice or
// an array by a variable index, read or written, and leaves the other
// index expressions (a constant index, a map, an element read whole) to
// getIndexArray and getIndexMap.
func TestSbirIndexFieldFused(t *testing.T) {
	const src = `
type rec struct{ id, score int }
func f(rs []rec, a *[4]rec, m map[int]rec, i int) int {
	rs[i].score = rs[i].id + a[i].id
	x := rs[0].id + m[i].id
	r := rs[i]
	return x + r.score
}`
	i := New(Options{})
	if _, err := i.Eval(src); err != nil {
		t.Fatal(err)
	}
	sym := i.scopes[mainID].sym["f"]
	if sym == nil || sym.node == nil {
		t.Fatal("no function f")
	}
	var got []string
	sym.node.Walk(func(n *node) bool {
		if n.kind == indexExpr {
			name := "no step"
			if n.exec != nil {
				name = runtime.FuncForPC(reflect.ValueOf(n.exec).Pointer()).Name()
				name = name[strings.LastIndex(name, "/")+1:]
			}
			fused := strings.Contains(name, "fusedIndexField")
			got = append(got, strings.TrimSpace(strings.Split(n.anc.kind.String(), " ")[0])+map[bool]string{true: " fused", false: " not fused"}[fused])
		}
		return true
	}, nil)
	want := []string{
		"selectorExpr fused",     // rs[i].score =
		"selectorExpr fused",     // rs[i].id
		"selectorExpr fused",     // a[i].id
		"selectorExpr not fused", // rs[0].id: a constant index
		"selectorExpr not fused", // m[i].id: a map
		"defineStmt not fused",   // r := rs[i]
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("index expressions:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
