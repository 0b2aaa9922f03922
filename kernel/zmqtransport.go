package kernel

import (
	"bufio"
	"context"
	"net"
	"sync"

	"github.com/go-zeromq/zmq4"
	zmqtransport "github.com/go-zeromq/zmq4/transport"
)

// zmq4 reads every frame with two or three read calls and, on ROUTER and
// REP sockets, writes every frame with two write calls: a seven-frame
// Jupyter reply costs fourteen syscalls and as many TCP segments. The
// kernel's ROUTER and REP sockets therefore listen through bufferedTCP,
// a tcp transport whose connections read through a buffer and, for
// ROUTER sockets, collect writes until zmqSocket.Send flushes them once the
// whole message is written. PUB keeps plain tcp: zmq4 already sends each
// message there with one writev.
const (
	bufferedReadTCP  = "sbir-kernel+tcp-r"  // buffered reads
	bufferedWriteTCP = "sbir-kernel+tcp-rw" // buffered reads and writes
)

var (
	registerOnce sync.Once
	// bufferedConns holds the live write-buffered connections.
	bufferedConns sync.Map // *bufConn -> struct{}
)

func registerTransports() {
	registerOnce.Do(func() {
		zmq4.RegisterTransport(bufferedReadTCP, bufferedTCP{})
		zmq4.RegisterTransport(bufferedWriteTCP, bufferedTCP{bufferWrites: true})
	})
}

// flushBufferedConns writes out what ROUTER sockets have collected.
func flushBufferedConns() {
	bufferedConns.Range(func(k, _ any) bool {
		k.(*bufConn).flush()
		return true
	})
}

// bufferedTCP is a zmq4 transport for listening on tcp with buffered
// connections.
type bufferedTCP struct{ bufferWrites bool }

var _ zmqtransport.Transport = bufferedTCP{}

func (t bufferedTCP) Dial(ctx context.Context, d zmqtransport.Dialer, addr string) (net.Conn, error) {
	return d.DialContext(ctx, "tcp", addr)
}

func (t bufferedTCP) Listen(ctx context.Context, addr string) (net.Listener, error) {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	return bufListener{l, t.bufferWrites}, nil
}

func (t bufferedTCP) Addr(ep string) (string, error) { return zmqtransport.New("tcp").Addr(ep) }

type bufListener struct {
	net.Listener
	bufferWrites bool
}

func (l bufListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	bc := &bufConn{Conn: c, r: bufio.NewReaderSize(c, 64<<10)}
	if l.bufferWrites {
		bc.w = bufio.NewWriterSize(c, 64<<10)
		bufferedConns.Store(bc, struct{}{})
	}
	return bc, nil
}

// bufConn is a connection with buffered reads and, when w is set,
// buffered writes. Pending writes are flushed before every read (so
// zmq4's handshake and its PONG replies go out) and by flush.
type bufConn struct {
	net.Conn
	r  *bufio.Reader
	mu sync.Mutex
	w  *bufio.Writer
}

func (c *bufConn) Read(p []byte) (int, error) {
	if c.w != nil {
		if err := c.flush(); err != nil {
			return 0, err
		}
	}
	return c.r.Read(p)
}

func (c *bufConn) Write(p []byte) (int, error) {
	if c.w == nil {
		return c.Conn.Write(p)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.w.Write(p)
}

func (c *bufConn) flush() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.w.Buffered() == 0 {
		return nil
	}
	return c.w.Flush()
}

func (c *bufConn) Close() error {
	if c.w != nil {
		bufferedConns.Delete(c)
	}
	return c.Conn.Close()
}
