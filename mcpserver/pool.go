package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"regexp"
	"sort"
	"sync"
	"time"

	"github.com/sbirtools/sbir-kernel/sandbox"
)

// Errors of the session pool. They reach the caller as tool errors with
// the numbers filled in.
var (
	// ErrTooManySessions means Options.MaxSessions sessions are open.
	ErrTooManySessions = errors.New("too many sessions")
	// ErrMemoryBudget means a new session's heap budget would exceed
	// Options.MaxMemory.
	ErrMemoryBudget = errors.New("memory budget exhausted")
	// ErrBadSessionName means a session name is not 1-64 letters, digits,
	// '_', '-' or '.'.
	ErrBadSessionName = errors.New("bad session name")
	// ErrClosed means the server is shutting down.
	ErrClosed = errors.New("the server is shutting down")
)

// DefaultSession is the session run_go uses when the caller names none.
const DefaultSession = "default"

var sessionNameRE = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,64}$`)

// poolKey names a session: the MCP connection that owns it and the name
// the client chose.
type poolKey struct {
	conn any // comparable: the connection's *mcp.ServerSession
	name string
}

// entry is one sandbox session of the pool. ready is closed once start
// finished (sess or err is set); busy counts calls in flight, so that an
// idle sweep never closes a session that is running code.
type entry struct {
	// ctx ends when the session is reset, expires or its connection ends:
	// calls running in it are interrupted.
	ctx    context.Context
	cancel context.CancelFunc

	ready    chan struct{}
	sess     *sandbox.Session
	err      error
	created  time.Time
	lastUsed time.Time
	busy     int
	runs     int
}

// pool holds the sessions of every connection under the caps.
type pool struct {
	opts   sandbox.Options
	max    int
	memory int64
	idle   time.Duration
	logger *slog.Logger
	start  func(ctx context.Context, o sandbox.Options) (*sandbox.Session, error)

	mu      sync.Mutex
	entries map[poolKey]*entry
	closed  bool
	stop    chan struct{}
	done    chan struct{}
}

func newPool(o Options) *pool {
	p := &pool{
		opts:    o.Session,
		max:     o.MaxSessions,
		memory:  o.MaxMemory,
		idle:    o.IdleTimeout,
		logger:  o.Logger,
		start:   sandbox.NewSession,
		entries: map[poolKey]*entry{},
		stop:    make(chan struct{}),
		done:    make(chan struct{}),
	}
	go p.sweep()
	return p
}

// budget is the heap a session may use: the sessions' memory cap counts
// budgets, not current use, so that a session admitted can always grow to
// its limit.
func (p *pool) budget() int64 { return p.opts.Limits.HeapBytes }

// acquire returns the named session of conn, starting it when it does not
// exist. created reports a new session. The caller must release it.
func (p *pool) acquire(ctx context.Context, conn any, name string) (e *entry, created bool, err error) {
	if !sessionNameRE.MatchString(name) {
		return nil, false, fmt.Errorf("%w %q: use 1 to 64 letters, digits, '_', '-' or '.'", ErrBadSessionName, name)
	}
	k := poolKey{conn, name}
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil, false, ErrClosed
	}
	e, ok := p.entries[k]
	if !ok {
		if err := p.admitLocked(conn); err != nil {
			p.mu.Unlock()
			return nil, false, err
		}
		e = &entry{ready: make(chan struct{}), created: time.Now()}
		e.ctx, e.cancel = context.WithCancel(context.Background())
		p.entries[k] = e
		created = true
	}
	e.busy++
	e.lastUsed = time.Now()
	p.mu.Unlock()

	if created {
		// Started outside the lock: a worker takes a while to be ready and
		// other sessions must not wait for it.
		e.sess, e.err = p.start(context.WithoutCancel(ctx), p.opts)
		close(e.ready)
		if e.err != nil {
			p.mu.Lock()
			if p.entries[k] == e {
				delete(p.entries, k)
			}
			p.mu.Unlock()
		} else {
			p.logger.Info("mcp session started", "session", name)
		}
	} else {
		select {
		case <-e.ready:
		case <-ctx.Done():
			p.release(e)
			return nil, false, ctx.Err()
		}
	}
	if e.err != nil {
		p.release(e)
		return nil, false, fmt.Errorf("starting session %q: %w", name, e.err)
	}
	return e, created, nil
}

// admitLocked checks the caps for one more session of conn; p.mu is held.
// What to do next depends on whether conn holds any of the open sessions:
// a client that holds none cannot free one with reset_session.
func (p *pool) admitLocked(conn any) error {
	n := len(p.entries)
	mine := 0
	for k := range p.entries {
		if k.conn == conn {
			mine++
		}
	}
	free := "call reset_session on a session you no longer need"
	if mine == 0 {
		free = "none of them is this connection's, so wait for other clients' sessions to close or ask the server's operator to raise the limit"
	}
	if p.max > 0 && n >= p.max {
		return fmt.Errorf("%w: %d sessions are open (%d of them this connection's), the server's limit (--max-sessions); %s, or wait for idle sessions to expire (after %s without calls)", ErrTooManySessions, n, mine, free, p.idle)
	}
	if p.memory > 0 && int64(n+1)*p.budget() > p.memory {
		return fmt.Errorf("%w: %d sessions (%d of them this connection's) hold %s of heap budget (%s each) and the server's limit is %s (--max-memory); %s", ErrMemoryBudget, n, mine, sizeText(int64(n)*p.budget()), sizeText(p.budget()), sizeText(p.memory), free)
	}
	return nil
}

// release marks the end of a call on e.
func (p *pool) release(e *entry) {
	p.mu.Lock()
	defer p.mu.Unlock()
	e.busy--
	e.runs++
	e.lastUsed = time.Now()
}

// reset closes the named session of conn; it reports whether it existed.
// A call running in it is interrupted.
func (p *pool) reset(conn any, name string) bool {
	k := poolKey{conn, name}
	p.mu.Lock()
	e, ok := p.entries[k]
	delete(p.entries, k)
	p.mu.Unlock()
	if ok {
		p.closeEntry(e)
	}
	return ok
}

// closeConn closes every session of a connection that ended.
func (p *pool) closeConn(conn any) {
	p.mu.Lock()
	var es []*entry
	for k, e := range p.entries {
		if k.conn == conn {
			es = append(es, e)
			delete(p.entries, k)
		}
	}
	p.mu.Unlock()
	p.closeAll(es)
	if len(es) > 0 {
		p.logger.Info("mcp connection ended; its sessions were closed", "sessions", len(es))
	}
}

// names lists the sessions of conn.
func (p *pool) names(conn any) []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []string
	for k := range p.entries {
		if k.conn == conn {
			out = append(out, k.name)
		}
	}
	sort.Strings(out)
	return out
}

// count returns the number of open sessions.
func (p *pool) count() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.entries)
}

// closeEntry stops a session's worker once it has started.
func (p *pool) closeEntry(e *entry) {
	e.cancel()
	<-e.ready
	if e.sess != nil {
		e.sess.Close()
	}
}

// closeAll closes sessions in parallel: each may wait for a cell's
// interrupt grace.
func (p *pool) closeAll(es []*entry) {
	var wg sync.WaitGroup
	for _, e := range es {
		wg.Go(func() { p.closeEntry(e) })
	}
	wg.Wait()
}

// sweep closes sessions idle for longer than p.idle.
func (p *pool) sweep() {
	defer close(p.done)
	if p.idle <= 0 {
		<-p.stop
		return
	}
	every := min(p.idle/4, 30*time.Second)
	t := time.NewTicker(max(every, 10*time.Millisecond))
	defer t.Stop()
	for {
		select {
		case <-p.stop:
			return
		case now := <-t.C:
			p.mu.Lock()
			var es []*entry
			for k, e := range p.entries {
				if e.busy == 0 && now.Sub(e.lastUsed) > p.idle {
					es = append(es, e)
					delete(p.entries, k)
					p.logger.Info("mcp session expired", "session", k.name, "idle", now.Sub(e.lastUsed).Round(time.Second))
				}
			}
			p.mu.Unlock()
			p.closeAll(es)
		}
	}
}

// close stops every session and the sweeper.
func (p *pool) close() {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return
	}
	p.closed = true
	es := make([]*entry, 0, len(p.entries))
	for k, e := range p.entries {
		es = append(es, e)
		delete(p.entries, k)
	}
	p.mu.Unlock()
	close(p.stop)
	<-p.done
	p.closeAll(es)
}

// sizeText formats a byte count as the limits are usually written.
func sizeText(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<28) == 0:
		return fmt.Sprintf("%g GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}
