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
// Requests are bounded before the evaluator sees them: code over
// [Config].MaxCodeBytes is refused for execute, complete, inspect and
// is_complete alike (and refused cells stay out of the bounded history);
// user_expressions share one deadline and one interrupt. Signed requests
// are checked against replay by signature and header.date (replay.go), a
// defence that never forgets: a captured request is refused however many
// messages follow it.
//
// The sockets use a patched copy of zmq4 v0.17.0 (third_party/zmq4, see
// its PATCHES.md) that bounds what a peer can make the kernel hold before
// any message is authenticated: every length is checked before allocation
// (MaxFrameBytes plus an envelope on shell, control and stdin, 64 KiB on
// heartbeat and iopub), the connections of shell, control and stdin
// together hold at most four such messages before the kernel receives
// them, handshakes have a deadline, each socket holds at most 1024
// connections, and a peer that stops reading is disconnected after 10 s
// instead of blocking the socket. Received requests wait for the shell in
// a queue bounded in number and bytes, and no request starts while iopub's
// queue is full. zmq4's PUB socket has one queue and
// one sender; iopub sets it to wait at its high-water mark instead of
// dropping, and the kernel bounds its own iopub queue (iopub.go), so output
// is throttled and status messages are never lost.
//
// What the package does not do: CURVE encryption (zmq4 has none), the debug
// adapter protocol (kernel_info reports "debugger": false), and comms (every
// comm_open is answered with comm_close). Anyone who can reach the ports can
// subscribe to iopub (as with every Jupyter kernel): keep them on 127.0.0.1
// (Jupyter's default) or a trusted network.
package kernel
