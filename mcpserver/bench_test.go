package mcpserver

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sbirtools/sbir-kernel/sandbox"
)

// The server-side cost of a tool call is BenchmarkToolCallWarm minus
// BenchmarkSessionRunWarm: the same cell on a warm session, once through the
// SDK's in-memory transport (client encode, JSON-RPC, argument validation,
// result conversion and output-schema validation, client decode) and once
// by calling sandbox.Session.Run directly. Target: at most 1 ms.

const benchCell = `award_data.Where("Award Year", ">=", 2015).Count()`

func BenchmarkToolCallWarm(b *testing.B) {
	s, cs := connect(b, nil)
	overhead := measureOverhead(s)
	args := map[string]any{"code": benchCell, "session": "bench"}
	if out, _ := runGo(b, cs, args); !out.Success {
		b.Fatal(out.Error)
	}
	ctx := context.Background()
	for b.Loop() {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run_go", Arguments: args})
		if err != nil || res.IsError {
			b.Fatal(err, res)
		}
	}
	overhead(b)
}

// measureOverhead times every tools/call inside the server (from the
// decoded request to the encoded-ready result) and subtracts the
// sandbox.Session.Run inside it; the returned function reports the mean as
// the server-overhead-ns/op metric.
func measureOverhead(s *Server) func(*testing.B) {
	var mu sync.Mutex
	var total, run time.Duration
	var n int
	s.runTimed = func(d time.Duration) { mu.Lock(); run += d; mu.Unlock() }
	s.mcp.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method != "tools/call" {
				return next(ctx, method, req)
			}
			t0 := time.Now()
			r, err := next(ctx, method, req)
			mu.Lock()
			total += time.Since(t0)
			n++
			mu.Unlock()
			return r, err
		}
	})
	return func(b *testing.B) {
		mu.Lock()
		defer mu.Unlock()
		if n > 0 {
			b.ReportMetric(float64((total-run).Nanoseconds())/float64(n), "server-overhead-ns/op")
		}
	}
}

func BenchmarkSessionRunWarm(b *testing.B) {
	o := testOptions(nil)
	s, err := sandbox.NewSession(context.Background(), o.Session)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	for b.Loop() {
		res, err := s.Run(ctx, benchCell, nil)
		if err != nil || !res.Success {
			b.Fatal(err, res)
		}
	}
}

// BenchmarkToolCallFrame adds a frame's conversion to records.
func BenchmarkToolCallFrame(b *testing.B) {
	s, cs := connect(b, nil)
	overhead := measureOverhead(s)
	args := map[string]any{"code": `award_data.Head(20).Select("Company", "Agency", "Award Amount", "Award Year")`, "session": "bench"}
	runGo(b, cs, args)
	ctx := context.Background()
	for b.Loop() {
		if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run_go", Arguments: args}); err != nil {
			b.Fatal(err)
		}
	}
	overhead(b)
}

func BenchmarkSessionRunFrame(b *testing.B) {
	o := testOptions(nil)
	s, err := sandbox.NewSession(context.Background(), o.Session)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	for b.Loop() {
		if _, err := s.Run(ctx, `award_data.Head(20).Select("Company", "Agency", "Award Amount", "Award Year")`, nil); err != nil {
			b.Fatal(err)
		}
	}
}
