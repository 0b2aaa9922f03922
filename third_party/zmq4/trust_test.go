// Copyright 2018 The go-zeromq Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package zmq4

import (
	"bytes"
	"context"
	"io"
	"net"
	"testing"
	"time"
)

// Tests of sbir patch 11 (WithTrustedPeers, Msg.Trust).

// patchWait bounds what the patch tests wait for: long, since it bounds
// only a failure on a loaded machine.
const patchWait = 20 * time.Second

// waitUntil polls cond until it holds, failing the test after patchWait.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(patchWait)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not after %v", what, patchWait)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// pending returns a ROUTER's pending budget.
func pending(s Socket) *pendingBudget { return s.(*routerSocket).sck.connOpts.pending }

// used returns what the budget holds.
func (b *pendingBudget) usedNow() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.used
}

// trustRouter listens with a ROUTER holding at most 1 MiB of pending
// messages (fair share 256 KiB: 4 connections), strangers giving way.
func trustRouter(t *testing.T, opts ...Option) (Socket, string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	r := NewRouter(ctx, append([]Option{quiet(), WithMaxMsgSize(2 << 20), WithMaxPendingBytes(1 << 20), WithMaxConns(4), WithTrustedPeers()}, opts...)...)
	t.Cleanup(func() { cancel(); r.Close() })
	if err := r.Listen("tcp://127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	return r, r.Addr().String()
}

// stranger connects to addr as a DEALER without credentials, announces a
// frame of frame bytes and sends part of it. The test ends it.
func stranger(t *testing.T, addr string, frame uint64, part int) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	p := append(append(greetingNULL(), readyCmd(Dealer)...), longHeader(0, frame)...)
	if _, err := c.Write(append(p, bytes.Repeat([]byte("s"), part)...)); err != nil {
		t.Fatal(err)
	}
	return c
}

// closedByPeer waits until the socket closes c.
func closedByPeer(t *testing.T, c net.Conn) {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(patchWait))
	if _, err := io.Copy(io.Discard, c); err != nil {
		if ne, ok := err.(net.Error); ok && ne.Timeout() {
			t.Fatalf("the connection was not closed within %v", patchWait)
		}
	}
}

// dealer dials addr.
func dealer(t *testing.T, addr string) Socket {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	d := NewDealer(ctx, quiet())
	t.Cleanup(func() { cancel(); d.Close() })
	if err := d.Dial("tcp://" + addr); err != nil {
		t.Fatal(err)
	}
	return d
}

// recvWithin receives one message from r, failing after patchWait.
func recvWithin(t *testing.T, r Socket) Msg {
	t.Helper()
	got := make(chan Msg, 1)
	errc := make(chan error, 1)
	go func() {
		m, err := r.Recv()
		if err != nil {
			errc <- err
			return
		}
		got <- m
	}()
	select {
	case m := <-got:
		return m
	case err := <-errc:
		t.Fatalf("Recv: %v", err)
	case <-time.After(patchWait):
		t.Fatalf("nothing received within %v", patchWait)
	}
	return Msg{}
}

// TestTrustedPeerMakesRoom: a stranger holds the whole pending budget with
// an unfinished message; a trusted peer's next message (600 KiB) is
// received all the same, and the stranger is disconnected to make room.
func TestTrustedPeerMakesRoom(t *testing.T) {
	r, addr := trustRouter(t)
	d := dealer(t, addr)
	if err := d.Send(NewMsgString("hello")); err != nil {
		t.Fatal(err)
	}
	recvWithin(t, r).Trust()
	s := stranger(t, addr, 1500<<10, 700<<10)
	waitUntil(t, "the stranger holds the budget", func() bool { return pending(r).usedNow() == 1<<20 })

	big := bytes.Repeat([]byte("t"), 600<<10)
	if err := d.Send(NewMsg(big)); err != nil {
		t.Fatal(err)
	}
	if m := recvWithin(t, r); len(m.Frames) != 2 || !bytes.Equal(m.Frames[1], big) {
		t.Fatalf("the trusted peer's message: %d frames", len(m.Frames))
	}
	closedByPeer(t, s)
}

// TestStrangersSmallMessageFindsRoom: a new peer's first message, small,
// is received while a stranger holds the whole budget with a large frame
// (more than its fair share), which gives way.
func TestStrangersSmallMessageFindsRoom(t *testing.T) {
	r, addr := trustRouter(t)
	s := stranger(t, addr, 1500<<10, 700<<10)
	waitUntil(t, "the stranger holds the budget", func() bool { return pending(r).usedNow() == 1<<20 })
	d := dealer(t, addr)
	if err := d.Send(NewMsgString("kernel_info_request")); err != nil {
		t.Fatal(err)
	}
	if m := recvWithin(t, r); string(m.Frames[1]) != "kernel_info_request" {
		t.Fatalf("received %q", m.Frames)
	}
	closedByPeer(t, s)
}

// TestStrangersLargeFrameCannotPushOut: a stranger announcing a frame
// over the fair share finds no room while another stranger holds the
// budget: it is disconnected, and the other keeps its message.
func TestStrangersLargeFrameCannotPushOut(t *testing.T) {
	r, addr := trustRouter(t)
	stranger(t, addr, 1500<<10, 700<<10)
	b := pending(r)
	waitUntil(t, "the first stranger holds the budget", func() bool { return b.usedNow() == 1<<20 })
	late := stranger(t, addr, 1500<<10, 100<<10)
	closedByPeer(t, late)
	b.mu.Lock()
	holders, used := len(b.reading), b.used
	b.mu.Unlock()
	if holders != 1 || used != 1<<20 {
		t.Fatalf("%d unfinished messages holding %d bytes after the second stranger; want the first one's 1 MiB", holders, used)
	}
}

// TestMaxConnsReplacesOldestStranger: at the connection limit, a new
// connection is accepted in place of the stranger connected the longest,
// and never in place of a trusted peer.
func TestMaxConnsReplacesOldestStranger(t *testing.T) {
	r, addr := trustRouter(t, WithMaxConns(2))
	sck := r.(*routerSocket).sck
	conns := func() int { sck.mu.RLock(); defer sck.mu.RUnlock(); return len(sck.conns) + sck.handshaking }
	trusted := dealer(t, addr)
	if err := trusted.Send(NewMsgString("first")); err != nil {
		t.Fatal(err)
	}
	recvWithin(t, r).Trust()
	s := stranger(t, addr, 1500<<10, 100<<10)
	waitUntil(t, "two connections", func() bool { return conns() == 2 && pending(r).usedNow() > 0 })

	late := dealer(t, addr)
	if err := late.Send(NewMsgString("late")); err != nil {
		t.Fatal(err)
	}
	if m := recvWithin(t, r); string(m.Frames[1]) != "late" {
		t.Fatalf("received %q", m.Frames)
	}
	closedByPeer(t, s)
	if err := trusted.Send(NewMsgString("still here")); err != nil {
		t.Fatal(err)
	}
	if m := recvWithin(t, r); string(m.Frames[1]) != "still here" {
		t.Fatalf("received %q", m.Frames)
	}
}

// TestBudgetDroppedChargesAreVoid: what a dropped connection's reader
// gives back afterwards (or settles) does not count twice.
func TestBudgetDroppedChargesAreVoid(t *testing.T) {
	b := &pendingBudget{max: 1 << 20, evict: true, fair: 256 << 10}
	conn := func() *Conn { c, _ := net.Pipe(); return &Conn{rw: c} }
	big, small, trusted := conn(), conn(), conn()
	trusted.trusted.Store(true)
	if !b.take(big, 900<<10, 2<<20) {
		t.Fatal("the first charge did not fit")
	}
	if b.take(small, 200<<10, 2<<20) {
		t.Fatal("a stranger's large frame made room")
	}
	if !b.take(small, 200<<10, 200<<10) || b.used != 200<<10 {
		t.Fatalf("a stranger's small frame: used %d, want only its 200 KiB", b.used)
	}
	b.give(big, 900<<10) // big's reader fails after being dropped
	if b.used != 200<<10 {
		t.Fatalf("used %d after the dropped reader gave back, want %d", b.used, 200<<10)
	}
	if !b.take(trusted, 900<<10, 2<<20) || b.used != 900<<10 {
		t.Fatalf("a trusted peer's message: used %d, want 900 KiB", b.used)
	}
	if b.settle(small) {
		t.Fatal("a dropped message settled")
	}
	if !b.settle(trusted) {
		t.Fatal("the trusted message did not settle")
	}
	b.release(900 << 10)
	if b.used != 0 || len(b.reading) != 0 || len(b.dropped) != 0 {
		t.Fatalf("used %d, %d reading, %d dropped at the end", b.used, len(b.reading), len(b.dropped))
	}
}
