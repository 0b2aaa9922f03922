package kernel

import (
	"context"
	"fmt"
	"io"
	"log"
	"net"
	"strings"
	"time"

	"github.com/go-zeromq/zmq4"
)

// socket is what the protocol core needs from a ZeroMQ socket. The real
// implementation wraps zmq4; tests use an in-memory fake.
type socket interface {
	// Recv returns the frames of the next message; it fails once the
	// socket is closed.
	Recv() ([][]byte, error)
	// Send sends one multipart message.
	Send(frames [][]byte) error
	Close() error
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

// zmqSocket adapts a zmq4 socket. flush, when set, runs after each send
// (write-buffered ROUTER sockets, see zmqtransport.go).
type zmqSocket struct {
	s     zmq4.Socket
	flush func()
}

func (z zmqSocket) Recv() ([][]byte, error) {
	m, err := z.s.Recv()
	if err != nil {
		return nil, err
	}
	return m.Frames, nil
}

func (z zmqSocket) Send(frames [][]byte) error {
	var err error
	if len(frames) == 1 {
		err = z.s.Send(zmq4.NewMsg(frames[0]))
	} else {
		err = z.s.SendMulti(zmq4.NewMsgFrom(frames...))
	}
	if z.flush != nil {
		z.flush()
	}
	return err
}

func (z zmqSocket) Close() error { return z.s.Close() }

// iopubHWM bounds zmq4's PUB queue (unbounded by default): beyond it,
// messages are dropped rather than held in memory, as libzmq's PUB does
// at its high-water mark.
const iopubHWM = 1000

// sendTimeout bounds a blocked send on a ROUTER or REP socket.
const sendTimeout = 10 * time.Second

// listen binds the kernel's sockets as ci describes and returns them
// together with ci updated with the ports actually bound (tcp port 0 picks
// a free port).
func listen(ctx context.Context, ci ConnectionInfo) (transport, ConnectionInfo, error) {
	quiet := zmq4.WithLogger(log.New(io.Discard, "", 0))
	timeout := zmq4.WithTimeout(sendTimeout)
	registerTransports()
	var t transport
	specs := []struct {
		name   string
		port   *int
		dst    *socket
		s      zmq4.Socket
		scheme string // tcp transport to listen with
	}{
		{"shell", &ci.ShellPort, &t.shell, zmq4.NewRouter(ctx, quiet, timeout), bufferedWriteTCP},
		{"control", &ci.ControlPort, &t.control, zmq4.NewRouter(ctx, quiet, timeout), bufferedWriteTCP},
		{"stdin", &ci.StdinPort, &t.stdin, zmq4.NewRouter(ctx, quiet, timeout), bufferedWriteTCP},
		{"iopub", &ci.IOPubPort, &t.iopub, zmq4.NewPub(ctx, quiet, timeout), "tcp"},
		{"heartbeat", &ci.HBPort, &t.heartbeat, zmq4.NewRep(ctx, quiet, timeout), bufferedReadTCP},
	}
	for i, sp := range specs {
		public := ci.endpoint(*sp.port)
		ep := public
		if ci.Transport == "tcp" {
			ep = sp.scheme + strings.TrimPrefix(public, "tcp")
		}
		if err := sp.s.Listen(ep); err != nil {
			for _, o := range specs[i:] {
				o.s.Close()
			}
			t.close()
			return transport{}, ci, fmt.Errorf("bind %s socket to %s (is another kernel using the port?): %w", sp.name, public, err)
		}
		if a, ok := sp.s.Addr().(*net.TCPAddr); ok {
			*sp.port = a.Port
		}
		zs := zmqSocket{s: sp.s}
		if sp.scheme == bufferedWriteTCP && ci.Transport == "tcp" {
			zs.flush = flushBufferedConns
		}
		*sp.dst = zs
	}
	if err := specs[3].s.SetOption(zmq4.OptionHWM, iopubHWM); err != nil {
		t.close()
		return transport{}, ci, fmt.Errorf("set iopub high-water mark: %w", err)
	}
	return t, ci, nil
}
