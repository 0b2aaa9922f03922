package interp

import (
	"fmt"
	"strings"
	"testing"
)

func dumpNode(n *node, d int) {
	t := ""
	if n.typ != nil {
		if rt := n.typ.TypeOf(); rt != nil {
			t = rt.String()
		}
	}
	sk := ""
	if n.sym != nil {
		sk = n.sym.kind.String()
	}
	fmt.Printf("%s%s act=%v id=%q typ=%s lvl=%d fidx=%d rval=%v sym=%s shape=%v\n", strings.Repeat("  ", d), kinds[n.kind], actions[n.action], n.ident, t, n.level, n.findex, n.rval.IsValid(), sk, n.shape != nil)
	for _, c := range n.child {
		dumpNode(c, d+1)
	}
}

func TestZZDump(t *testing.T) {
	i := New(Options{})
	_, err := i.Eval(`var g = 5
func counter() func() int {
	c := 0
	return func() int {
		c++
		return c + g
	}
}
func h(n int) int { g++; return n + g }`)
	if err != nil {
		t.Fatal(err)
	}
	dumpNode(i.scopes[mainID].sym["counter"].node, 0)
	dumpNode(i.scopes[mainID].sym["h"].node, 0)
}
