package kernel

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
)

// Implementation is the kernel_info implementation name.
const Implementation = "sbir-kernel"

// Config configures [Serve]. Only Evaluator is required.
type Config struct {
	// Evaluator runs cells. Serve closes it when it returns.
	Evaluator Evaluator
	// Banner is kernel_info's banner: what the kernel is, its data, its limits.
	Banner string
	// ImplementationVersion is the kernel's version; default: the module
	// version from the build information, or "devel".
	ImplementationVersion string
	// LanguageVersion is language_info.version; default: the Go version
	// the kernel was built with.
	LanguageVersion string
	// HelpLinks are shown in the client's Help menu.
	HelpLinks []HelpLink
	// Logger receives the kernel's own logs (bad messages, dropped
	// output, shutdown); nil discards them.
	Logger *slog.Logger
	// MaxFrameBytes bounds each received frame; zero means
	// DefaultMaxFrameBytes. Larger messages are logged and dropped.
	MaxFrameBytes int
	// MaxCodeBytes bounds the code of execute, complete, inspect and
	// is_complete requests (user_expressions together count as one
	// cell): larger code is refused before the evaluator sees it, and a
	// refused cell is not kept in the history. Zero means
	// DefaultMaxCodeBytes; set it to the evaluator's own limit.
	MaxCodeBytes int
	// UserExpressionsTimeout bounds the user_expressions of one
	// execute_request together: those not done by then fail with
	// ErrorTimeout. Zero means DefaultUserExpressionsTimeout.
	UserExpressionsTimeout time.Duration
	// ReplayWindow is how far from the kernel's clock a signed request's
	// header.date may be; see replay.go. Zero means DefaultReplayWindow.
	ReplayWindow time.Duration
	// InterruptWait bounds how long interrupt_reply waits for the
	// interrupted cell to publish its error; 0 means 2.5 s.
	InterruptWait time.Duration
	// Signals, when set, delivers the process's signals: os.Interrupt
	// (SIGINT) interrupts the running cell and SIGTERM shuts the kernel
	// down. Wire it with signal.Notify(ch, os.Interrupt, syscall.SIGTERM),
	// which also stops these signals from killing the process.
	Signals <-chan os.Signal
	// Ready, when set, is called once every socket is bound, with the
	// ports actually bound (a tcp port of 0 in the connection picks a free
	// one).
	Ready func(ConnectionInfo)
	// IOPubStallTimeout is how long an iopub subscriber may read nothing
	// before it is disconnected (and the disconnect logged): one stalled
	// subscriber holds up the output of every other one. A disconnected
	// client reconnects on its own but misses what was sent meanwhile.
	// Raise it when clients run on a loaded machine that may not schedule
	// them for seconds. Zero means DefaultIOPubStallTimeout.
	IOPubStallTimeout time.Duration
	// CloseTimeout bounds how long Serve waits for Evaluator.Close on
	// shutdown; zero means 500 ms, so Serve returns within a second of a
	// shutdown_request.
	CloseTimeout time.Duration
}

// Shutdown says why [Serve] returned.
type Shutdown struct {
	// Restart is the restart flag of the shutdown_request; the client
	// starts a new kernel process when it is true.
	Restart bool
	// Reason is "shutdown_request", "SIGTERM" or "context canceled".
	Reason string
}

// Serve runs a kernel on the sockets described by conn until a
// shutdown_request arrives (on control, or on shell in its deprecated
// form), SIGTERM arrives on cfg.Signals, or ctx is cancelled. Bad messages
// never stop it: they are logged and dropped. On the way out it interrupts
// the running cell, closes the evaluator (waiting at most
// cfg.CloseTimeout), flushes iopub and closes the sockets.
//
// The error is non-nil only when the kernel could not start (bad
// configuration, a port in use) or the evaluator failed to close.
func Serve(ctx context.Context, conn ConnectionInfo, cfg Config) (Shutdown, error) {
	if cfg.Evaluator == nil {
		return Shutdown{}, errors.New("kernel: Config.Evaluator is nil")
	}
	if err := conn.validate(); err != nil {
		return Shutdown{}, fmt.Errorf("kernel: connection: %w", err)
	}
	sockCtx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// Stalled subscribers are logged from zmq4's sending goroutine, so
	// their log outlives no socket: it is closed after Serve's sockets.
	stalls := newPeerLog(cfg.logger(), peerLogWindow)
	defer stalls.close()
	t, bound, err := listen(sockCtx, conn, socketOptions{
		maxFrame:   cfg.maxFrameBytes(),
		iopubStall: cfg.iopubStallTimeout(),
		onStall: func(peer net.Addr) {
			stalls.warn(eventStalled, "iopub", nil, "peer", peer.String(), "stall_timeout", cfg.iopubStallTimeout().String())
		},
	})
	if err != nil {
		return Shutdown{}, fmt.Errorf("kernel: %w", err)
	}
	if cfg.Ready != nil {
		cfg.Ready(bound)
	}
	return serve(ctx, t, []byte(conn.Key), cfg)
}

// maxFrameBytes is MaxFrameBytes or its default.
func (c Config) maxFrameBytes() int {
	if c.MaxFrameBytes <= 0 {
		return DefaultMaxFrameBytes
	}
	return c.MaxFrameBytes
}

// iopubStallTimeout is IOPubStallTimeout or its default.
func (c Config) iopubStallTimeout() time.Duration {
	if c.IOPubStallTimeout <= 0 {
		return DefaultIOPubStallTimeout
	}
	return c.IOPubStallTimeout
}

// logger is Logger, or one that discards.
func (c Config) logger() *slog.Logger {
	if c.Logger == nil {
		return slog.New(slog.DiscardHandler)
	}
	return c.Logger
}

// server is the protocol core of one running kernel.
type server struct {
	cfg      Config
	ev       Evaluator
	codec    Codec
	replay   *replayGuard
	session  string
	log      *slog.Logger
	peers    *peerLog // what peers without the key make the kernel log
	t        transport
	pub      *publisher
	handlers map[string]handler
	info     kernelInfoContent
	hist     history

	ctx    context.Context
	shellQ chan *Message
	// shellBytes bounds the bytes of the requests in shellQ.
	shellBytes *byteBudget
	stdinQ     chan *Message
	stop       chan Shutdown

	// count is the execution count; abortN is how many queued shell
	// messages remain to be checked for abortion after a failed cell.
	// Both belong to the shell goroutine.
	count  int
	abortN int

	runMu     sync.Mutex
	cancelRun context.CancelFunc
	// cellDone is closed once the running execute request has published
	// its outputs (nil when no cell runs); interrupt_reply waits for it.
	cellDone chan struct{}

	stdinMu sync.Mutex // one input_request at a time

	pendingShutdown atomic.Pointer[Shutdown]
	// stopping is set once Serve is shutting down: no new cell starts.
	stopping atomic.Bool
}

// shellQueueLen bounds the decoded shell requests waiting to run, and
// shellQueueBytes their size: while a cell runs the kernel keeps reading
// requests, and 1024 of up to MaxFrameBytes each could have held 64 GiB.
// Past the bound, requests wait in the client's socket (TCP backpressure).
// A request larger than the bound is queued alone.
const (
	shellQueueLen   = 1024
	shellQueueBytes = 64 << 20
)

// serve runs the protocol core on t until shutdown; it owns and closes t.
func serve(ctx context.Context, t transport, key []byte, cfg Config) (Shutdown, error) {
	log := cfg.logger()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s := &server{
		cfg:        cfg,
		ev:         cfg.Evaluator,
		codec:      Codec{Key: key, MaxFrameBytes: cfg.MaxFrameBytes, pool: newHMACPool(key)},
		replay:     newReplayGuard(time.Now(), cfg.replayWindow(), maxReplayEntries),
		session:    uuid.NewString(),
		log:        log,
		peers:      newPeerLog(log, peerLogWindow),
		t:          t,
		handlers:   newHandlers(),
		ctx:        ctx,
		shellQ:     make(chan *Message, shellQueueLen),
		shellBytes: newByteBudget(shellQueueBytes),
		stdinQ:     make(chan *Message, 4),
		stop:       make(chan Shutdown, 1),
	}
	s.info = s.kernelInfo()
	s.pub = newPublisher(t.iopub, s.codec, s.session, log)
	s.pub.status("starting", nil)

	var wg sync.WaitGroup
	for _, f := range []func(){
		s.heartbeatLoop,
		func() { s.readLoop("shell", t.shell, s.shellQ, s.shellBytes) },
		func() { s.readLoop("stdin", t.stdin, s.stdinQ, nil) },
		s.shellLoop,
		s.controlLoop,
	} {
		wg.Add(1)
		go func() { defer wg.Done(); f() }()
	}
	if cfg.Signals != nil {
		go s.signalLoop(ctx, cfg.Signals)
	}
	log.Info("kernel started", "session", s.session)

	var res Shutdown
	select {
	case <-ctx.Done():
		res = Shutdown{Reason: "context canceled"}
	case res = <-s.stop:
	}
	log.Info("kernel shutting down", "reason", res.Reason, "restart", res.Restart)
	s.stopping.Store(true)
	s.interrupt()
	closeErr := s.closeEvaluator()
	s.pub.close(150 * time.Millisecond)
	cancel()
	s.shellBytes.close()
	t.close()
	// The shell goroutine may still be inside an Execute that ignores its
	// context; the other loops end with their sockets.
	waitTimeout(&wg, 100*time.Millisecond)
	s.peers.close()
	if closeErr != nil {
		return res, fmt.Errorf("kernel: close evaluator: %w", closeErr)
	}
	return res, nil
}

func waitTimeout(wg *sync.WaitGroup, d time.Duration) {
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(d):
	}
}

// closeEvaluator closes the evaluator, waiting at most cfg.CloseTimeout.
func (s *server) closeEvaluator() error {
	d := s.cfg.CloseTimeout
	if d <= 0 {
		d = 500 * time.Millisecond
	}
	errc := make(chan error, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				errc <- fmt.Errorf("panic: %v", p)
			}
		}()
		errc <- s.ev.Close()
	}()
	select {
	case err := <-errc:
		return err
	case <-time.After(d):
		s.log.Warn("evaluator did not close in time; exiting anyway", "timeout", d)
		return nil
	}
}

// requestStop asks Serve to return with res (the first request wins).
func (s *server) requestStop(res Shutdown) {
	select {
	case s.stop <- res:
	default:
	}
}

// interrupt cancels the running cell, if any. The returned channel is
// closed when that cell has published its outputs (nil when none runs).
func (s *server) interrupt() <-chan struct{} {
	s.runMu.Lock()
	defer s.runMu.Unlock()
	if s.cancelRun != nil {
		s.cancelRun()
	}
	return s.cellDone
}
