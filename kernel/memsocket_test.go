package kernel

import (
	"context"
	"fmt"
	"net"
	"slices"
	"sync"
	"testing"
	"time"
)

// memSocket is the in-memory fake socket: the test pushes frames to in
// and reads what the kernel sent from out.
type memSocket struct {
	in     chan [][]byte
	out    chan [][]byte
	closed chan struct{}
	once   sync.Once
}

var _ socket = (*memSocket)(nil)

func newMemSocket() *memSocket {
	return &memSocket{in: make(chan [][]byte, 64), out: make(chan [][]byte, 8192), closed: make(chan struct{})}
}

var errClosed = fmt.Errorf("memsocket: %w", net.ErrClosed)

func (m *memSocket) Recv() ([][]byte, error) {
	select {
	case f := <-m.in:
		return f, nil
	case <-m.closed:
		return nil, errClosed
	}
}

func (m *memSocket) Send(frames [][]byte) error {
	select {
	case m.out <- frames:
		return nil
	case <-m.closed:
		return errClosed
	}
}

func (m *memSocket) Close() error { m.once.Do(func() { close(m.closed) }); return nil }

// memKernel runs the protocol core on in-memory sockets.
type memKernel struct {
	t     *testing.T
	tr    transport
	codec Codec
	done  chan Shutdown
}

func startMemKernel(t *testing.T, ev Evaluator) *memKernel {
	return startMemKernelConfig(t, Config{Evaluator: ev})
}

func startMemKernelConfig(t *testing.T, cfg Config) *memKernel {
	tr := transport{newMemSocket(), newMemSocket(), newMemSocket(), newMemSocket(), newMemSocket()}
	k := &memKernel{t: t, tr: tr, codec: Codec{Key: []byte(testKey)}, done: make(chan Shutdown, 1)}
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		cfg.Logger = testLogger(t)
		res, _ := serve(ctx, tr, []byte(testKey), cfg)
		k.done <- res
	}()
	t.Cleanup(func() { cancel(); <-k.done })
	return k
}

func (k *memKernel) request(sock socket, msgType string, content string) *Message {
	m := &Message{Identities: [][]byte{[]byte("client-1")}, Header: newHeader(msgType, "s1"), Content: []byte(content)}
	sock.(*memSocket).in <- k.codec.mustEncode(k.t, m)
	return m
}

func (k *memKernel) next(sock socket) *Message {
	k.t.Helper()
	select {
	case f := <-sock.(*memSocket).out:
		m, err := k.codec.Decode(f)
		if err != nil {
			k.t.Fatalf("kernel sent an undecodable message: %v", err)
		}
		return m
	case <-time.After(waitTime):
		k.t.Fatal("kernel sent nothing")
		return nil
	}
}

func TestCoreStartingOnceThenBusyIdle(t *testing.T) {
	k := startMemKernel(t, &scriptEvaluator{})
	first := k.next(k.tr.iopub)
	if types([]*Message{first})[0] != "status:starting" || first.ParentHeader != nil {
		t.Fatalf("first iopub message = %v parent %v, want status starting without parent", types([]*Message{first}), first.ParentHeader)
	}
	req := k.request(k.tr.shell, "execute_request", `{"code":"print a\nvalue 1"}`)
	rep := k.next(k.tr.shell)
	if len(rep.Identities) != 1 || string(rep.Identities[0]) != "client-1" || rep.ParentHeader.MsgID != req.Header.MsgID {
		t.Errorf("reply identities %q parent %v", rep.Identities, rep.ParentHeader)
	}
	var io []*Message
	for len(io) == 0 || types(io[len(io)-1:])[0] != "status:idle" {
		m := k.next(k.tr.iopub)
		if m.ParentHeader == nil || m.ParentHeader.MsgID != req.Header.MsgID {
			t.Fatalf("iopub message %s has parent %v", m.Header.MsgType, m.ParentHeader)
		}
		io = append(io, m)
	}
	want := []string{"status:busy", "execute_input", "stream", "execute_result", "status:idle"}
	if got := types(io); !slices.Equal(got, want) {
		t.Errorf("iopub = %v, want %v", got, want)
	}
	// Every message has a fresh id.
	seen := map[string]bool{rep.Header.MsgID: true}
	for _, m := range append(io, first) {
		if seen[m.Header.MsgID] {
			t.Errorf("msg_id %s reused", m.Header.MsgID)
		}
		seen[m.Header.MsgID] = true
	}
}

func TestCoreHeartbeat(t *testing.T) {
	k := startMemKernel(t, &scriptEvaluator{})
	k.tr.heartbeat.(*memSocket).in <- [][]byte{[]byte("ping")}
	select {
	case f := <-k.tr.heartbeat.(*memSocket).out:
		if len(f) != 1 || string(f[0]) != "ping" {
			t.Errorf("echo = %q", f)
		}
	case <-time.After(waitTime):
		t.Fatal("no echo")
	}
}

func TestCoreShutdownFromControl(t *testing.T) {
	ev := &scriptEvaluator{}
	k := startMemKernel(t, ev)
	k.request(k.tr.control, "shutdown_request", `{"restart":true}`)
	if rep := k.next(k.tr.control); rep.Header.MsgType != "shutdown_reply" {
		t.Fatalf("reply %s", rep.Header.MsgType)
	}
	select {
	case res := <-k.done:
		k.done <- res // for Cleanup
		if !res.Restart || res.Reason != "shutdown_request" || !ev.closed.Load() {
			t.Errorf("result %+v, evaluator closed %v", res, ev.closed.Load())
		}
	case <-time.After(waitTime):
		t.Fatalf("serve did not return within %v", waitTime)
	}
}
