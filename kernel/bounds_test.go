package kernel

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"
)

// slowSocket is an iopub socket whose subscriber reads slowly but never
// stalls: each send takes delay, far under the socket's stall timeout, so
// the subscriber is never disconnected.
type slowSocket struct {
	*memSocket
	delay time.Duration
	sent  atomic.Int64
}

func (s *slowSocket) Send(frames [][]byte) error {
	time.Sleep(s.delay)
	s.sent.Add(1)
	select {
	case <-s.out: // nobody reads the messages themselves: keep the channel from filling
	default:
	}
	return s.memSocket.Send(frames)
}

// TestSlowIOPubKeepsKernelMemoryBounded: a client floods cheap requests
// (kernel_info_request, with a large header, which every status message
// carries as its parent) while an iopub subscriber reads slowly. Each
// request queues a busy and an idle status, which never wait for room in
// the iopub queue; unless the kernel stops taking requests while the queue
// is full, the queue, and the kernel's memory, grow with the flood.
func TestSlowIOPubKeepsKernelMemoryBounded(t *testing.T) {
	iopub := &slowSocket{memSocket: newMemSocket(), delay: 2 * time.Millisecond}
	shell := newMemSocket()
	tr := transport{shell, newMemSocket(), newMemSocket(), iopub, newMemSocket()}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		serve(ctx, tr, []byte(testKey), Config{Evaluator: &scriptEvaluator{}, Logger: testLogger(t)})
	}()
	t.Cleanup(func() { cancel(); <-done })

	codec := Codec{Key: []byte(testKey)}
	const (
		requests  = 600
		headerPad = 64 << 10 // bytes of header each status repeats
	)
	go func() {
		for range requests {
			h := newHeader("kernel_info_request", "s1")
			h.Username = strings.Repeat("u", headerPad)
			m := &Message{Identities: [][]byte{[]byte("client-1")}, Header: h, Content: []byte(`{}`)}
			select {
			case shell.in <- codec.mustEncode(t, m):
			case <-ctx.Done():
				return
			}
		}
	}()
	// Every reply on shell means its busy status was queued before it.
	// What the kernel holds for iopub is then at least the statuses of
	// the requests answered (plus "starting") minus what was sent.
	maxQueued := int64(0)
	deadline := time.After(3 * waitTime)
	for replies := int64(1); replies <= requests; replies++ {
		select {
		case <-shell.out:
		case <-deadline:
			t.Fatalf("%d of %d replies in %v", replies-1, requests, 3*waitTime)
		}
		maxQueued = max(maxQueued, 1+replies-iopub.sent.Load())
	}
	const perStatus = headerPad + 512
	if limit := int64(publishQueueBytes/perStatus + 8); maxQueued > limit {
		t.Errorf("the kernel held up to %d unsent status messages (%d MiB) for a slow iopub subscriber; "+
			"the iopub queue is %d MiB (at most %d such messages)",
			maxQueued, maxQueued*perStatus>>20, publishQueueBytes>>20, limit)
	}
}

// TestPreAuthPeersTogetherBounded: the patched zmq4 bounds what one
// connection can make the kernel hold before its message is
// authenticated (MaxFrameBytes plus an envelope), and each socket holds
// up to 1024 connections, but nothing bounds the sum: peers without the
// key that each send all but the last byte of a message at the limit
// make the kernel hold connections × limit, indefinitely (an established
// connection has no read deadline). With the default 64 MiB frames that
// is 1024 × 65 MiB on the shell port alone. Here, with 256 KiB frames
// (1.25 MiB messages), 150 such peers must not grow the heap by more than
// 64 MiB.
func TestPreAuthPeersTogetherBounded(t *testing.T) {
	const maxFrame = 256 << 10
	k := startKernel(t, Config{MaxFrameBytes: maxFrame})
	const (
		peers = 150
		size  = maxFrame + envelopeSlack - 64<<10 // under the message limit
	)
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)

	head := append(append([]byte{}, zmtpGreeting...), zmtpReady("DEALER")...)
	head = append(head, 0x02) // a long final frame
	head = append(head, be64(size)...)
	body := bytes.Repeat([]byte("A"), size-1) // never the last byte
	var conns []net.Conn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for range peers {
		c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", k.conn.ShellPort))
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
		go io.Copy(io.Discard, c) // the kernel's greeting and READY
		c.SetWriteDeadline(time.Now().Add(waitTime))
		if _, err := c.Write(append(head, body...)); err != nil {
			// The kernel refusing to read more is what a bound looks like.
			t.Logf("peer %d: %v", len(conns), err)
			break
		}
	}
	// Measure once the kernel has read everything that was sent, or
	// closed the connections whose bytes did not fit.
	waitUnreadDrained(t, k.conn.ShellPort)
	var after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&after)
	grown := int64(after.HeapInuse) - int64(before.HeapInuse)
	if grown > 64<<20 {
		t.Errorf("%d peers without the key, each holding an unfinished %d KiB message, grew the kernel's heap by %d MiB",
			len(conns), size>>10, grown>>20)
	}
	k.assertAlive(t)
}

// TestQueuedRequestsBoundedInBytes: while a cell runs, the kernel keeps
// reading shell requests and queues them, decoded, for after it: up to
// 1024 of them, each up to MaxFrameBytes (64 MiB), so a client (with the
// key, or a browser through a notebook server) that sends large requests
// behind a long cell could make the kernel hold 64 GiB. The queue must be
// bounded in bytes; the rest waits in the client's socket.
func TestQueuedRequestsBoundedInBytes(t *testing.T) {
	started := make(chan string, 1)
	k := startKernel(t, Config{Evaluator: &scriptEvaluator{started: started}})
	c := k.client
	c.execute("block", nil)
	select {
	case <-started:
	case <-time.After(waitTime):
		t.Fatal("the blocking cell did not start")
	}
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)

	const (
		requests = 200
		size     = 1 << 20
	)
	code := strings.Repeat("x", size)
	sent := make(chan struct{})
	go func() {
		defer close(sent)
		for range requests {
			m := c.message("execute_request", map[string]any{"code": code})
			frames, err := c.codec.Encode(m)
			if err != nil {
				return
			}
			if c.shell.SendMulti(zmq4.NewMsgFrom(frames...)) != nil {
				return // the kernel stopped reading: the bound at work
			}
		}
	}()
	// Measure once the kernel's reader waits for room in the queue (the
	// bound at work), or, without a bound, once it has read every request.
	deadline := time.Now().Add(waitTime)
	for !goroutineWaitingIn("kernel.(*byteBudget).acquire") {
		select {
		case <-sent:
			waitUnreadDrained(t, k.conn.ShellPort)
			deadline = time.Now() // measure now
		default:
		}
		if time.Now().After(deadline) {
			break
		}
		time.Sleep(time.Millisecond)
	}
	var after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&after)
	if grown := int64(after.HeapInuse) - int64(before.HeapInuse); grown > 128<<20 {
		t.Errorf("%d requests of %d MiB queued behind a running cell grew the kernel's heap by %d MiB", requests, size>>20, grown>>20)
	}
	k.client.send(k.client.control, "interrupt_request", map[string]any{})
}

// TestHistorySearchWorkBounded: a history search compiles its glob to a
// regular expression whose matching costs the input's length times the
// pattern's; a 4 KiB pattern such as "*a*a*a…" took 9 s on one 100 KiB
// cell, and history holds up to 16 MiB of cells: one history_request (on
// control too, where it holds up interrupts and shutdowns) could take the
// kernel for most of an hour. A pattern that long is refused, saying why.
func TestHistorySearchWorkBounded(t *testing.T) {
	var h history
	h.add(1, strings.Repeat("a", 1<<10), "", false)
	_, err := h.query(historyRequest{HistAccessType: "search", Pattern: strings.Repeat("*a", 2048)})
	if err == nil || !strings.Contains(err.Error(), "limit") {
		t.Fatalf("a 4 KiB glob pattern: error %v, want one naming the limit", err)
	}
}

// TestHistorySearchStopsAtItsDeadline: the time a search may take is
// bounded besides its pattern, with an error that says what to do.
func TestHistorySearchStopsAtItsDeadline(t *testing.T) {
	re, err := globRegexp("*a*")
	if err != nil {
		t.Fatal(err)
	}
	all := []historyEntry{{line: 1, input: "a"}, {line: 2, input: "b"}}
	if sel, err := searchEntries(all, re, time.Now().Add(time.Minute)); err != nil || len(sel) != 1 {
		t.Fatalf("search within its time: %v, %d matches", err, len(sel))
	}
	_, err = searchEntries(all, re, time.Now().Add(-time.Second))
	if err == nil || !strings.Contains(err.Error(), "time limit") || !strings.Contains(err.Error(), "simpler pattern") {
		t.Fatalf("search past its deadline: %v", err)
	}
}

// waitUnreadDrained waits until the connections accepted on 127.0.0.1:port
// hold no bytes received but unread by this process (the kernel's readers
// took everything peers sent, or closed their connections), failing the
// test after waitTime. It reads the receive queues from /proc/net/tcp, and
// skips the test where there is none.
func waitUnreadDrained(t *testing.T, port int) {
	t.Helper()
	deadline := time.Now().Add(waitTime)
	for {
		n, err := unreadOnPort(port)
		if err != nil {
			t.Skipf("reading TCP receive queues: %v", err)
		}
		if n == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the kernel left %d bytes unread on port %d for %v", n, port, waitTime)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// unreadOnPort sums the receive queues of the IPv4 TCP sockets whose local
// port is port: bytes the kernel received on its listening port's
// connections and did not read yet.
func unreadOnPort(port int) (int64, error) {
	b, err := os.ReadFile("/proc/net/tcp")
	if err != nil {
		return 0, err
	}
	suffix := fmt.Sprintf(":%04X", port)
	var total int64
	for _, line := range strings.Split(string(b), "\n")[1:] {
		f := strings.Fields(line)
		if len(f) < 5 || !strings.HasSuffix(f[1], suffix) || f[3] == "0A" { // 0A: listening
			continue
		}
		_, rx, ok := strings.Cut(f[4], ":")
		if !ok {
			return 0, fmt.Errorf("/proc/net/tcp: queue field %q", f[4])
		}
		n, err := strconv.ParseInt(rx, 16, 64)
		if err != nil {
			return 0, fmt.Errorf("/proc/net/tcp: queue field %q: %w", f[4], err)
		}
		total += n
	}
	return total, nil
}
