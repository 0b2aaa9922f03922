package interp

import (
	"reflect"
	"sync"
)

// sbir patch 69: a panic raised in a deferred call while another panic
// was under way is reported with the earlier one, as gc does:
//
//	panic: original [recovered]
//		panic: wrapped: original
//
// (the first was recovered by the deferred call that then panicked; an
// earlier panic that was not recovered is printed without the mark).
// The interpreter reported the last panic only.

// PanicLink is a panic under way when a later one started (sbir patch 69).
type PanicLink struct {
	Value     interface{} // the panic's value, as Panic.Value
	Recovered bool        // a recover in the deferred call that panicked again stopped it
	// Repanicked is true when that deferred call panicked again with the
	// recovered value: gc prints the two as one, "[recovered, repanicked]".
	Repanicked bool
}

// panicChain records the earlier panics of the panic unwinding the
// interpreted code; a completed recovery (the recovering deferred call
// returned) ends them, and a run starts with none.
type panicChain struct {
	mu    sync.Mutex
	links []PanicLink
}

func (c *panicChain) add(v interface{}, recovered, repanicked bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.links) < 100 {
		c.links = append(c.links, PanicLink{Value: v, Recovered: recovered, Repanicked: repanicked})
	}
}

// samePanicValue reports whether two Go panic values of the interpreter
// hold the same value (false when it cannot be compared).
func samePanicValue(a, b interface{}) (same bool) {
	defer func() {
		if recover() != nil {
			same = false
		}
	}()
	return panicValue(a) == panicValue(b)
}

// panicValue is the value a Go panic value of the interpreter holds.
func panicValue(x interface{}) interface{} {
	if p, ok := scriptPanicOf(x); ok {
		x = p.value.value
	}
	if v, ok := x.(reflect.Value); ok {
		if !v.IsValid() || !v.CanInterface() {
			return nil
		}
		return v.Interface()
	}
	return x
}

// take returns the recorded panics and forgets them.
func (c *panicChain) take() []PanicLink {
	c.mu.Lock()
	defer c.mu.Unlock()
	l := c.links
	c.links = nil
	return l
}

// GoTrace returns the lines gc prints for the panic p and the panics
// under way when it started: "panic: first [recovered]", then
// "\tpanic: " and the next, down to p's own.
func (p Panic) GoTrace() []string {
	lines := make([]string, 0, len(p.Previous)+1)
	add := func(line string) {
		if len(lines) > 0 {
			line = "\t" + line
		}
		lines = append(lines, line)
	}
	for i, l := range p.Previous {
		line := "panic: " + Panic{Value: l.Value}.Message()
		switch {
		case l.Repanicked && i == len(p.Previous)-1:
			add(line + " [recovered, repanicked]")
			return lines // p is the same panic again
		case l.Recovered:
			line += " [recovered]"
		}
		add(line)
	}
	add("panic: " + p.Message())
	return lines
}
