package sandbox

import (
	"context"
	"testing"
)

func BenchmarkEvalShow(b *testing.B) {
	out := newCellOutput(func(*message) error { return nil }, 1<<20)
	s, err := newInterpreter(out, nil); if err != nil { b.Fatal(err) }
	for b.Loop() {
		s.in.EvalWithContext(context.Background(), "_sbirShow(\n1 + 1,\n)")
	}
}
func BenchmarkEvalPlain(b *testing.B) {
	out := newCellOutput(func(*message) error { return nil }, 1<<20)
	s, err := newInterpreter(out, nil); if err != nil { b.Fatal(err) }
	for b.Loop() {
		s.in.EvalWithContext(context.Background(), "1 + 1")
	}
}
func BenchmarkPrepare(b *testing.B) {
	st := newSessionState()
	for b.Loop() {
		prepare("1 + 1", st)
	}
}
func BenchmarkEvalShowCompiled(b *testing.B) {
	out := newCellOutput(func(*message) error { return nil }, 1<<20)
	s, err := newInterpreter(out, nil); if err != nil { b.Fatal(err) }
	for b.Loop() {
		s.in.EvalWithContext(context.Background(), "_sbir.Show(\n1 + 1,\n)")
	}
}
func BenchmarkRoundTrip(b *testing.B) {
	s := newTestSession(b, nil)
	for b.Loop() {
		s.Complete(context.Background(), "", 0)
	}
}
func BenchmarkRunDecl(b *testing.B) {
	s := newTestSession(b, nil)
	for b.Loop() {
		s.Run(context.Background(), "x := 1", nil)
	}
}
