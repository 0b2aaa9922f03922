package kernel

import (
	"context"
	"encoding/json"
	"io"
	"log"
	"log/slog"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"
	"github.com/google/uuid"

	"github.com/sbirtools/sbir-kernel/internal/testenv"
)

// testKey signs the messages of every test kernel.
const testKey = "5ca1ab1e-test-key"

// testKernel is a kernel served on real ZeroMQ sockets on 127.0.0.1 with
// random ports, and a client connected to it the way jupyter_client
// connects: DEALER sockets with the session as identity, a SUB socket
// subscribed to everything, a REQ socket for the heartbeat.
type testKernel struct {
	t      testing.TB
	ev     *scriptEvaluator
	conn   ConnectionInfo
	codec  Codec
	cancel context.CancelFunc
	done   chan struct{}
	result Shutdown
	err    error
	client *testClient
}

type testClient struct {
	t        testing.TB
	codec    Codec
	session  string
	ctx      context.Context
	cancel   context.CancelFunc
	shell    zmq4.Socket
	control  zmq4.Socket
	stdin    zmq4.Socket
	iopub    zmq4.Socket
	hb       zmq4.Socket
	shellC   chan *Message
	controlC chan *Message
	stdinC   chan *Message
	iopubC   chan *Message
}

// logTo returns a logger writing to the test log when -v is given.
func testLogger(t testing.TB) *slog.Logger {
	if !testing.Verbose() {
		return slog.New(slog.DiscardHandler)
	}
	return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// startKernel serves a kernel with cfg (its Evaluator defaults to a
// scriptEvaluator) and connects a client once iopub delivers messages.
func startKernel(t testing.TB, cfg Config) *testKernel {
	t.Helper()
	return startKernelAt(t, ConnectionInfo{IP: "127.0.0.1", Key: testKey}, cfg)
}

// startKernelAt is startKernel on the sockets ci describes.
func startKernelAt(t testing.TB, ci ConnectionInfo, cfg Config) *testKernel {
	t.Helper()
	ev, _ := cfg.Evaluator.(*scriptEvaluator)
	if cfg.Evaluator == nil {
		ev = &scriptEvaluator{}
		cfg.Evaluator = ev
	}
	if cfg.Logger == nil {
		cfg.Logger = testLogger(t)
	}
	ready := make(chan ConnectionInfo, 1)
	cfg.Ready = func(ci ConnectionInfo) { ready <- ci }
	ctx, cancel := context.WithCancel(context.Background())
	k := &testKernel{t: t, ev: ev, cancel: cancel, done: make(chan struct{}), codec: Codec{Key: []byte(testKey)}}
	go func() {
		defer close(k.done)
		k.result, k.err = Serve(ctx, ci, cfg)
	}()
	select {
	case k.conn = <-ready:
	case <-k.done:
		t.Fatalf("Serve returned before binding: %v", k.err)
	}
	t.Cleanup(func() {
		k.cancel()
		k.wait(5 * time.Second)
		k.client.close()
	})
	k.client = k.connect()
	return k
}

// wait waits for Serve to return.
func (k *testKernel) wait(d time.Duration) bool {
	select {
	case <-k.done:
		return true
	case <-time.After(d):
		return false
	}
}

func (k *testKernel) connect() *testClient {
	t := k.t
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	session := uuid.NewString()
	id := zmq4.WithID(zmq4.SocketIdentity(session))
	quiet := zmq4.WithLogger(log.New(io.Discard, "", 0))
	c := &testClient{
		t: t, codec: k.codec, session: session, ctx: ctx, cancel: cancel,
		shell:    zmq4.NewDealer(ctx, id, quiet),
		control:  zmq4.NewDealer(ctx, id, quiet),
		stdin:    zmq4.NewDealer(ctx, id, quiet),
		iopub:    zmq4.NewSub(ctx, quiet),
		hb:       zmq4.NewReq(ctx, quiet),
		shellC:   make(chan *Message, 256),
		controlC: make(chan *Message, 256),
		stdinC:   make(chan *Message, 256),
		iopubC:   make(chan *Message, 4096),
	}
	for _, d := range []struct {
		s    zmq4.Socket
		port int
	}{{c.shell, k.conn.ShellPort}, {c.control, k.conn.ControlPort}, {c.stdin, k.conn.StdinPort}, {c.iopub, k.conn.IOPubPort}, {c.hb, k.conn.HBPort}} {
		if err := d.s.Dial(k.conn.endpoint(d.port)); err != nil {
			t.Fatalf("dial %d: %v", d.port, err)
		}
	}
	if err := c.iopub.SetOption(zmq4.OptionSubscribe, ""); err != nil {
		t.Fatal(err)
	}
	go c.read(c.shell, c.shellC)
	go c.read(c.control, c.controlC)
	go c.read(c.stdin, c.stdinC)
	go c.read(c.iopub, c.iopubC)
	// Like jupyter_client's wait_for_ready: ask for kernel_info until
	// iopub delivers (a SUB misses what is published before it joins).
	deadline := time.Now().Add(waitTime)
	for {
		id := c.send(c.shell, "kernel_info_request", map[string]any{})
		c.reply(c.shellC, id)
		got := false
		timeout := time.After(200 * time.Millisecond)
	drain:
		for {
			select {
			case <-c.iopubC:
				got = true
			case <-timeout:
				break drain
			}
		}
		if got {
			return c
		}
		if time.Now().After(deadline) {
			t.Fatal("iopub never delivered a message")
		}
	}
}

func (c *testClient) close() {
	if c == nil {
		return
	}
	c.cancel()
	for _, s := range []zmq4.Socket{c.shell, c.control, c.stdin, c.iopub, c.hb} {
		s.Close()
	}
}

func (c *testClient) read(s zmq4.Socket, ch chan<- *Message) {
	for {
		msg, err := s.Recv()
		if err != nil {
			return
		}
		m, err := c.codec.Decode(msg.Frames)
		if err != nil {
			c.t.Errorf("client received an undecodable message: %v", err)
			continue
		}
		select {
		case ch <- m:
		case <-c.ctx.Done():
			return
		}
	}
}

// message returns a signed request from this client's session.
func (c *testClient) message(msgType string, content any) *Message {
	raw, err := json.Marshal(content)
	if err != nil {
		c.t.Fatal(err)
	}
	h := newHeader(msgType, c.session)
	h.Username = "test"
	return &Message{Header: h, Content: raw}
}

// send sends a request on s and returns its msg_id.
func (c *testClient) send(s zmq4.Socket, msgType string, content any) string {
	c.t.Helper()
	m := c.message(msgType, content)
	c.sendFrames(s, c.encode(m))
	return m.Header.MsgID
}

func (c *testClient) encode(m *Message) [][]byte {
	frames, err := c.codec.Encode(m)
	if err != nil {
		c.t.Fatal(err)
	}
	return frames
}

func (c *testClient) sendFrames(s zmq4.Socket, frames [][]byte) {
	c.t.Helper()
	if err := s.SendMulti(zmq4.NewMsgFrom(frames...)); err != nil {
		c.t.Fatalf("send: %v", err)
	}
}

// execute sends an execute_request with extra content fields.
func (c *testClient) execute(code string, extra map[string]any) string {
	content := map[string]any{"code": code, "silent": false, "store_history": true,
		"user_expressions": map[string]any{}, "allow_stdin": false, "stop_on_error": true}
	for k, v := range extra {
		content[k] = v
	}
	return c.send(c.shell, "execute_request", content)
}

// waitTime is how long a test waits for what must come (a reply, an
// idle): long on purpose, and scaled by SBIR_TEST_SLOW, since it bounds
// only a failure.
var waitTime = testenv.Scale(10 * time.Second)

// reply waits for the reply to request id on ch.
func (c *testClient) reply(ch <-chan *Message, id string) *Message {
	c.t.Helper()
	timeout := time.After(waitTime)
	for {
		select {
		case m := <-ch:
			if m.ParentHeader != nil && m.ParentHeader.MsgID == id {
				return m
			}
			c.t.Logf("skipping %s (parent %v)", m.Header.MsgType, m.ParentHeader)
		case <-timeout:
			c.t.Fatalf("no reply to %s within %v", id, waitTime)
			return nil
		}
	}
}

// untilIdle returns the iopub messages with parent id up to and including
// the idle status.
func (c *testClient) untilIdle(id string) []*Message {
	c.t.Helper()
	var out []*Message
	timeout := time.After(waitTime)
	for {
		select {
		case m := <-c.iopubC:
			if m.ParentHeader == nil || m.ParentHeader.MsgID != id {
				continue
			}
			out = append(out, m)
			if m.Header.MsgType == "status" && content(c.t, m)["execution_state"] == "idle" {
				return out
			}
		case <-timeout:
			c.t.Fatalf("no idle for %s within %v; got %v", id, waitTime, types(out))
			return nil
		}
	}
}

// untilIdles is untilIdle for several requests whose iopub messages
// interleave: it returns each request's messages up to its idle.
func (c *testClient) untilIdles(ids ...string) map[string][]*Message {
	c.t.Helper()
	out := make(map[string][]*Message)
	open := len(ids)
	timeout := time.After(waitTime)
	for open > 0 {
		select {
		case m := <-c.iopubC:
			if m.ParentHeader == nil || !slices.Contains(ids, m.ParentHeader.MsgID) {
				continue
			}
			id := m.ParentHeader.MsgID
			out[id] = append(out[id], m)
			if m.Header.MsgType == "status" && content(c.t, m)["execution_state"] == "idle" {
				open--
			}
		case <-timeout:
			c.t.Fatalf("no idle for all of %v within %v", ids, waitTime)
			return nil
		}
	}
	return out
}

// content decodes a message's content.
func content(t testing.TB, m *Message) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(m.Content, &v); err != nil {
		t.Fatalf("content of %s: %v", m.Header.MsgType, err)
	}
	return v
}

// types lists message types, with the state of status messages.
func types(ms []*Message) []string {
	var out []string
	for _, m := range ms {
		s := m.Header.MsgType
		if s == "status" {
			var c struct {
				State string `json:"execution_state"`
			}
			json.Unmarshal(m.Content, &c)
			s += ":" + c.State
		}
		out = append(out, s)
	}
	return out
}

// roundTrip sends a request on the shell and returns its reply and its
// iopub messages.
func (c *testClient) roundTrip(s zmq4.Socket, ch <-chan *Message, msgType string, body any) (*Message, []*Message) {
	c.t.Helper()
	id := c.send(s, msgType, body)
	rep := c.reply(ch, id)
	return rep, c.untilIdle(id)
}
