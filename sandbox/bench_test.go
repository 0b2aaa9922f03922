package sandbox

import (
	"context"
	"testing"
)

// BenchmarkWorkerReady measures a fresh worker: start, isolation layers,
// interpreter with every allowed package imported, data mapped.
func BenchmarkWorkerReady(b *testing.B) {
	opts := Options{Limits: DefaultLimits(), DataPath: testDataPath}
	for b.Loop() {
		s, err := NewSession(context.Background(), opts)
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		s.Close()
		b.StartTimer()
	}
}

// BenchmarkRunTrivial measures one trivial cell through Session.Run.
func BenchmarkRunTrivial(b *testing.B) {
	s := newTestSession(b, nil)
	for b.Loop() {
		r, err := s.Run(context.Background(), "1 + 1", nil)
		if err != nil || !r.Success {
			b.Fatal(err, r.ErrorMessage)
		}
	}
}

// BenchmarkRunPrint measures a cell that prints.
func BenchmarkRunPrint(b *testing.B) {
	s := newTestSession(b, nil)
	for b.Loop() {
		r, err := s.Run(context.Background(), `fmt.Println("hello")`, nil)
		if err != nil || !r.Success {
			b.Fatal(err, r.ErrorMessage)
		}
	}
}
