package kernel

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"slices"
	"time"

	"github.com/go-zeromq/zmq4"
)

// socket is what the protocol core needs from a ZeroMQ socket. The real
// implementation wraps zmq4; tests use an in-memory fake.
type socket interface {
	// Recv returns the frames of the next message. Once the socket is
	// closed it fails with an error wrapping net.ErrClosed; other errors
	// concern one message (a peer broke the protocol) and the socket
	// keeps receiving.
	Recv() ([][]byte, error)
	// Send sends one multipart message.
	Send(frames [][]byte) error
	Close() error
}

// freeingSender is implemented by a socket that can say when a sent
// message's frames are free again (zmq4's PUB, patch 8). The publisher
// then reuses the buffers of large stream messages: allocating ~1 MiB of
// content per 1 MiB cell made the collector run every other cell.
type freeingSender interface {
	// SendFreeing is Send, and calls written once the socket no longer
	// uses frames; possibly never (a socket closed first), in which case
	// they are simply garbage.
	SendFreeing(frames [][]byte, written func()) error
}

// trustingSocket is implemented by a socket that can tell its peers apart
// (zmq4's ROUTER with WithTrustedPeers, patch 11). RecvTrust is Recv, and
// returns trust, which marks the connection the message came on as one
// with the key: the kernel calls it once the message's signature
// verified, and from then on peers without the key can neither crowd out
// that connection's messages nor take its place.
type trustingSocket interface {
	RecvTrust() (frames [][]byte, trust func(), err error)
}

// transport holds the five sockets of a kernel.
type transport struct {
	shell, control, stdin, iopub, heartbeat socket
}

func (t transport) close() {
	for _, s := range []socket{t.shell, t.control, t.stdin, t.iopub, t.heartbeat} {
		if s != nil {
			s.Close()
		}
	}
}

// zmqSocket adapts a zmq4 socket.
type zmqSocket struct{ s zmq4.Socket }

func (z zmqSocket) Recv() ([][]byte, error) {
	frames, _, err := z.RecvTrust()
	return frames, err
}

// RecvTrust implements trustingSocket. (Trust does nothing for sockets
// other than a ROUTER.)
func (z zmqSocket) RecvTrust() ([][]byte, func(), error) {
	m, err := z.s.Recv()
	if err != nil {
		if errors.Is(err, context.Canceled) {
			// zmq4 reports its socket's context, cancelled by Close.
			return nil, nil, fmt.Errorf("%w: %w", net.ErrClosed, err)
		}
		return nil, nil, err
	}
	return m.Frames, m.Trust, nil
}

func (z zmqSocket) Send(frames [][]byte) error {
	return z.s.SendMulti(zmq4.NewMsgFrom(frames...))
}

// SendFreeing implements freeingSender. Only the PUB socket (iopub)
// calls written; the others ignore it.
func (z zmqSocket) SendFreeing(frames [][]byte, written func()) error {
	m := zmq4.NewMsgFrom(frames...)
	m.Written = written
	return z.s.SendMulti(m)
}

func (z zmqSocket) Close() error { return z.s.Close() }

// Socket limits. Everything a peer sends is read before its HMAC can be
// checked, so each socket bounds what one peer can make the kernel hold
// (the patched zmq4 in third_party/zmq4 enforces these before allocating).
const (
	// iopubHWM bounds zmq4's PUB queue, in messages. With zmq4.OptionNoDrop
	// the publisher waits for room instead of dropping (so status messages
	// are never lost); the publisher's own queue is bounded in bytes.
	iopubHWM = 64

	// sendTimeout bounds a blocked send; a peer that reads nothing for this
	// long is disconnected.
	sendTimeout = 10 * time.Second

	// handshakeTimeout bounds the ZMTP handshake of an accepted connection.
	handshakeTimeout = 5 * time.Second

	// maxConnsPerSocket bounds the connections each socket holds. Jupyter
	// clients open one per socket each; a notebook server a few. The bound
	// trades a lock-out (by a peer holding this many) for memory: an idle
	// connection costs about 16 KiB.
	maxConnsPerSocket = 1024

	// smallMsgBytes bounds what the heartbeat (pings) and iopub
	// (subscriptions) accept from a peer.
	smallMsgBytes = 64 << 10

	// envelopeSlack is what a shell, control or stdin message may hold
	// besides its largest frame: identities, delimiter, signature, header,
	// parent header and metadata.
	envelopeSlack = 1 << 20

	// pendingMessages bounds, in messages at the size limit, what all the
	// connections of a shell, control or stdin socket together may hold
	// before the kernel receives it (zmq4.WithMaxPendingBytes): without
	// it, peers without the key each holding an unfinished message at the
	// limit made the kernel hold 1024 × 65 MiB per socket. Past it,
	// unfinished messages of peers without the key are dropped to make
	// room (largest first, zmq4.WithTrustedPeers), never for another such
	// peer's larger message; when that is not enough, the connection whose
	// bytes do not fit is closed: a client then reconnects, and its
	// message is lost, which happens only when several messages near the
	// size limit arrive at once.
	pendingMessages = 4
)

// DefaultIOPubStallTimeout is how long an iopub subscriber may accept no
// bytes before it is disconnected when Config.IOPubStallTimeout is zero:
// zmq4's PUB has one sender, so a stalled subscriber holds up every other
// one (libzmq would drop its messages instead). Jupyter's clients
// reconnect on their own.
const DefaultIOPubStallTimeout = 3 * time.Second

// iopubSendTimeout bounds how long a message waits for room in the iopub
// socket's queue (iopubHWM messages) before it is dropped. The queue moves
// once the message at its head is written; a subscriber that takes no
// bytes for the stall timeout is disconnected, so the wait is bounded by
// the stall timeout (per stalled subscriber). Under a shorter bound, a
// subscriber allowed to stall (a client on a loaded machine, with a
// generous stall timeout) made the kernel drop output it was still
// waiting to read: the stall timeout alone decides when output is lost.
func iopubSendTimeout(stall time.Duration) time.Duration {
	return max(sendTimeout, 2*stall)
}

// socketOptions are the parts of Config the sockets enforce.
type socketOptions struct {
	maxFrame   int                 // bounds each frame of a request (Config.MaxFrameBytes)
	iopubStall time.Duration       // Config.IOPubStallTimeout
	onStall    func(peer net.Addr) // called when a stalled subscriber is disconnected
}

// listen binds the kernel's sockets as ci describes and returns them
// together with ci updated with the ports actually bound (tcp port 0 picks
// a free port).
func listen(ctx context.Context, ci ConnectionInfo, o socketOptions) (transport, ConnectionInfo, error) {
	common := []zmq4.Option{
		zmq4.WithLogger(log.New(io.Discard, "", 0)),
		zmq4.WithTimeout(sendTimeout),
		zmq4.WithWriteTimeout(sendTimeout),
		zmq4.WithHandshakeTimeout(handshakeTimeout),
		zmq4.WithMaxConns(maxConnsPerSocket),
	}
	with := func(maxMsg int64) []zmq4.Option {
		return append(slices.Clip(common), zmq4.WithMaxMsgSize(maxMsg))
	}
	maxRequest := int64(o.maxFrame) + envelopeSlack
	// Peers without the key give way to those with it (trustingSocket).
	request := append(with(maxRequest), zmq4.WithMaxPendingBytes(pendingMessages*maxRequest), zmq4.WithTrustedPeers())
	small := with(smallMsgBytes)
	var t transport
	specs := []struct {
		name string
		port *int
		dst  *socket
		s    zmq4.Socket
	}{
		{"shell", &ci.ShellPort, &t.shell, zmq4.NewRouter(ctx, request...)},
		{"control", &ci.ControlPort, &t.control, zmq4.NewRouter(ctx, request...)},
		{"stdin", &ci.StdinPort, &t.stdin, zmq4.NewRouter(ctx, request...)},
		{"iopub", &ci.IOPubPort, &t.iopub, zmq4.NewPub(ctx, append(small, zmq4.WithTimeout(iopubSendTimeout(o.iopubStall)), zmq4.WithWriteTimeout(o.iopubStall), zmq4.WithStallFunc(o.onStall))...)},
		{"heartbeat", &ci.HBPort, &t.heartbeat, zmq4.NewRep(ctx, small...)},
	}
	for i, sp := range specs {
		ep := ci.endpoint(*sp.port)
		if err := sp.s.Listen(ep); err != nil {
			for _, o := range specs[i:] {
				o.s.Close()
			}
			t.close()
			return transport{}, ci, fmt.Errorf("bind %s socket to %s (is another kernel using the port?): %w", sp.name, ep, err)
		}
		if a, ok := sp.s.Addr().(*net.TCPAddr); ok {
			*sp.port = a.Port
		}
		*sp.dst = zmqSocket{s: sp.s}
	}
	iopub := specs[3].s
	if err := iopub.SetOption(zmq4.OptionHWM, iopubHWM); err != nil {
		t.close()
		return transport{}, ci, fmt.Errorf("set iopub high-water mark: %w", err)
	}
	if err := iopub.SetOption(zmq4.OptionNoDrop, true); err != nil {
		t.close()
		return transport{}, ci, fmt.Errorf("set iopub no-drop: %w", err)
	}
	// A subscriber disconnected for stalling (Config.IOPubStallTimeout) loses
	// what was sent until it reconnects, its cell's idle status included;
	// on reconnecting it gets the last status again, so that it is never
	// left waiting for an idle the kernel has already sent. Status
	// messages go out with their type as topic (publisher.encodeRaw).
	if err := iopub.SetOption(zmq4.OptionLastValue, msgStatus); err != nil {
		t.close()
		return transport{}, ci, fmt.Errorf("set iopub last value: %w", err)
	}
	return t, ci, nil
}
