package interp

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// TestSbirNodeWithoutCodeFails checks sbir patch 221: a node in the middle
// of an execution chain that its generator made no code for stops the
// program with an error, instead of ending the function there as if it
// had returned. The program's operation is given a generator that makes
// nothing, as the arithmetic generators did for an operation typed by an
// interface (`var s fmt.Stringer = 1500 * time.Millisecond` before sbir
// patch 220): without the patch the program printed "before" and nothing
// more, and Execute reported success.
func TestSbirNodeWithoutCodeFails(t *testing.T) {
	var out, stderr bytes.Buffer
	i := New(Options{Stdout: &out, Stderr: &stderr})
	prog, err := i.Compile(`package main

func main() {
	println("unused")
}

func run(k int) {
	print("before ")
	x := k * 3
	print("after ", x)
}

func init() { run(2) }
`)
	if err != nil {
		t.Fatal(err)
	}
	var op *node
	prog.root.Walk(func(n *node) bool {
		if n.kind == binaryExpr && n.action == aMul {
			op = n
		}
		return true
	}, nil)
	if op == nil {
		t.Fatal("the program's k * 3 was not found")
	}
	op.gen = func(*node) {} // makes no code, as for an operation it has no case for
	_, err = i.Execute(prog)
	var p Panic
	if !errors.As(err, &p) {
		t.Fatalf("Execute: %v (output %q), want a panic: the chain ended silently", err, stderr.String())
	}
	var nc noCodeError
	if e, ok := p.Value.(error); !ok || !errors.As(e, &nc) {
		t.Fatalf("panic value %v, want a noCodeError", p.Value)
	}
	if msg := nc.Error(); !strings.Contains(msg, "no code for binaryExpr * of type int") {
		t.Errorf("message %q does not name the node", msg)
	}
	// print writes to stderr, where the panic's frames follow.
	if got := stderr.String(); !strings.HasPrefix(got, "before ") || strings.Contains(got, "after") {
		t.Errorf("output %q, want \"before \" and no more: the program stops at the node", got)
	}
}

// TestSbirNodeEndingChainNeedsNoCode checks that a node that ends its
// chain (a return) may have no code: patch 221 leaves it alone.
func TestSbirNodeEndingChainNeedsNoCode(t *testing.T) {
	var out bytes.Buffer
	i := New(Options{Stdout: &out})
	if _, err := i.Eval(`func twice(k int) int { return k * 2 }`); err != nil {
		t.Fatal(err)
	}
	v, err := i.Eval(`twice(21)`)
	if err != nil || v.Int() != 42 {
		t.Fatalf("twice(21) = %v, %v; want 42", v, err)
	}
}
