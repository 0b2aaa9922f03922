package interp_test

import (
	"bytes"
	"context"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// TestSbirCheckpointRollback checks sbir patch 54: sources compiled one
// after the other and not run leave nothing behind after a rollback (the
// variables, functions, types and methods they declared, the functions
// they declared again), and what was declared before is intact.
func TestSbirCheckpointRollback(t *testing.T) {
	var out bytes.Buffer
	i := interp.New(interp.Options{Stdout: &out})
	if err := i.Use(stdlib.Symbols); err != nil {
		t.Fatal(err)
	}
	for _, src := range []string{`import "fmt"`, "type T struct{ n int }", `func (t T) S() string { return "old" }`, `func f() string { return "f" }`, "x := 1"} {
		if _, err := i.Eval(src); err != nil {
			t.Fatal(err)
		}
	}
	c := i.Checkpoint()
	for _, src := range []string{"y := 2", `func g() string { return "g" }`, `func (t T) S() string { return "new" }`, `func (t T) M() int { return 7 }`, `func f() string { return "f2" }`, "type U int", "x := \"s\""} {
		if _, err := i.Compile(src); err != nil {
			t.Fatalf("Compile(%q): %v", src, err)
		}
	}
	if _, err := i.Compile("var z int = \"not an int\""); err == nil {
		t.Fatal("a wrong declaration compiled")
	}
	i.Rollback(c)
	for _, src := range []string{"y", "g()", "T{}.M()", "U(1)", "z"} {
		if _, err := i.Eval(src); err == nil || !strings.Contains(err.Error(), "undefined") {
			t.Errorf("Eval(%q) after the rollback: %v, want undefined", src, err)
		}
	}
	if _, err := i.Eval("fmt.Println(x, f(), T{}.S())"); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); got != "1 f old\n" {
		t.Errorf("after the rollback: %q, want %q", got, "1 f old\n")
	}
}

// TestSbirCompileWithContext checks that a program compiled with
// CompileWithContext is cancellable where it blocks on a channel, as
// EvalWithContext's code is (Compile generated a send that no cancel
// could end), and that a compiler panic is returned as an error.
func TestSbirCompileWithContext(t *testing.T) {
	i := interp.New(interp.Options{})
	if err := i.Use(stdlib.Symbols); err != nil {
		t.Fatal(err)
	}
	p, err := i.CompileWithContext(context.Background(), "ch := make(chan int)\nch <- 1")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if _, err := i.ExecuteWithContext(ctx, p); err == nil {
		t.Fatal("a blocked send returned without error")
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		buf := make([]byte, 1<<20)
		if !strings.Contains(string(buf[:runtime.Stack(buf, true)]), "ExecuteWithContext.func1") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the cancelled send still blocks its goroutine")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if _, err := i.CompileWithContext(context.Background(), "var q int = \"s\""); err == nil {
		t.Error("a wrong declaration compiled")
	}
}
