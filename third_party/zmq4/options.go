// Copyright 2018 The go-zeromq Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package zmq4

import (
	"log"
	"net"
	"time"
)

// Option configures some aspect of a ZeroMQ socket.
// (e.g. SocketIdentity, Security, ...)
type Option func(s *socket)

// WithID configures a ZeroMQ socket identity.
func WithID(id SocketIdentity) Option {
	return func(s *socket) {
		s.id = id
	}
}

// WithSecurity configures a ZeroMQ socket to use the given security mechanism.
// If the security mechanims is nil, the NULL mechanism is used.
func WithSecurity(sec Security) Option {
	return func(s *socket) {
		s.sec = sec
	}
}

// WithDialerRetry configures the time to wait before two failed attempts
// at dialing an endpoint.
func WithDialerRetry(retry time.Duration) Option {
	return func(s *socket) {
		s.retry = retry
	}
}

// WithDialerTimeout sets the maximum amount of time a dial will wait
// for a connect to complete.
func WithDialerTimeout(timeout time.Duration) Option {
	return func(s *socket) {
		s.dialer.Timeout = timeout
	}
}

// WithTimeout sets the timeout value for socket operations
func WithTimeout(timeout time.Duration) Option {
	return func(s *socket) {
		s.timeout = timeout
	}
}

// WithLogger sets a dedicated log.Logger for the socket.
func WithLogger(msg *log.Logger) Option {
	return func(s *socket) {
		s.log = msg
	}
}

// WithDialerMaxRetries configures the maximum number of retries
// when dialing an endpoint (-1 means infinite retries).
func WithDialerMaxRetries(maxRetries int) Option {
	return func(s *socket) {
		s.maxRetries = maxRetries
	}
}

// WithAutomaticReconnect allows to configure a socket to automatically
// reconnect on connection loss.
func WithAutomaticReconnect(automaticReconnect bool) Option {
	return func(s *socket) {
		s.autoReconnect = automaticReconnect
	}
}

// WithMaxMsgSize bounds the size of a message a socket accepts from a
// peer, as ZMQ_MAXMSGSIZE does in libzmq: the sum of its frames' lengths,
// each frame also counting a small fixed overhead. A peer that announces
// a frame taking its message over the limit is disconnected before
// anything is allocated for the frame. Zero or less means no limit.
// ZMTP commands are bounded to 64 KiB whatever this option says.
func WithMaxMsgSize(n int64) Option {
	return func(s *socket) {
		s.connOpts.maxMsgSize = max(n, 0)
	}
}

// WithMaxPendingBytes bounds, on a ROUTER socket, the bytes of the
// messages that all its connections together hold before Recv returns
// them: messages being read and messages read but not yet received. A
// connection whose next bytes would exceed the bound fails with
// ErrMsgTooLarge and is closed, before anything is allocated for them.
// WithMaxMsgSize bounds one connection; this bounds their sum, which
// peers that each send all but the last byte of a message at the limit
// would otherwise multiply by the number of connections. Zero means no
// bound; other socket types ignore it.
func WithMaxPendingBytes(n int64) Option {
	return func(s *socket) {
		if s.typ != Router || n <= 0 {
			s.connOpts.pending = nil
			return
		}
		s.connOpts.pending = &pendingBudget{max: n}
	}
}

// WithWriteTimeout bounds every write to a peer: a peer that does not
// read for this long is disconnected, so it cannot block the socket's
// senders. Zero means no bound.
func WithWriteTimeout(timeout time.Duration) Option {
	return func(s *socket) {
		s.connOpts.writeTimeout = timeout
	}
}

// WithStallFunc sets a function called with a peer's address when the
// peer is disconnected because a write to it timed out (WithWriteTimeout),
// once per connection, so that the application can log it: a peer that
// was dropped for stalling misses what was sent until it reconnects.
// It runs on the sending goroutine and must not block.
func WithStallFunc(f func(peer net.Addr)) Option {
	return func(s *socket) {
		s.connOpts.onStall = f
	}
}

// WithMaxConns bounds the number of connections a listening socket holds
// (those still in their handshake included); connections beyond it are
// closed as soon as they are accepted. Zero means no limit.
func WithMaxConns(n int) Option {
	return func(s *socket) {
		s.maxConns = n
	}
}

// WithHandshakeTimeout bounds the ZMTP greeting and security handshake of
// each accepted connection (30 s by default); a peer that has not
// completed it by then is disconnected. Zero means no bound.
func WithHandshakeTimeout(timeout time.Duration) Option {
	return func(s *socket) {
		s.handshakeTimeout = timeout
	}
}

/*
// TODO(sbinet)

func WithIOThreads(threads int) Option {
	return nil
}

func WithSendBufferSize(size int) Option {
	return nil
}

func WithRecvBufferSize(size int) Option {
	return nil
}
*/

const (
	OptionSubscribe   = "SUBSCRIBE"
	OptionUnsubscribe = "UNSUBSCRIBE"
	OptionHWM         = "HWM"

	// OptionNoDrop (a bool, PUB sockets only) makes Send wait, until the
	// socket's send timeout, for room in a queue at its high-water mark
	// instead of dropping the message, as ZMQ_XPUB_NODROP does in libzmq.
	OptionNoDrop = "NODROP"

	// OptionLastValue (a string, PUB sockets only) names a topic whose
	// last message the socket keeps and sends again to each connection
	// when it subscribes to that topic: a subscriber that was
	// disconnected (a write timeout) and reconnects learns the current
	// state even if the message was sent while it was away.
	OptionLastValue = "LASTVALUE"
)
