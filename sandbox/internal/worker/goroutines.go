package worker

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"sync"

	"github.com/sbirtools/sbir-kernel/sandbox/internal/symbols"
)

// maxGoroutines bounds the goroutines cells may have alive in one worker
// at once (those of earlier cells that are blocked forever included): a
// goroutine bomb fails its cell instead of exhausting the worker.
const maxGoroutines = 10000

// goroutines supervises what cells start with go statements and top-level
// defers (cellprep rewrites them into calls of Go and Defer). Every
// goroutine belongs to the cell that started it; the cell ends only when
// its goroutines have ended, or stops them (see session.finish).
type goroutines struct {
	mu   sync.Mutex
	live int        // alive in this worker, all cells
	cur  *cellGroup // the running cell's
}

// cellGroup is one cell's goroutines and deferred calls.
type cellGroup struct {
	cancel  context.CancelFunc // ends the cell's main flow
	running int
	idle    chan struct{} // closed when running drops to 0
	panic   *goroutinePanic
	defers  []func()
	done    <-chan struct{} // the cell's context's
	stopped int             // goroutines that ended after the cell was interrupted
	// stuck is closed by the deadlock detector when the cell's statements
	// are done and its goroutines are all blocked for good; stuckEnded
	// records that the wait for them ended that way.
	stuck      chan struct{}
	stuckEnded bool
	// panicking is the panic value of the cell's statements while its
	// top-level deferred calls run, which a recover in one of them
	// (_sbir.Recover, cellprep) takes, as in a program's main; recovered
	// records that one did.
	panicking any
	recovered bool
}

// goroutinePanic is a panic that ended one of a cell's goroutines: as in a
// Go program, it ends the whole cell.
type goroutinePanic struct {
	value    any
	frames   []string
	deferred bool // in a top-level deferred call, not a goroutine
}

func (g *goroutines) begin(ctx context.Context, cancel context.CancelFunc) *cellGroup {
	c := &cellGroup{cancel: cancel, done: ctx.Done(), idle: make(chan struct{}), stuck: make(chan struct{})}
	close(c.idle)
	g.mu.Lock()
	g.cur = c
	g.mu.Unlock()
	return c
}

// goStmt starts f as a goroutine of the running cell.
func (g *goroutines) goStmt(f func(), out *cellOutput) {
	g.mu.Lock()
	c := g.cur
	if g.live >= maxGoroutines {
		g.mu.Unlock()
		panic(fmt.Sprintf("too many goroutines: this worker already has %d alive (the limit); a cell's goroutines must end by the end of the cell", maxGoroutines))
	}
	g.live++
	if c.running == 0 {
		c.idle = make(chan struct{})
	}
	c.running++
	g.mu.Unlock()
	go func() {
		defer func() {
			r := recover()
			g.mu.Lock()
			if r != nil && r != errInterrupted && c.panic == nil {
				c.panic = &goroutinePanic{value: r, frames: out.takeFrames()}
				c.cancel()
			}
			select {
			case <-c.done:
				// Ended by the interrupt or the time limit: counted
				// here, since the wait for them may see them gone first.
				c.stopped++
			default:
			}
			g.live--
			c.running--
			if c.running == 0 {
				close(c.idle)
			}
			g.mu.Unlock()
		}()
		f()
	}()
}

// deferStmt records a top-level defer of the running cell.
func (g *goroutines) deferStmt(f func()) {
	g.mu.Lock()
	g.cur.defers = append(g.cur.defers, f)
	g.mu.Unlock()
}

// runDeferred runs one of the cell's top-level deferred calls. A panic in
// it fails the cell as a panic in a goroutine does (the first one is
// reported; the other deferred calls still run, as in Go), and os.Exit
// ends the cell with its status; an interrupt goes on up.
func (c *cellGroup) runDeferred(g *goroutines, f func()) (exited bool) {
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		if r == errInterrupted {
			panic(r)
		}
		_, exited = r.(symbols.ExitError)
		g.mu.Lock()
		if c.panic == nil {
			c.panic = &goroutinePanic{value: r, deferred: true}
		}
		g.mu.Unlock()
	}()
	f()
	return false
}

// state returns the running cell's goroutine count, idle channel and
// panic.
func (c *cellGroup) state(g *goroutines) (running int, idle chan struct{}, p *goroutinePanic) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return c.running, c.idle, c.panic
}

// finish runs the cell's top-level defers (last first), then waits for its
// goroutines until they end or ctx is done. It runs inside an evaluation,
// so that ending ctx stops every interpreted goroutine of the worker.
func (c *cellGroup) finish(ctx context.Context, g *goroutines, program bool, stop func()) {
	g.mu.Lock()
	defers := c.defers
	c.defers = nil
	g.mu.Unlock()
	for i := len(defers) - 1; i >= 0; i-- {
		if exited := c.runDeferred(g, defers[i]); exited {
			break // os.Exit ends the program: no more deferred calls
		}
	}
	running, idle, _ := c.state(g)
	if running == 0 {
		return
	}
	if program {
		// As with go run, the program ends when main returns.
		stop()
		<-ctx.Done()
		return
	}
	select {
	case <-idle:
	case <-ctx.Done():
	case <-c.stuck:
		// No goroutine left can ever run again: as when main returns
		// in a Go program, they end with the cell, without a word.
		g.mu.Lock()
		c.stuckEnded = true
		g.mu.Unlock()
		stop()
		<-ctx.Done()
	}
}

// goroutineExports are the helpers of the go, defer and recover rewrites.
func (g *goroutines) exports(out *cellOutput) map[string]reflect.Value {
	return map[string]reflect.Value{
		"Go":      reflect.ValueOf(func(f any, args ...any) { g.goStmt(bind(f, args), out) }),
		"Defer":   reflect.ValueOf(func(f any, args ...any) { g.deferStmt(bind(f, args)) }),
		"Recover": reflect.ValueOf(g.recoverStmt),
	}
}

// recoverStmt is recover called by a top-level deferred function: while
// the cell's deferred calls run after its statements panicked, it stops
// the panic and returns its value; otherwise it returns nil, as recover
// does when nothing panics.
func (g *goroutines) recoverStmt() any {
	g.mu.Lock()
	defer g.mu.Unlock()
	c := g.cur
	if c == nil || c.panicking == nil {
		return nil
	}
	v := c.panicking
	c.panicking, c.recovered = nil, true
	return v
}

// startPanicking records the panic value of the cell's statements before
// its deferred calls run.
func (g *goroutines) startPanicking(c *cellGroup, v any) {
	g.mu.Lock()
	c.panicking = v
	g.mu.Unlock()
}

// didRecover reports whether a deferred call recovered the cell's panic.
func (g *goroutines) didRecover(c *cellGroup) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	c.panicking = nil
	return c.recovered
}

// bind returns the call of f with args, converted to f's parameter types
// (a constant argument arrives with its default type: go f(1) with
// f(float64)). It panics, as the call would not compile, when f is not a
// function.
func bind(f any, args []any) func() {
	if g, ok := f.(func()); ok && len(args) == 0 {
		return g
	}
	fv := reflect.ValueOf(f)
	if fv.Kind() != reflect.Func {
		panic(fmt.Sprintf("go/defer of a %T, not a function call", f))
	}
	t := fv.Type()
	in := make([]reflect.Value, len(args))
	for i, a := range args {
		var pt reflect.Type
		switch {
		case t.IsVariadic() && i >= t.NumIn()-1:
			pt = t.In(t.NumIn() - 1).Elem()
		case i < t.NumIn():
			pt = t.In(i)
		default:
			panic(fmt.Sprintf("too many arguments in the go/defer call: have %d, want %d", len(args), t.NumIn()))
		}
		if a == nil {
			in[i] = reflect.Zero(pt)
			continue
		}
		v := reflect.ValueOf(a)
		if !v.Type().AssignableTo(pt) && v.Type().ConvertibleTo(pt) {
			v = v.Convert(pt)
		}
		in[i] = v
	}
	return func() { fv.Call(in) }
}

// message formats a goroutine's panic as the cell's error.
func (p *goroutinePanic) message() string {
	where := " (in a goroutine the cell started)"
	if p.deferred {
		where = " (in a deferred call of the cell)"
	}
	return strings.TrimSpace(fmt.Sprint(p.value)) + where
}
