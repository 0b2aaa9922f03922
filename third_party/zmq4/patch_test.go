// Tests of the patches listed in PATCHES.md.

package zmq4

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// greetingNULL is a ZMTP 3.0 greeting for the NULL mechanism.
func greetingNULL() []byte {
	g := greeting{Version: defaultVersion}
	g.Sig.Header, g.Sig.Footer = sigHeader, sigFooter
	copy(g.Mechanism[:], NullSecurity)
	return g.marshal()
}

// readyCmd is a READY command frame for socket type typ.
func readyCmd(typ SocketType) []byte {
	body, _ := (&Cmd{Name: CmdReady, Body: propBytes(sysSockType, string(typ))}).marshalZMTP()
	return frame(isCommandBitFlag, body)
}

func propBytes(k, v string) []byte {
	b := append([]byte{byte(len(k))}, k...)
	b = binary.BigEndian.AppendUint32(b, uint32(len(v)))
	return append(b, v...)
}

// frame encodes one frame with the given flags and body.
func frame(flags byte, body []byte) []byte {
	if len(body) > 255 {
		return append(append([]byte{flags | isLongBitFlag}, binary.BigEndian.AppendUint64(nil, uint64(len(body)))...), body...)
	}
	return append([]byte{flags, byte(len(body))}, body...)
}

// longHeader announces a long frame of size bytes without its body.
func longHeader(flags byte, size uint64) []byte {
	return append([]byte{flags | isLongBitFlag}, binary.BigEndian.AppendUint64(nil, size)...)
}

// testConn is a Conn reading stream, writing nowhere.
func testConn(stream []byte, maxMsg int64) *Conn {
	a, b := net.Pipe()
	b.Close()
	return &Conn{rw: a, r: bufio.NewReader(bytes.NewReader(stream)), sec: nullSecurity{}, opts: connOptions{maxMsgSize: maxMsg}}
}

func TestReadBoundsEveryLength(t *testing.T) {
	manyEmpty := bytes.Repeat([]byte{hasMoreBitFlag, 0}, 1000)
	tests := []struct {
		name   string
		stream []byte
		maxMsg int64
		want   error // nil: read succeeds
	}{
		{"command announcing 2^62", longHeader(isCommandBitFlag, 1<<62), 0, ErrMsgTooLarge},
		{"command over 64 KiB", longHeader(isCommandBitFlag, maxCmdSize+1), 0, ErrMsgTooLarge},
		{"command with MORE", frame(isCommandBitFlag|hasMoreBitFlag, []byte("\x04PING")), 0, ErrBadFrame},
		{"frame announcing 2^40 over the limit", longHeader(0, 1<<40), 1 << 20, ErrMsgTooLarge},
		{"frame announcing 2^63", longHeader(0, 1<<63), 0, errOverflow},
		{"frames summing over the limit", append(frame(hasMoreBitFlag, make([]byte, 600)), frame(0, make([]byte, 600))...), 1000, ErrMsgTooLarge},
		{"many empty frames", append(manyEmpty, 0, 0), 16 << 10, ErrMsgTooLarge},
		{"frame at the limit", frame(0, make([]byte, 1000-frameOverhead)), 1000, nil},
		// Without a limit, a frame announcing 2^62 bytes and sending a
		// few fails for want of bytes, not of memory.
		{"unlimited, 2^62 announced, 10 sent", append(longHeader(0, 1<<62), "0123456789"...), 0, io.ErrUnexpectedEOF},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := testConn(tt.stream, tt.maxMsg)
			msg := c.read()
			if !errors.Is(msg.err, tt.want) || (tt.want == nil && msg.err != nil) {
				t.Fatalf("read error = %v, want %v", msg.err, tt.want)
			}
			if tt.want != nil && tt.want != io.ErrUnexpectedEOF && !c.Closed() {
				t.Error("connection left open after a protocol error")
			}
		})
	}
}

func TestReadBodyGrowsWithData(t *testing.T) {
	data := bytes.Repeat([]byte("abcdefgh"), 100_000)
	var charged int64
	got, err := readBody(bytes.NewReader(data), uint64(len(data)), nil, &Conn{}, &charged)
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("readBody: %v, %d bytes", err, len(got))
	}
	// 1 GiB announced, 1 MiB sent: the allocation follows the bytes.
	got, err = readBody(bytes.NewReader(data), 1<<30, nil, &Conn{}, &charged)
	if !errors.Is(err, io.ErrUnexpectedEOF) || got != nil {
		t.Fatalf("short body: %v", err)
	}
}

// TestReadBodyChargesBudget: every allocation is charged before it is
// made, and a body that does not fit fails without allocating it.
func TestReadBodyChargesBudget(t *testing.T) {
	data := bytes.Repeat([]byte("x"), 300<<10)
	b := &pendingBudget{max: 1 << 20}
	var charged int64
	got, err := readBody(bytes.NewReader(data), uint64(len(data)), b, &Conn{}, &charged)
	if err != nil || !bytes.Equal(got, data) || charged < int64(len(data)) || b.used != charged {
		t.Fatalf("readBody: %v, %d bytes, charged %d, budget used %d", err, len(got), charged, b.used)
	}
	// 1 GiB announced: fails once the bytes sent no longer fit.
	var charged2 int64
	big := bytes.Repeat([]byte("y"), 2<<20)
	if _, err := readBody(bytes.NewReader(big), 1<<30, b, &Conn{}, &charged2); !errors.Is(err, ErrMsgTooLarge) {
		t.Fatalf("over budget: %v", err)
	}
	if b.used != charged+charged2 || b.used > b.max {
		t.Fatalf("budget used %d (charged %d + %d), max %d", b.used, charged, charged2, b.max)
	}
}

// TestRouterPendingBytesBounded: peers that each hold an unfinished
// message under the message limit cannot together make a ROUTER hold more
// than WithMaxPendingBytes; what a received message held is given back.
func TestRouterPendingBytesBounded(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r := NewRouter(ctx, WithLogger(log.New(io.Discard, "", 0)), WithMaxMsgSize(512<<10), WithMaxPendingBytes(1<<20))
	defer r.Close()
	if err := r.Listen("tcp://127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	addr := r.Addr().String()
	const size = 400 << 10
	body := bytes.Repeat([]byte("z"), size)
	hold := func() net.Conn { // a peer with all but the last byte of a message sent
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		go io.Copy(io.Discard, c)
		p := append(append(greetingNULL(), readyCmd(Dealer)...), longHeader(0, size)...)
		c.Write(append(p, body[:size-1]...))
		return c
	}
	a, b := hold(), hold()
	defer a.Close()
	defer b.Close()
	// Both are read before the third arrives (each holds at least its
	// 400 KiB, charged in chunks that double).
	waitUntil(t, "two peers hold their messages", func() bool { return pending(r).usedNow() >= 2*(size-1) })
	c := hold() // 1.2 MiB in all: over the bound
	defer c.Close()
	c.SetReadDeadline(time.Now().Add(patchWait))
	var ne net.Error
	if _, err := io.Copy(io.Discard, c); errors.As(err, &ne) && ne.Timeout() {
		t.Fatalf("the third peer was not disconnected: %v", err)
	}
	a.Write(body[size-1:]) // a's message completes and is received
	got, err := r.Recv()
	if err != nil || len(got.Frames) != 2 || len(got.Frames[1]) != size {
		t.Fatalf("Recv: %v, %d frames", err, len(got.Frames))
	}
	// Its bytes are free again: another peer's message now fits.
	d := hold()
	defer d.Close()
	d.Write(body[size-1:])
	done := make(chan error, 1)
	go func() { _, err := r.Recv(); done <- err }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(patchWait):
		t.Fatal("a message within the bound was not received")
	}
}

func TestMetadataUnmarshalTruncated(t *testing.T) {
	full := append(propBytes("Socket-Type", "DEALER"), propBytes("Identity", "abc")...)
	for i := 0; i < len(full); i++ {
		md := make(Metadata)
		if err := md.UnmarshalZMTP(full[:i]); err == nil && i != len(propBytes("Socket-Type", "DEALER")) && i != 0 {
			t.Errorf("prefix of %d bytes: no error", i)
		}
	}
	for _, bad := range [][]byte{{5, 'a', 'b'}, {1}, {1, 'a', 0, 0}, {1, 'a', 0xff, 0xff, 0xff, 0xff}, {0, 0, 0, 0, 0}} {
		md := make(Metadata)
		if err := md.UnmarshalZMTP(bad); err == nil {
			t.Errorf("UnmarshalZMTP(%q) = nil", bad)
		}
	}
	md := make(Metadata)
	if err := md.UnmarshalZMTP(full); err != nil || md[sysSockType] != "DEALER" || md[sysSockID] != "abc" {
		t.Fatalf("UnmarshalZMTP(valid) = %v, %v", err, md)
	}
}

func FuzzMetadataUnmarshal(f *testing.F) {
	f.Add(propBytes("Socket-Type", "REQ"))
	f.Add([]byte{5, 'a', 'b'})
	f.Add([]byte{1, 'a', 0xff, 0xff, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, p []byte) {
		md := make(Metadata)
		_ = md.UnmarshalZMTP(p)
	})
}

// FuzzConnRead feeds arbitrary bytes to the frame reader with a limit:
// it never panics and never returns more than the limit.
func FuzzConnRead(f *testing.F) {
	f.Add(longHeader(isCommandBitFlag, 1<<62))
	f.Add(longHeader(0, 1<<40))
	f.Add(frame(hasMoreBitFlag, []byte("id")))
	f.Add(readyCmd(Dealer))
	f.Fuzz(func(t *testing.T, stream []byte) {
		const limit = 4096
		c := testConn(stream, limit)
		for i := 0; i < 8; i++ {
			msg := c.read()
			if msg.err != nil {
				return
			}
			n := 0
			for _, fr := range msg.Frames {
				n += len(fr) + frameOverhead
			}
			if n > limit {
				t.Fatalf("read a message of %d bytes over the limit %d", n, limit)
			}
		}
	})
}

func quiet() Option { return WithLogger(log.New(io.Discard, "", 0)) }

// rawSend connects to addr, writes payload and waits until the socket
// closes the connection (or timeout).
func rawSend(t *testing.T, addr string, payload []byte, timeout time.Duration) (closed bool) {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.Write(payload)
	c.SetReadDeadline(time.Now().Add(timeout))
	_, err = io.Copy(io.Discard, c)
	var ne net.Error
	return !errors.As(err, &ne) || !ne.Timeout() // EOF or reset: closed
}

// startRep listens with a REP socket that echoes, on a random port.
func startRep(t *testing.T, opts ...Option) (addr string) {
	t.Helper()
	_, addr = startRepSocket(t, opts...)
	return addr
}

// startRepSocket is startRep, returning the socket too.
func startRepSocket(t *testing.T, opts ...Option) (Socket, string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	rep := NewRep(ctx, append(opts, quiet())...)
	t.Cleanup(func() { cancel(); rep.Close() })
	if err := rep.Listen("tcp://127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	go func() {
		for {
			m, err := rep.Recv()
			if err != nil {
				if ctx.Err() != nil {
					return
				}
				continue
			}
			rep.Send(m)
		}
	}()
	return rep, rep.Addr().String()
}

// roundTrip checks that a REQ client still gets its echo.
func roundTrip(t *testing.T, addr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), patchWait)
	defer cancel()
	req := NewReq(ctx, quiet())
	defer req.Close()
	if err := req.Dial("tcp://" + addr); err != nil {
		t.Fatalf("dial: %v", err)
	}
	done := make(chan error, 1)
	go func() {
		if err := req.Send(NewMsgString("ping")); err != nil {
			done <- err
			return
		}
		m, err := req.Recv()
		if err == nil && string(m.Bytes()) != "ping" {
			err = fmt.Errorf("echo %q", m.Frames)
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("round trip: %v", err)
		}
	case <-time.After(patchWait):
		t.Fatalf("no echo within %v", patchWait)
	}
}

func TestListenerSurvivesHugeFrames(t *testing.T) {
	addr := startRep(t, WithMaxMsgSize(1<<20))
	g := greetingNULL()
	for name, payload := range map[string][]byte{
		"greeting + command of 2^62":    append(g, longHeader(isCommandBitFlag, 1<<62)...),
		"READY + frame of 2^40":         append(append(g, readyCmd(Req)...), longHeader(0, 1<<40)...),
		"READY with truncated property": append(g, frame(isCommandBitFlag, append([]byte("\x05READY"), 11, 'S'))...),
		"bad greeting":                  bytes.Repeat([]byte{0xff}, 64),
		"READY without Socket-Type":     append(g, frame(isCommandBitFlag, append([]byte("\x05READY"), propBytes("Socket-Typ ", "REQ")...))...),
		"READY with an unknown type":    append(g, readyCmd("NOPE")...),
	} {
		t.Run(name, func(t *testing.T) {
			if !rawSend(t, addr, payload, 2*time.Second) {
				t.Error("the socket did not close the connection")
			}
			roundTrip(t, addr)
		})
	}
}

func TestSilentPeerDoesNotBlockAccept(t *testing.T) {
	addr := startRep(t, WithHandshakeTimeout(300*time.Millisecond))
	silent, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	roundTrip(t, addr) // while the silent peer holds its handshake
	silent.SetReadDeadline(time.Now().Add(patchWait))
	if _, err := io.Copy(io.Discard, silent); err != nil {
		t.Errorf("silent peer not disconnected after the handshake timeout: %v", err)
	}
}

func TestMaxConns(t *testing.T) {
	rep, addr := startRepSocket(t, WithMaxConns(2))
	sck := rep.(*repSocket).sck
	var held []net.Conn
	for i := 0; i < 2; i++ {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		held = append(held, c)
	}
	waitUntil(t, "two connections accepted", func() bool {
		sck.mu.RLock()
		defer sck.mu.RUnlock()
		return len(sck.conns)+sck.handshaking == 2
	})
	if !rawSend(t, addr, greetingNULL(), patchWait) {
		t.Fatal("a third connection was kept")
	}
	for _, c := range held {
		c.Close()
	}
	deadline := time.Now().Add(patchWait)
	for {
		// Closed connections are released once the socket notices.
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		c.Write(greetingNULL())
		c.SetReadDeadline(time.Now().Add(200 * time.Millisecond))
		b := make([]byte, 64)
		_, err = io.ReadFull(c, b)
		c.Close()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("connections never released")
		}
	}
}

func TestWriteTimeoutClosesStalledPeer(t *testing.T) {
	a, b := net.Pipe() // writes block until b reads; b never does
	defer b.Close()
	c := &Conn{rw: a, r: bufio.NewReader(a), sec: nullSecurity{}, opts: connOptions{writeTimeout: 100 * time.Millisecond}}
	start := time.Now()
	err := c.SendMsg(NewMsgFrom([]byte("a"), []byte("b")))
	var ne net.Error
	if !errors.As(err, &ne) || !ne.Timeout() {
		t.Fatalf("SendMsg to a stalled peer = %v, want a timeout", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("SendMsg took %v", d)
	}
	if !c.Closed() {
		t.Error("connection still open after a write timeout")
	}
}

func TestPubNoDropDeliversEverything(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	pub := NewPub(ctx, quiet())
	defer pub.Close()
	if err := pub.Listen("tcp://127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	if err := pub.SetOption(OptionHWM, 4); err != nil {
		t.Fatal(err)
	}
	if err := pub.SetOption(OptionNoDrop, true); err != nil {
		t.Fatal(err)
	}
	sub := NewSub(ctx, quiet())
	defer sub.Close()
	if err := sub.Dial("tcp://" + pub.Addr().String()); err != nil {
		t.Fatal(err)
	}
	sub.SetOption(OptionSubscribe, "")
	msgs := make(chan string, 64)
	go func() {
		defer close(msgs)
		for {
			m, err := sub.Recv()
			if err != nil {
				return
			}
			msgs <- string(m.Bytes())
		}
	}()
	// Wait for the subscription to arrive.
	for ready := false; !ready; {
		pub.Send(NewMsgString("hello"))
		select {
		case <-msgs:
			ready = true
		case <-time.After(100 * time.Millisecond):
		}
	}
	const n = 20000
	go func() {
		for i := 0; i < n; i++ {
			pub.Send(NewMsgString(fmt.Sprintf("m%d", i)))
		}
	}()
	next := 0
	for next < n {
		s, ok := <-msgs
		if !ok {
			t.Fatalf("subscriber stopped after %d messages", next)
		}
		if s == "hello" {
			continue
		}
		if want := fmt.Sprintf("m%d", next); s != want {
			t.Fatalf("got %s, want %s: a message was dropped", s, want)
		}
		next++
	}
}

func TestPubIgnoresNonSubscriptionMessages(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pub := NewPub(ctx, quiet())
	defer pub.Close()
	if err := pub.Listen("tcp://127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	addr := pub.Addr().String()
	// 100 non-subscription messages used to fill the PUB's unread queue
	// and block the reader of every connection behind it.
	junk := append(greetingNULL(), readyCmd(Sub)...)
	for i := 0; i < 100; i++ {
		junk = append(junk, frame(0, []byte("junk"))...)
	}
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.Write(junk)
	sub := NewSub(ctx, quiet())
	defer sub.Close()
	if err := sub.Dial("tcp://" + addr); err != nil {
		t.Fatal(err)
	}
	sub.SetOption(OptionSubscribe, "t")
	got := make(chan string, 1)
	go func() {
		m, err := sub.Recv()
		if err == nil {
			got <- string(m.Bytes())
		}
	}()
	deadline := time.After(patchWait)
	for {
		pub.Send(NewMsgString("topic"))
		select {
		case s := <-got:
			if !strings.HasPrefix(s, "t") {
				t.Fatalf("got %q", s)
			}
			return
		case <-deadline:
			t.Fatal("subscription never took effect")
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// TestPubLastValueReplayedOnSubscribe: a subscriber that connects after
// the last "status" message was sent still gets it, and only it.
func TestPubLastValueReplayedOnSubscribe(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	pub := NewPub(ctx, quiet())
	defer pub.Close()
	if err := pub.Listen("tcp://127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	if err := pub.SetOption(OptionLastValue, "status"); err != nil {
		t.Fatal(err)
	}
	if err := pub.SetOption(OptionLastValue, 3); err != ErrBadProperty {
		t.Fatalf("OptionLastValue 3: %v, want ErrBadProperty", err)
	}
	if err := pub.SetOption(OptionLastValue, "status"); err != nil {
		t.Fatal(err)
	}
	// Nobody listens: these go nowhere, but the last status is kept.
	for _, m := range [][]string{{"status", "busy"}, {"stream", "out"}, {"status", "idle"}, {"stream", "late"}} {
		if err := pub.SendMulti(NewMsgFromString(m)); err != nil {
			t.Fatal(err)
		}
	}
	w := pub.(*pubSocket).sck.w.(*pubMWriter)
	waitUntil(t, "the writer took the messages", func() bool { // sent them to nobody
		w.qmu.Lock()
		defer w.qmu.Unlock()
		return w.q.Len() == 0
	})
	sub := NewSub(ctx, quiet())
	defer sub.Close()
	if err := sub.Dial("tcp://" + pub.Addr().String()); err != nil {
		t.Fatal(err)
	}
	if err := sub.SetOption(OptionSubscribe, ""); err != nil {
		t.Fatal(err)
	}
	m, err := sub.Recv()
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Frames) != 2 || string(m.Frames[0]) != "status" || string(m.Frames[1]) != "idle" {
		t.Fatalf("first message after subscribing: %q, want [status idle]", m.Frames)
	}
	// Later messages follow in order.
	if err := pub.SendMulti(NewMsgFromString([]string{"stream", "next"})); err != nil {
		t.Fatal(err)
	}
	m, err = sub.Recv()
	if err != nil {
		t.Fatal(err)
	}
	if string(m.Frames[1]) != "next" {
		t.Fatalf("then %q, want [stream next]", m.Frames)
	}
}

// TestPubWrittenFreesFrames: Written is called once per message, after the
// frames were written: a sender that overwrites them in Written (reusing
// the buffer for the next message, as the kernel does) never changes what
// a subscriber receives. Dropped messages are freed at once; the kept last
// value is never freed.
func TestPubWrittenFreesFrames(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	pub := NewPub(ctx, quiet())
	defer pub.Close()
	if err := pub.Listen("tcp://127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	for _, o := range []struct {
		name string
		v    any
	}{{OptionHWM, 4}, {OptionNoDrop, true}, {OptionLastValue, "status"}} {
		if err := pub.SetOption(o.name, o.v); err != nil {
			t.Fatal(err)
		}
	}
	sub := NewSub(ctx, quiet())
	defer sub.Close()
	if err := sub.Dial("tcp://" + pub.Addr().String()); err != nil {
		t.Fatal(err)
	}
	sub.SetOption(OptionSubscribe, "")
	msgs := make(chan Msg, 64)
	go func() {
		defer close(msgs)
		for {
			m, err := sub.Recv()
			if err != nil {
				return
			}
			msgs <- m
		}
	}()
	for ready := false; !ready; { // wait for the subscription to arrive
		pub.Send(NewMsgFromString([]string{"hello", ""}))
		select {
		case <-msgs:
			ready = true
		case <-time.After(100 * time.Millisecond):
		}
	}

	const n = 2000
	body := func(i int) []byte { return bytes.Repeat([]byte{byte('a' + i%26)}, 64<<10+i) }
	var written atomic.Int64
	go func() {
		for i := 0; i < n; i++ {
			frame := body(i)
			m := NewMsgFrom([]byte("stream"), frame)
			m.Written = func() {
				clear(frame) // what a sender reusing the buffer would do
				written.Add(1)
			}
			if err := pub.SendMulti(m); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	for i := 0; i < n; i++ {
		m, ok := <-msgs
		if !ok {
			t.Fatalf("subscriber stopped after %d messages", i)
		}
		if !bytes.Equal(m.Frames[1], body(i)) {
			t.Fatalf("message %d arrived changed: its frames were freed before they were written", i)
		}
	}
	deadline := time.Now().Add(patchWait)
	for written.Load() != n && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if got := written.Load(); got != n {
		t.Fatalf("Written called %d times for %d messages", got, n)
	}

	// The last value is kept for replay: never freed.
	kept := false
	status := NewMsgFromString([]string{"status", "idle"})
	status.Written = func() { kept = true }
	if err := pub.SendMulti(status); err != nil {
		t.Fatal(err)
	}
	if m := <-msgs; string(m.Frames[0]) != "status" {
		t.Fatalf("got %q, want the status", m.Frames)
	}
	if kept {
		t.Fatal("Written called for the message kept as OptionLastValue")
	}
}

// TestPubWrittenOnDrop: without OptionNoDrop, a message dropped at the
// high-water mark is freed at once.
func TestPubWrittenOnDrop(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w := newPubMWriter(ctx)
	defer w.Close()
	w.hwm = 1
	w.mu.Lock() // the writer goroutine stops in sendMsg, holding a popped message
	if err := w.write(ctx, NewMsgFromString([]string{"stream", "popped"})); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(patchWait); ; time.Sleep(time.Millisecond) {
		w.qmu.Lock()
		n := w.q.Len()
		w.qmu.Unlock()
		if n == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the writer never took the first message")
		}
	}
	if err := w.write(ctx, NewMsgFromString([]string{"stream", "queued"})); err != nil {
		t.Fatal(err)
	}
	freed := false
	m := NewMsgFromString([]string{"stream", "dropped"})
	m.Written = func() { freed = true }
	if err := w.write(ctx, m); err != nil {
		t.Fatal(err)
	}
	w.mu.Unlock()
	if !freed {
		t.Fatal("a message dropped at the high-water mark was not freed")
	}
}

func TestStallFuncCalledOncePerDisconnect(t *testing.T) {
	a, b := net.Pipe() // writes block until b reads; b never does
	defer b.Close()
	var peers []net.Addr
	c := &Conn{rw: a, r: bufio.NewReader(a), sec: nullSecurity{}, opts: connOptions{
		writeTimeout: 100 * time.Millisecond,
		onStall:      func(p net.Addr) { peers = append(peers, p) },
	}}
	for range 2 {
		if err := c.SendMsg(NewMsgFrom([]byte("a"))); err == nil {
			t.Fatal("SendMsg to a stalled peer succeeded")
		}
	}
	if len(peers) != 1 || peers[0] != a.RemoteAddr() {
		t.Errorf("stall function called with %v, want once with %v", peers, a.RemoteAddr())
	}
}
