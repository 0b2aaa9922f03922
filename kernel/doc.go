// Package kernel implements the Jupyter messaging protocol (version 5.3)
// over ZeroMQ for a kernel whose cells are run by an [Evaluator].
//
// [Serve] binds the five sockets named in a connection file (shell,
// control, stdin, iopub and heartbeat) and answers requests until a
// shutdown_request, a SIGTERM delivered through [Config].Signals, or the
// cancellation of its context:
//
//	conn, err := kernel.ReadConnectionFile(path)
//	if err != nil { ... }
//	sigs := make(chan os.Signal, 1)
//	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
//	res, err := kernel.Serve(ctx, conn, kernel.Config{Evaluator: ev, Signals: sigs})
//
// The kernel owns everything the protocol says about a cell: execution
// counts, execute_input, busy/idle status around every request on shell and
// control, batching of stream output, history, aborting queued cells after
// an error (stop_on_error) and interrupts. The evaluator only runs code,
// completes and inspects.
//
// The protocol core does not depend on ZeroMQ: frames are decoded by the
// pure [Codec] (HMAC-SHA256 signatures, bounds checks) and the handlers talk
// to sockets through a small internal interface, so they are tested with an
// in-memory transport as well as over real sockets.
//
// Two properties of zmq4 v0.17.0 shape the sockets (sockets.go,
// zmqtransport.go): its PUB socket has one unbounded queue and one sender,
// so iopub is published from a bounded queue by its own goroutine with a
// high-water mark on the socket (a stalled subscriber makes messages drop,
// never the shell loop wait); and it writes each frame with separate
// syscalls, so the ROUTER sockets listen through a buffered tcp transport
// flushed once per message.
//
// What the package does not do: CURVE encryption (zmq4 has none), the debug
// adapter protocol (kernel_info reports "debugger": false), and comms (every
// comm_open is answered with comm_close). Frames are size-checked after
// zmq4 has received them: zmq4 itself puts no bound on a frame it reads, so
// the sockets should only be reachable from trusted hosts (Jupyter binds
// them to 127.0.0.1 by default).
package kernel
