// Copyright 2018 The go-zeromq Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package zmq4

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

var ErrClosedConn = errors.New("zmq4: read/write on closed connection")

// ErrMsgTooLarge is returned when a peer announces a frame that would make
// its message larger than the limit set with WithMaxMsgSize, or a command
// larger than maxCmdSize. The connection is closed: the rest of the stream
// cannot be trusted.
var ErrMsgTooLarge = errors.New("zmq4: message exceeds the maximum size")

const (
	// maxCmdSize bounds a ZMTP command frame (READY and its metadata,
	// PING, ...): commands are small, and they are read before the peer
	// is authenticated.
	maxCmdSize = 64 << 10

	// frameOverhead is what each received frame is charged against the
	// message size limit on top of its length, so that a message of many
	// empty frames is bounded too.
	frameOverhead = 64

	// readChunk is the largest allocation made ahead of the bytes that
	// fill it: a large frame is read in chunks, so memory grows with the
	// bytes the peer actually sends, not with the length it announces.
	readChunk = 64 << 10
)

// connOptions are the per-connection limits a socket passes to its
// connections.
type connOptions struct {
	maxMsgSize   int64          // 0: unlimited
	writeTimeout time.Duration  // 0: none
	onStall      func(net.Addr) // called when a write times out; nil: none
	pending      *pendingBudget // shared by the socket's connections; nil: unbounded
}

// Conn implements the ZeroMQ Message Transport Protocol as defined
// in https://rfc.zeromq.org/spec:23/ZMTP/.
type Conn struct {
	typ    SocketType
	id     SocketIdentity
	rw     net.Conn
	r      *bufio.Reader // buffered reads of rw: one syscall for many small frames
	opts   connOptions
	sec    Security
	Server bool
	Meta   Metadata
	Peer   struct {
		Server bool
		Meta   Metadata
	}

	mu     sync.RWMutex
	topics map[string]struct{} // set of subscribed topics

	closed         int32
	onCloseErrorCB func(c *Conn)

	// trusted: the application accepted a message of this connection
	// (Msg.Trust); see WithTrustedPeers.
	trusted atomic.Bool
}

func (c *Conn) Close() error {
	return c.rw.Close()
}

func (c *Conn) Read(p []byte) (int, error) {
	if c.Closed() {
		return 0, ErrClosedConn
	}
	n, err := io.ReadFull(c.r, p)
	c.checkIO(err)
	return n, err
}

func (c *Conn) Write(p []byte) (int, error) {
	if c.Closed() {
		return 0, ErrClosedConn
	}
	c.setWriteDeadline()
	n, err := c.rw.Write(p)
	c.checkWrite(err)
	return n, err
}

// setWriteDeadline bounds the next write when a write timeout is set: a
// peer that stops reading must not block the socket's writers forever.
func (c *Conn) setWriteDeadline() {
	if c.opts.writeTimeout > 0 {
		_ = c.rw.SetWriteDeadline(time.Now().Add(c.opts.writeTimeout))
	}
}

// checkWrite is checkIO for writes: a write that timed out leaves the
// stream with a partial frame, so the connection is closed, and the
// socket's stall function (WithStallFunc) told, once.
func (c *Conn) checkWrite(err error) {
	var e net.Error
	if err != nil && errors.As(err, &e) && e.Timeout() {
		// Marked closed before rw is: closing rw fails the connection's
		// reader at once, which would mark it closed first.
		stalled := atomic.CompareAndSwapInt32(&c.closed, 0, 1)
		c.rw.Close()
		if stalled {
			c.notifyOnCloseError()
			if c.opts.onStall != nil {
				c.opts.onStall(c.rw.RemoteAddr())
			}
		}
		return
	}
	c.checkIO(err)
}

// Open opens a ZMTP connection over rw with the given security, socket type and identity.
// An optional onCloseErrorCB can be provided to inform the caller when this Conn is closed.
// Open performs a complete ZMTP handshake.
func Open(rw net.Conn, sec Security, sockType SocketType, sockID SocketIdentity, server bool, onCloseErrorCB func(c *Conn)) (*Conn, error) {
	return open(rw, sec, sockType, sockID, server, onCloseErrorCB, connOptions{})
}

func open(rw net.Conn, sec Security, sockType SocketType, sockID SocketIdentity, server bool, onCloseErrorCB func(c *Conn), opts connOptions) (*Conn, error) {
	if rw == nil {
		return nil, fmt.Errorf("zmq4: invalid nil read-writer")
	}

	if sec == nil {
		return nil, fmt.Errorf("zmq4: invalid nil security")
	}

	conn := &Conn{
		typ:            sockType,
		id:             sockID,
		rw:             rw,
		r:              bufio.NewReader(rw),
		opts:           opts,
		sec:            sec,
		Server:         server,
		Meta:           make(Metadata),
		topics:         make(map[string]struct{}),
		onCloseErrorCB: onCloseErrorCB,
	}
	conn.Meta[sysSockType] = string(conn.typ)
	conn.Meta[sysSockID] = conn.id.String()
	conn.Peer.Meta = make(Metadata)

	err := conn.init(sec)
	if err != nil {
		return nil, fmt.Errorf("zmq4: could not initialize ZMTP connection: %w", err)
	}

	return conn, nil
}

// init performs a ZMTP handshake over an io.ReadWriter
func (conn *Conn) init(sec Security) error {
	var err error

	err = conn.greet(conn.Server)
	if err != nil {
		return fmt.Errorf("zmq4: could not exchange greetings: %w", err)
	}

	err = conn.sec.Handshake(conn, conn.Server)
	if err != nil {
		return fmt.Errorf("zmq4: could not perform security handshake: %w", err)
	}

	peer := SocketType(conn.Peer.Meta[sysSockType])
	if !peer.IsCompatible(conn.typ) {
		return fmt.Errorf("zmq4: peer=%q not compatible with %q", peer, conn.typ)
	}

	// FIXME(sbinet): if security mechanism does not define a client/server
	// topology, enforce that p.server == p.peer.server == 0
	// as per:
	//  https://rfc.zeromq.org/spec:23/ZMTP/#topology

	return nil
}

func (conn *Conn) greet(server bool) error {
	var err error
	send := greeting{Version: defaultVersion}
	send.Sig.Header = sigHeader
	send.Sig.Footer = sigFooter
	kind := string(conn.sec.Type())
	if len(kind) > len(send.Mechanism) {
		return errSecMech
	}
	copy(send.Mechanism[:], kind)

	conn.setWriteDeadline()
	err = send.write(conn.rw)
	if err != nil {
		conn.checkWrite(err)
		return fmt.Errorf("zmq4: could not send greeting: %w", err)
	}

	var recv greeting
	err = recv.read(conn.r)
	if err != nil {
		conn.checkIO(err)
		return fmt.Errorf("zmq4: could not recv greeting: %w", err)
	}

	peerKind := asString(recv.Mechanism[:])
	if peerKind != kind {
		return errBadSec
	}

	conn.Peer.Server, err = asBool(recv.Server)
	if err != nil {
		return fmt.Errorf("zmq4: could not get peer server flag: %w", err)
	}

	return nil
}

// SendCmd sends a ZMTP command over the wire.
func (c *Conn) SendCmd(name string, body []byte) error {
	if c.Closed() {
		return ErrClosedConn
	}
	cmd := Cmd{Name: name, Body: body}
	buf, err := cmd.marshalZMTP()
	if err != nil {
		return err
	}
	return c.send(true, buf, 0)
}

// SendMsg sends a ZMTP message over the wire.
func (c *Conn) SendMsg(msg Msg) error {
	if c.Closed() {
		return ErrClosedConn
	}
	// Every message goes out with one writev: writing each frame header
	// and body separately costs two syscalls (and, without Nagle
	// coalescing, two TCP segments) per frame.
	return c.sendMulti(msg)
}

// RecvMsg receives a ZMTP message from the wire.
func (c *Conn) RecvMsg() (Msg, error) {
	if c.Closed() {
		return Msg{}, ErrClosedConn
	}
	msg := c.read()
	if msg.err != nil {
		return msg, fmt.Errorf("zmq4: could not read recv msg: %w", msg.err)
	}

	if !msg.isCmd() {
		return msg, nil
	}

	switch len(msg.Frames) {
	case 0:
		msg.err = fmt.Errorf("zmq4: empty command")
		return msg, msg.err
	case 1:
		// ok
	default:
		msg.err = fmt.Errorf("zmq4: invalid length command")
		return msg, msg.err
	}

	var cmd Cmd
	msg.err = cmd.unmarshalZMTP(msg.Frames[0])
	if msg.err != nil {
		return msg, fmt.Errorf("zmq4: could not unmarshal ZMTP recv msg: %w", msg.err)
	}

	switch cmd.Name {
	case CmdPing:
		// send back a PONG immediately.
		msg.err = c.SendCmd(CmdPong, nil)
		if msg.err != nil {
			return msg, msg.err
		}
	}

	switch len(cmd.Body) {
	case 0:
		msg.Frames = nil
	default:
		msg.Frames = msg.Frames[:1]
		msg.Frames[0] = cmd.Body
	}
	return msg, nil
}

func (c *Conn) RecvCmd() (Cmd, error) {
	var cmd Cmd

	if c.Closed() {
		return cmd, ErrClosedConn
	}

	msg := c.read()
	if msg.err != nil {
		return cmd, fmt.Errorf("zmq4: could not read recv cmd: %w", msg.err)
	}

	if !msg.isCmd() {
		return cmd, ErrBadFrame
	}

	switch len(msg.Frames) {
	case 0:
		msg.err = fmt.Errorf("zmq4: empty command")
		return cmd, msg.err
	case 1:
		// ok
	default:
		msg.err = fmt.Errorf("zmq4: invalid length command")
		return cmd, msg.err
	}

	err := cmd.unmarshalZMTP(msg.Frames[0])
	if err != nil {
		return cmd, fmt.Errorf("zmq4: could not unmarshal ZMTP recv cmd: %w", err)
	}

	return cmd, nil
}

func (c *Conn) sendMulti(msg Msg) error {
	var buffers net.Buffers

	nframes := len(msg.Frames)
	for i, frame := range msg.Frames {
		var flag byte
		if i < nframes-1 {
			flag ^= hasMoreBitFlag
		}

		size := len(frame)
		isLong := size > 255
		if isLong {
			flag ^= isLongBitFlag
		}

		var (
			hdr = [8 + 1]byte{flag}
			hsz int
		)
		if isLong {
			hsz = 9
			binary.BigEndian.PutUint64(hdr[1:], uint64(size))
		} else {
			hsz = 2
			hdr[1] = uint8(size)
		}

		switch c.sec.Type() {
		case NullSecurity:
			buffers = append(buffers, hdr[:hsz], frame)
		default:
			var secBuf bytes.Buffer
			if _, err := c.sec.Encrypt(&secBuf, frame); err != nil {
				return err
			}
			buffers = append(buffers, hdr[:hsz], secBuf.Bytes())
		}
	}

	c.setWriteDeadline()
	if _, err := buffers.WriteTo(c.rw); err != nil {
		c.checkWrite(err)
		return err
	}

	return nil
}

func (c *Conn) send(isCommand bool, body []byte, flag byte) error {
	// Long flag
	size := len(body)
	isLong := size > 255
	if isLong {
		flag ^= isLongBitFlag
	}

	if isCommand {
		flag ^= isCommandBitFlag
	}

	var (
		hdr = [8 + 1]byte{flag}
		hsz int
	)

	// Write out the message itself
	if isLong {
		hsz = 9
		binary.BigEndian.PutUint64(hdr[1:], uint64(size))
	} else {
		hsz = 2
		hdr[1] = uint8(size)
	}
	c.setWriteDeadline()
	if _, err := c.rw.Write(hdr[:hsz]); err != nil {
		c.checkWrite(err)
		return err
	}

	if _, err := c.sec.Encrypt(c.rw, body); err != nil {
		c.checkWrite(err)
		return err
	}

	return nil
}

// read returns the isCommand flag, the body of the message, and optionally an error
//
// Every length the peer announces is checked before anything is allocated
// for it: a command frame may hold at most maxCmdSize bytes, and a message
// at most the socket's maximum message size (WithMaxMsgSize), each frame
// counting frameOverhead bytes besides its length. Over a limit, read
// fails with ErrMsgTooLarge and closes the connection.
func (c *Conn) read() (msg Msg) {
	var (
		header  [2]byte
		longHdr [8]byte

		hasMore = true
		isCmd   = false
		total   uint64 // bytes charged to this message so far
		charged int64  // bytes taken from c.opts.pending
	)
	budget := c.opts.pending
	defer func() {
		if msg.err == nil && charged > 0 && !budget.settle(c) {
			msg.err = fmt.Errorf("%w: dropped to make room for a trusted peer's or a smaller message (WithTrustedPeers)", ErrMsgTooLarge)
		}
		if msg.err != nil {
			budget.give(c, charged)
			return
		}
		if charged > 0 {
			msg.charged, msg.budget = charged, budget
		}
	}()

	for hasMore {

		// Read out the header
		_, msg.err = io.ReadFull(c.r, header[:])
		if msg.err != nil {
			c.checkIO(msg.err)
			return msg
		}

		fl := flag(header[0])

		hasMore = fl.hasMore()
		isCmd = isCmd || fl.isCommand()

		// Determine the actual length of the body
		size := uint64(header[1])
		if fl.isLong() {
			// We read 2 bytes of the header already
			// In case of a long message, the length is bytes 2-8 of the header
			// We already have the first byte, so assign it, and then read the rest
			longHdr[0] = header[1]

			_, msg.err = io.ReadFull(c.r, longHdr[1:])
			if msg.err != nil {
				c.checkIO(msg.err)
				return msg
			}

			size = binary.BigEndian.Uint64(longHdr[:])
		}

		if size > uint64(maxInt64) {
			msg.err = errOverflow
			c.closeOnProtocolError()
			return msg
		}

		limit := uint64(c.opts.maxMsgSize)
		if fl.isCommand() {
			limit = maxCmdSize
			if hasMore {
				// Commands are single frames (ZMTP 3.0, 3.1).
				msg.err = fmt.Errorf("zmq4: command frame with the MORE flag: %w", ErrBadFrame)
				c.closeOnProtocolError()
				return msg
			}
		}
		total += frameOverhead
		if limit > 0 && (size > limit || total+size > limit) {
			msg.err = fmt.Errorf("%w: frame of %d bytes after %d bytes (limit %d)", ErrMsgTooLarge, size, total-frameOverhead, limit)
			c.closeOnProtocolError()
			return msg
		}
		total += size

		var body []byte
		var frameBudget *pendingBudget
		if !fl.isCommand() {
			frameBudget = budget // commands are bounded by maxCmdSize each
		}
		body, msg.err = readBody(c.r, size, frameBudget, c, &charged)
		if msg.err != nil {
			if errors.Is(msg.err, ErrMsgTooLarge) {
				c.closeOnProtocolError()
			} else {
				c.checkIO(msg.err)
			}
			return msg
		}

		// fast path for NULL security: we bypass the bytes.Buffer allocation.
		switch c.sec.Type() {
		case NullSecurity: // FIXME(sbinet): also do that for non-encrypted PLAIN?
			msg.Frames = append(msg.Frames, body)
			continue
		}

		buf := new(bytes.Buffer)
		if _, msg.err = c.sec.Decrypt(buf, body); msg.err != nil {
			return msg
		}
		msg.Frames = append(msg.Frames, buf.Bytes())
	}
	if isCmd {
		msg.Type = CmdMsg
	}
	return msg
}

// readBody reads a frame body of size bytes. Small bodies are allocated
// at once; larger ones grow as their bytes arrive, so a peer that
// announces a large frame and sends little costs little.
//
// Every allocation is first charged to budget (nil: unbounded) as c's,
// adding to *charged. Over the budget, readBody fails with ErrMsgTooLarge
// without allocating.
func readBody(r io.Reader, size uint64, budget *pendingBudget, c *Conn, charged *int64) ([]byte, error) {
	take := func(n int) error {
		if budget == nil {
			return nil
		}
		if !budget.take(c, int64(n), size) {
			return fmt.Errorf("%w: the socket's connections together hold %d bytes of unreceived messages (WithMaxPendingBytes)", ErrMsgTooLarge, budget.max)
		}
		*charged += int64(n)
		return nil
	}
	if size <= readChunk {
		if err := take(int(size)); err != nil {
			return nil, err
		}
		body := make([]byte, size)
		_, err := io.ReadFull(r, body)
		return body, err
	}
	if err := take(readChunk); err != nil {
		return nil, err
	}
	body := make([]byte, 0, readChunk)
	for remaining := size; remaining > 0; {
		if len(body) == cap(body) {
			// Double (at most to the frame's size), charging the growth
			// before making it. (While it is copied, the outgrown buffer
			// is alive too: at most half the new one, uncharged.)
			n := len(body) + int(min(uint64(cap(body)), remaining))
			if err := take(n - cap(body)); err != nil {
				return nil, err
			}
			grown := make([]byte, len(body), n)
			copy(grown, body)
			body = grown
		}
		n := min(uint64(cap(body)-len(body)), remaining)
		m, err := io.ReadFull(r, body[len(body):len(body)+int(n)])
		body = body[:len(body)+m]
		remaining -= uint64(m)
		if err != nil {
			return nil, err
		}
	}
	return body, nil
}

// closeOnProtocolError closes a connection whose peer broke the protocol
// or a limit: what follows on the stream cannot be framed.
func (c *Conn) closeOnProtocolError() {
	c.rw.Close()
	c.SetClosed()
}

func (conn *Conn) subscribe(msg Msg) {
	conn.mu.Lock()
	v := msg.Frames[0]
	k := string(v[1:])
	switch v[0] {
	case 0:
		delete(conn.topics, k)
	case 1:
		conn.topics[k] = struct{}{}
	}
	conn.mu.Unlock()
}

func (conn *Conn) subscribed(topic string) bool {
	conn.mu.RLock()
	defer conn.mu.RUnlock()
	for k := range conn.topics {
		switch {
		case k == "":
			// subscribed to everything
			return true
		case strings.HasPrefix(topic, k):
			return true
		}
	}
	return false
}

func (conn *Conn) SetClosed() {
	if wasClosed := atomic.CompareAndSwapInt32(&conn.closed, 0, 1); wasClosed {
		conn.notifyOnCloseError()
	}
}

func (conn *Conn) Closed() bool {
	return atomic.LoadInt32(&conn.closed) == 1
}

func (conn *Conn) checkIO(err error) {
	if err == nil {
		return
	}

	if err == io.EOF || errors.Is(err, io.EOF) {
		conn.SetClosed()
		return
	}

	var e net.Error
	if errors.As(err, &e); e != nil && !e.Timeout() {
		conn.SetClosed()
	}
}

func (conn *Conn) notifyOnCloseError() {
	if conn.onCloseErrorCB == nil {
		return
	}
	conn.onCloseErrorCB(conn)
}
