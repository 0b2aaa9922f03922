package supervise

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"

	"github.com/sbirtools/sbir-kernel/sandbox/internal/wire"
	"github.com/traefik/yaegi/interp"
)

// ErrInterrupted is the panic value of a blocked call (time.Sleep, a read
// of stdin) that the cell's interrupt ended: it unwinds the cell's code,
// and is no panic of the cell's.
var ErrInterrupted = errors.New("interrupted")

// maxGoroutines bounds the goroutines cells may have alive in one worker
// at once (see wire.MaxGoroutines).
const maxGoroutines = wire.MaxGoroutines

// Goroutines supervises what cells start with go statements and top-level
// defers (cellprep rewrites them into calls of Go and Defer). Every
// goroutine belongs to the cell that started it; the cell ends only when
// its goroutines have ended, or stops them (see Cell.Finish). The zero
// value is ready to use.
type Goroutines struct {
	mu   sync.Mutex
	live int   // alive in this worker, all cells
	cur  *Cell // the running cell's
	// started counts the goroutines ever started: a cell starting them
	// is making progress, whatever CPU it gets (see WatchDeadlock).
	started uint64
	// slot is the interpreter's record of the panic under way, which
	// the builtin recover takes in a function a top-level defer calls
	// directly (see SetPanicSlot); nil when there is none.
	slot PanicSlot
}

// PanicSlot is where the interpreter keeps the panic of the statements at
// its top level, which recover takes in a function called directly from
// there (yaegi patch 87: Interpreter.RootPanic and SetRootPanic).
type PanicSlot interface {
	RootPanic() any
	SetRootPanic(v any)
}

// SetPanicSlot makes the cells' top-level deferred calls share the panic
// under way with the interpreter, so that `defer handle()` with a
// recover in the declared function handle stops the cell's panic, as a
// deferred function literal's recover (Recover) does.
func (g *Goroutines) SetPanicSlot(s PanicSlot) {
	g.mu.Lock()
	g.slot = s
	g.mu.Unlock()
}

// Cell is one cell's goroutines and deferred calls.
type Cell struct {
	g       *Goroutines
	cancel  context.CancelFunc // ends the cell's main flow
	running int
	idle    chan struct{} // closed when running drops to 0
	panic   *Panic
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
	// (Recover, the helper cellprep makes it) takes, as in a program's
	// main; recovered records that one did.
	panicking any
	recovered bool
}

// Panic is a panic that ended one of a cell's goroutines or deferred
// calls: as in a Go program, it ends the whole cell.
type Panic struct {
	// Value is the panic's value.
	Value any
	// Frames are the cell's frames of the panic, innermost last.
	Frames []string
	// Previous is the panic of the cell's statements when a top-level
	// deferred call panicked while it was under way (recovered by that
	// call or not): gc prints it before this one.
	Previous []PreviousPanic
	deferred bool // in a top-level deferred call, not a goroutine
}

// PreviousPanic is a panic under way when a later one started.
type PreviousPanic struct {
	Value     any
	Recovered bool // the deferred call that panicked had recovered it
}

// Begin starts the supervision of a cell whose context is ctx; cancel ends
// its main flow (a goroutine's panic does).
func (g *Goroutines) Begin(ctx context.Context, cancel context.CancelFunc) *Cell {
	c := &Cell{g: g, cancel: cancel, done: ctx.Done(), idle: make(chan struct{}), stuck: make(chan struct{})}
	close(c.idle)
	g.mu.Lock()
	g.cur = c
	g.mu.Unlock()
	return c
}

// Go starts f as a goroutine of the running cell. frames returns the
// cell's frames of a panic that ends it (the interpreter writes them to
// the cell's trace output).
func (g *Goroutines) Go(f func(), frames func() []string) {
	g.mu.Lock()
	c := g.cur
	if c == nil {
		g.mu.Unlock()
		panic("go statement outside a cell: in this sandbox goroutines start only while a cell runs")
	}
	if g.live >= maxGoroutines {
		g.mu.Unlock()
		panic(fmt.Sprintf("too many goroutines: this worker already has %d alive (the limit); a cell's goroutines must end by the end of the cell", maxGoroutines))
	}
	g.live++
	g.started++
	if c.running == 0 {
		c.idle = make(chan struct{})
	}
	c.running++
	g.mu.Unlock()
	go func() {
		defer func() {
			r := recover()
			g.mu.Lock()
			if r != nil && r != ErrInterrupted && c.panic == nil {
				c.panic = &Panic{Value: r, Frames: frames()}
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

// Started returns how many goroutines cells have started in this worker.
func (g *Goroutines) Started() uint64 {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.started
}

// Defer records a top-level defer of the running cell.
func (g *Goroutines) Defer(f func()) {
	g.mu.Lock()
	g.cur.defers = append(g.cur.defers, f)
	g.mu.Unlock()
}

// runDeferred runs one of the cell's top-level deferred calls. A panic in
// it fails the cell as a panic in a goroutine does, unless a later
// deferred call recovers it: as in Go, the other deferred calls still
// run, and the new panic replaces the one under way (which the report
// prints before it). os.Exit ends the cell with its status; an
// interrupt goes on up.
func (c *Cell) runDeferred(f func()) (exited bool) {
	c.g.mu.Lock()
	before := c.panicking // the panic under way, if any
	var chain []PreviousPanic
	if c.panic != nil && c.panic.deferred {
		chain = c.panic.Previous
	}
	slot := c.g.slot
	c.g.mu.Unlock()
	defer func() {
		r := recover()
		if r == nil {
			c.tookFromSlot(slot, before)
			return
		}
		if r == ErrInterrupted {
			panic(r)
		}
		_, exited = r.(interface{ ExitStatus() int }) // os.Exit's panic
		c.g.mu.Lock()
		defer c.g.mu.Unlock()
		if c.panic != nil && !c.panic.deferred {
			return // a goroutine's panic ended the cell first
		}
		c.panic = &Panic{Value: r, deferred: true}
		if exited {
			return
		}
		// As in gc, the new panic replaces the one under way (a later
		// deferred call recovers the new one), which is printed before it.
		if before != nil {
			c.panic.Previous = append(chain[:len(chain):len(chain)], PreviousPanic{Value: before, Recovered: c.panicking == nil})
		}
		c.panicking = interp.Panic{Value: r}.Recovered() // what recover gives the cell
		if slot != nil {
			slot.SetRootPanic(r)
		}
	}()
	f()
	return false
}

// tookFromSlot records that the builtin recover, in the function a
// top-level deferred call ran, took the panic under way (before) from the
// interpreter's slot: the cell's panic is stopped, as by Recover.
func (c *Cell) tookFromSlot(slot PanicSlot, before any) {
	if slot == nil || before == nil || slot.RootPanic() != nil {
		return
	}
	c.g.mu.Lock()
	defer c.g.mu.Unlock()
	if c.panicking == nil {
		return // Recover took it
	}
	c.panicking, c.recovered = nil, true
	if c.panic != nil && c.panic.deferred {
		c.panic = nil // the panic of an earlier deferred call
	}
}

// State returns the cell's count of running goroutines, a channel closed
// when it drops to zero, and the panic that ended one of them (nil if
// none did).
func (c *Cell) State() (running int, idle chan struct{}, p *Panic) {
	c.g.mu.Lock()
	defer c.g.mu.Unlock()
	return c.running, c.idle, c.panic
}

// Defers returns how many top-level deferred calls the cell has pending.
func (c *Cell) Defers() int {
	c.g.mu.Lock()
	defer c.g.mu.Unlock()
	return len(c.defers)
}

// DropDefers forgets the cell's deferred calls: a program that exits runs
// none.
func (c *Cell) DropDefers() {
	c.g.mu.Lock()
	c.defers = nil
	c.g.mu.Unlock()
}

// Stuck is closed by the deadlock detector (WatchDeadlock) when the
// cell's statements are done and its goroutines are all blocked for good.
func (c *Cell) Stuck() chan<- struct{} { return c.stuck }

// Stopped returns how many of the cell's goroutines ended after its
// interrupt, and whether the wait for them ended because they were stuck.
func (c *Cell) Stopped() (n int, stuckEnded bool) {
	c.g.mu.Lock()
	defer c.g.mu.Unlock()
	return c.stopped, c.stuckEnded
}

// Finish runs the cell's top-level defers (last first), then waits for its
// goroutines until they end or ctx is done; a program (program is true)
// ends when main returns, stopping them (stop ends ctx). It runs inside an
// evaluation, so that ending ctx stops every interpreted goroutine of the
// worker.
func (c *Cell) Finish(ctx context.Context, program bool, stop func()) {
	g := c.g
	g.mu.Lock()
	defers := c.defers
	c.defers = nil
	g.mu.Unlock()
	for i := len(defers) - 1; i >= 0; i-- {
		if exited := c.runDeferred(defers[i]); exited {
			break // os.Exit ends the program: no more deferred calls
		}
	}
	running, idle, _ := c.State()
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

// Exports are the helpers the go, defer and recover rewrites call (Go,
// Defer and Recover of the helper package); frames is as for Go.
func (g *Goroutines) Exports(frames func() []string) map[string]reflect.Value {
	return map[string]reflect.Value{
		"Go":      reflect.ValueOf(func(f any, args ...any) { g.Go(bind(f, args), frames) }),
		"Defer":   reflect.ValueOf(func(f any, args ...any) { g.Defer(bind(f, args)) }),
		"Recover": reflect.ValueOf(g.Recover),
	}
}

// Recover is recover called by a top-level deferred function: while the
// cell's deferred calls run after its statements panicked (StartPanicking),
// it stops the panic and returns its value; otherwise it returns nil, as
// recover does when nothing panics.
func (g *Goroutines) Recover() any {
	g.mu.Lock()
	defer g.mu.Unlock()
	c := g.cur
	if c == nil || c.panicking == nil {
		return nil
	}
	v := c.panicking
	c.panicking, c.recovered = nil, true
	if c.panic != nil && c.panic.deferred {
		c.panic = nil // the panic of an earlier deferred call
	}
	if g.slot != nil {
		g.slot.SetRootPanic(nil) // taken: no later recover sees it
	}
	return v
}

// StartPanicking records the panic of the cell's statements, before its
// deferred calls run (Finish), for Recover: v is what recover returns,
// raw the value panic was called with (for the interpreter's slot).
func (c *Cell) StartPanicking(v, raw any) {
	c.g.mu.Lock()
	c.panicking = v
	slot := c.g.slot
	c.g.mu.Unlock()
	if slot != nil {
		slot.SetRootPanic(raw)
	}
}

// Recovered reports whether a deferred call recovered the panic of the
// cell's statements.
func (c *Cell) Recovered() bool {
	c.g.mu.Lock()
	defer c.g.mu.Unlock()
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

// Message formats the panic as the cell's error.
func (p *Panic) Message() string {
	where := " (in a goroutine the cell started)"
	if p.deferred {
		where = " (in a deferred call of the cell)"
	}
	return strings.TrimSpace(fmt.Sprint(p.Value)) + where
}
