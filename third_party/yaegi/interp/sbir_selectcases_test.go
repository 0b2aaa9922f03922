package interp_test

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// TestSbirSelectRunsOnItsOwnCases checks sbir patch 142: goroutines
// running the same select statement at once each select on their own
// channels. Four workers, each with a channel of its own, run one
// function whose select receives from it; each answer must come back
// from the worker it was sent to. Without the patch the statement's
// cases were one slice the goroutines wrote their channels into: a
// worker received another's value, or waited on another's channel for
// good (the program deadlocked, and the test's deadline cancels it).
func TestSbirSelectRunsOnItsOwnCases(t *testing.T) {
	const src = `package main

import (
	"fmt"
	"sync"
)

func worker(id int, in chan int, out chan [2]int, wg *sync.WaitGroup) {
	defer wg.Done()
	for {
		select {
		case v, ok := <-in:
			if !ok {
				return
			}
			out <- [2]int{id, v}
		}
	}
}

func main() {
	const W, N = 8, 20000
	ins := make([]chan int, W)
	out := make(chan [2]int, W*N)
	var wg sync.WaitGroup
	for i := range ins {
		ins[i] = make(chan int)
		wg.Add(1)
		go worker(i, ins[i], out, &wg)
	}
	for n := 0; n < N; n++ {
		for i := range ins {
			ins[i] <- i
		}
	}
	for i := range ins {
		close(ins[i])
	}
	wg.Wait()
	close(out)
	bad := 0
	for r := range out {
		if r[0] != r[1] {
			bad++
		}
	}
	fmt.Println("mismatched", bad)
}
`
	var out bytes.Buffer
	i := interp.New(interp.Options{Stdout: &out})
	if err := i.Use(stdlib.Symbols); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(slowFactor())*time.Minute)
	defer cancel()
	if _, err := i.EvalWithContext(ctx, src); err != nil {
		t.Fatalf("%v\noutput so far:\n%s", err, out.String())
	}
	if got, want := out.String(), "mismatched 0\n"; got != want {
		t.Errorf("output %q, want %q (go run's)", got, want)
	}
}
