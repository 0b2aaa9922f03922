// Copyright 2018 The go-zeromq Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package zmq4

// Trusted peers (sbir patch 11). ZMTP's NULL mechanism authenticates no
// one: an application that authenticates its peers' messages itself (a
// signature in the message, as Jupyter's protocol has) learns who holds
// the credentials only after reading a whole message. Until then every
// peer is a stranger, and strangers could hold all of a ROUTER's pending
// bytes (WithMaxPendingBytes) or connections (WithMaxConns), locking out
// the peers that do hold them. With WithTrustedPeers, the application
// marks the connection of each message it accepts (Msg.Trust), and
// strangers give way to trusted peers.

// WithTrustedPeers makes a ROUTER socket favour the connections the
// application trusts (Msg.Trust) over the others:
//
//   - When the bytes of a message being read do not fit in
//     WithMaxPendingBytes, the untrusted connection whose unfinished
//     message holds the most is closed to make room. For a trusted
//     connection's message, always; for an untrusted one's, only while
//     the frame and the message stay within a fair share (the bound over
//     WithMaxConns, or over 1024) and the other holds more than that: a
//     stranger's small message (a new client's first) finds room, a
//     stranger's large one cannot push out others. Messages already read
//     are never dropped.
//   - At WithMaxConns, a new connection is accepted in place of the
//     untrusted connection open the longest, rather than refused; what
//     that connection's unfinished message held is the new one's at once.
//
// Other socket types ignore it.
func WithTrustedPeers() Option {
	return func(s *socket) {
		s.trustedPeers = s.typ == Router
	}
}

// Trust marks the connection a ROUTER socket received msg on as trusted
// (see WithTrustedPeers): call it once the application has accepted the
// message, e.g. verified its signature. It does nothing for messages of
// other sockets, or whose connection has closed.
func (msg Msg) Trust() {
	if msg.from != nil {
		msg.from.trusted.Store(true)
	}
}

// evictForNewConn closes the untrusted connection open the longest, to
// make room for a new one at the connection limit, and reports whether
// there was one. The closed connection counts against the limit until the
// socket removes it, so the socket may briefly hold more than the limit.
func (sck *socket) evictForNewConn() bool {
	if !sck.trustedPeers {
		return false
	}
	sck.mu.Lock()
	var victim *Conn
	for _, c := range sck.conns { // in the order they were added
		if !c.trusted.Load() && !c.Closed() {
			victim = c
			break
		}
	}
	if victim != nil {
		sck.handshaking++ // the new connection's reservation
	}
	sck.mu.Unlock()
	if victim == nil {
		return false
	}
	sck.connOpts.pending.drop(victim) // its bytes are the new connection's at once
	victim.closeOnProtocolError()
	return true
}
