// Copyright 2018 The go-zeromq Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package zmq4

import "sync"

// pendingBudget bounds the bytes of received messages a socket holds
// across its connections (WithMaxPendingBytes, sbir patch 9). A nil
// budget grants all.
//
// It knows what each connection's unfinished message holds (reading).
// With evict (WithTrustedPeers, sbir patch 11), bytes that do not fit are
// made room for by dropping untrusted connections' unfinished messages,
// the largest first; a finished message (read, waiting for Recv) is never
// dropped.
type pendingBudget struct {
	mu    sync.Mutex
	used  int64
	max   int64
	evict bool
	// fair is a connection's fair share of max (max over the connection
	// limit). An untrusted connection may make room only for a frame of
	// at most fair bytes, while its message stays within fair, and only
	// by dropping messages holding more: a stranger's small message (a
	// new client's first) finds room, and strangers sending large frames
	// cannot drop each other's messages round and round.
	fair    int64
	reading map[*Conn]int64 // bytes of each connection's unfinished message
	dropped map[*Conn]bool  // connections evicted; their charges are void
}

// take charges n bytes to c's unfinished message, which is reading a
// frame of frame bytes, or reports false when they do not fit (and, with
// evict, no untrusted connection may give way).
func (b *pendingBudget) take(c *Conn, n int64, frame uint64) bool {
	if b == nil {
		return true
	}
	b.mu.Lock()
	var victims []*Conn
	ok := b.takeLocked(c, n, frame, &victims)
	b.mu.Unlock()
	for _, v := range victims {
		v.closeOnProtocolError() // its reader fails; its charges are void
	}
	return ok
}

func (b *pendingBudget) takeLocked(c *Conn, n int64, frame uint64, victims *[]*Conn) bool {
	if b.dropped[c] {
		return false
	}
	for b.used+n > b.max {
		v := b.victimLocked(c, n, frame)
		if v == nil {
			return false
		}
		b.dropLocked(v)
		*victims = append(*victims, v)
	}
	b.used += n
	if b.reading == nil {
		b.reading = map[*Conn]int64{}
	}
	b.reading[c] += n
	return true
}

// victimLocked picks the connection whose unfinished message gives way to
// n more bytes of c's: the untrusted one holding the most. For an
// untrusted c, only for a frame and a message within the fair share, and
// a victim holding more than it. Nil when none may give way.
func (b *pendingBudget) victimLocked(c *Conn, n int64, frame uint64) *Conn {
	if !b.evict {
		return nil
	}
	var v *Conn
	for o, held := range b.reading {
		if o != c && !o.trusted.Load() && (v == nil || held > b.reading[v]) {
			v = o
		}
	}
	if v == nil {
		return nil
	}
	if !c.trusted.Load() && (frame > uint64(b.fair) || b.reading[c]+n > b.fair || b.reading[v] <= b.fair) {
		return nil
	}
	return v
}

// dropLocked takes back what v's unfinished message holds: v's reader
// fails once v is closed, and what it gives back then is void.
func (b *pendingBudget) dropLocked(v *Conn) {
	b.used -= b.reading[v]
	delete(b.reading, v)
	if b.dropped == nil {
		b.dropped = map[*Conn]bool{}
	}
	b.dropped[v] = true
}

// drop takes back what c's unfinished message holds, for a connection
// being closed to make room for a new one (WithMaxConns).
func (b *pendingBudget) drop(c *Conn) {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.reading[c] > 0 {
		b.dropLocked(c)
	}
}

// give returns the charges of c's unfinished message when reading it
// failed; nothing once c was dropped (its charges were taken back then).
func (b *pendingBudget) give(c *Conn, n int64) {
	if b == nil || n == 0 {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.dropped[c] {
		delete(b.dropped, c)
		return
	}
	b.used -= min(n, b.reading[c])
	delete(b.reading, c)
}

// settle turns c's unfinished message into a finished one: its bytes stay
// charged (until release), but are no longer c's to be dropped. It reports
// false when c was dropped meanwhile: the message is lost with c.
func (b *pendingBudget) settle(c *Conn) bool {
	if b == nil {
		return true
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.dropped[c] {
		delete(b.dropped, c)
		return false
	}
	delete(b.reading, c)
	return true
}

// release returns the bytes of a finished message once Recv hands it over
// (or the socket drops it).
func (b *pendingBudget) release(n int64) {
	if b == nil || n == 0 {
		return
	}
	b.mu.Lock()
	b.used -= n
	b.mu.Unlock()
}
