package interp_test

import (
	"context"
	"errors"
	"testing"

	"github.com/traefik/yaegi/interp"
)

// TestSbirExecuteWithContextCancelled checks sbir patch 131: a cancelled
// ExecuteWithContext returns the context's error, while the execution it
// abandons ends beside it. The execution wrote ExecuteWithContext's named
// results as the cancelled call set and returned them: run with -race,
// the detector reported it (the program here ends as soon as the cancel
// stops its blocked send, so the two meet at every cancel).
func TestSbirExecuteWithContextCancelled(t *testing.T) {
	for k := 0; k < 20; k++ {
		i := interp.New(interp.Options{})
		p, err := i.CompileWithContext(context.Background(), "ch := make(chan int)\nch <- 1")
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		go cancel()
		res, err := i.ExecuteWithContext(ctx, p)
		if !errors.Is(err, context.Canceled) || res.IsValid() {
			t.Fatalf("cancelled: (%v, %v), want (invalid, %v)", res, err, context.Canceled)
		}
	}
}
