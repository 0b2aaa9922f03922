package kernel

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"sync"
)

// delimiter separates the routing identities from the message proper.
const delimiter = "<IDS|MSG>"

// DefaultMaxFrameBytes is the largest frame the kernel accepts when
// Config.MaxFrameBytes is zero.
const DefaultMaxFrameBytes = 64 << 20

// Errors reported by [Codec.Decode], wrapped with the part of the message
// that was wrong.
var (
	ErrNoDelimiter   = errors.New("no <IDS|MSG> delimiter frame")
	ErrShortMessage  = errors.New("fewer than the 5 frames after <IDS|MSG> (signature, header, parent, metadata, content)")
	ErrFrameTooLarge = errors.New("frame exceeds the maximum frame size")
	ErrBadSignature  = errors.New("HMAC signature does not match (is the key from the right connection file?)")
)

// Codec turns Jupyter messages into ZeroMQ frames and back:
//
//	[identities..., "<IDS|MSG>", hex HMAC-SHA256, header, parent_header, metadata, content, buffers...]
//
// The signature covers the four JSON dicts in that order; an empty Key
// means messages are neither signed nor verified. The zero Codec is valid.
// A Codec is safe for concurrent use.
type Codec struct {
	// Key is the HMAC-SHA256 key from the connection file.
	Key []byte
	// MaxFrameBytes bounds every frame of a decoded message; zero means
	// DefaultMaxFrameBytes.
	MaxFrameBytes int

	pool *hmacPool // reused HMAC states for Key; nil: a new one per message
}

// Decode parses and verifies one multipart message. The returned message
// shares memory with frames. The header, parent header and metadata are
// decoded; the content is only checked to be enclosed in braces, and is
// validated when it is decoded. Decode never panics: any malformed input
// is reported as an error saying which part was wrong.
func (c Codec) Decode(frames [][]byte) (*Message, error) {
	limit := c.MaxFrameBytes
	if limit <= 0 {
		limit = DefaultMaxFrameBytes
	}
	size := 0
	for i, f := range frames {
		if len(f) > limit {
			return nil, fmt.Errorf("decode frame %d (%d bytes, limit %d): %w", i, len(f), limit, ErrFrameTooLarge)
		}
		size += len(f)
	}
	delim := -1
	for i, f := range frames {
		if string(f) == delimiter {
			delim = i
			break
		}
	}
	if delim < 0 {
		return nil, fmt.Errorf("decode message of %d frames: %w", len(frames), ErrNoDelimiter)
	}
	rest := frames[delim+1:]
	if len(rest) < 5 {
		return nil, fmt.Errorf("decode message: %d frames after the delimiter: %w", len(rest), ErrShortMessage)
	}
	sig, header, parent, metadata, content := rest[0], rest[1], rest[2], rest[3], rest[4]
	if len(c.Key) > 0 {
		want := c.sign(header, parent, metadata, content)
		got := make([]byte, hex.DecodedLen(len(sig)))
		n, err := hex.Decode(got, sig)
		if err != nil || !hmac.Equal(got[:n], want) {
			return nil, fmt.Errorf("decode signature: %w", ErrBadSignature)
		}
	}
	m := &Message{
		Identities: frames[:delim],
		Content:    content,
		Buffers:    rest[5:],
		wireSize:   size,
	}
	if err := unmarshalObject(header, &m.Header); err != nil {
		return nil, fmt.Errorf("decode header: %w", err)
	}
	if m.Header.MsgType == "" {
		return nil, errors.New("decode header: msg_type is missing or empty")
	}
	var ph Header
	if err := unmarshalObject(parent, &ph); err != nil {
		return nil, fmt.Errorf("decode parent_header: %w", err)
	}
	if ph != (Header{}) {
		m.ParentHeader = &ph
	}
	if err := unmarshalObject(metadata, &m.Metadata); err != nil {
		return nil, fmt.Errorf("decode metadata: %w", err)
	}
	// The content is checked only for its braces here: every handler
	// decodes it, which validates it, and validating it twice cost a
	// client 5 ms per MiB of output.
	if !looksLikeObject(content) {
		return nil, errors.New("decode content: not a JSON object")
	}
	return m, nil
}

// Encode returns the frames of m, signed with the codec's key.
func (c Codec) Encode(m *Message) ([][]byte, error) {
	header, err := json.Marshal(m.Header)
	if err != nil {
		return nil, fmt.Errorf("encode header: %w", err)
	}
	parent := []byte("{}")
	if m.ParentHeader != nil {
		if parent, err = json.Marshal(m.ParentHeader); err != nil {
			return nil, fmt.Errorf("encode parent_header: %w", err)
		}
	}
	metadata := []byte("{}")
	if m.Metadata != nil {
		if metadata, err = json.Marshal(m.Metadata); err != nil {
			return nil, fmt.Errorf("encode metadata: %w", err)
		}
	}
	content := []byte(m.Content)
	if content == nil {
		content = []byte("{}")
	}
	var sig []byte
	if len(c.Key) > 0 {
		sig = []byte(hex.EncodeToString(c.sign(header, parent, metadata, content)))
	}
	frames := make([][]byte, 0, len(m.Identities)+6+len(m.Buffers))
	frames = append(frames, m.Identities...)
	frames = append(frames, []byte(delimiter), sig, header, parent, metadata, content)
	frames = append(frames, m.Buffers...)
	return frames, nil
}

// hmacPool reuses the HMAC states of one key: a kernel signs and checks
// every message with the same key, and setting up an HMAC costs two hash
// blocks. It belongs to the kernel's Codec, so it lives and dies with the
// kernel and holds one key.
type hmacPool struct{ p sync.Pool }

func newHMACPool(key []byte) *hmacPool {
	if len(key) == 0 {
		return nil
	}
	k := append([]byte(nil), key...)
	return &hmacPool{p: sync.Pool{New: func() any { return hmac.New(sha256.New, k) }}}
}

// sign returns the HMAC-SHA256 of the parts under c.Key.
func (c Codec) sign(parts ...[]byte) []byte {
	var h hash.Hash
	if c.pool != nil {
		h = c.pool.p.Get().(hash.Hash)
		h.Reset()
		defer c.pool.p.Put(h)
	} else {
		h = hmac.New(sha256.New, c.Key)
	}
	for _, part := range parts {
		h.Write(part)
	}
	return h.Sum(nil)
}

// unmarshalObject decodes data, which must be a JSON object, into v
// (json.Unmarshal validates it).
func unmarshalObject(data []byte, v any) error {
	if !looksLikeObject(data) {
		return errors.New("not a JSON object")
	}
	return json.Unmarshal(data, v)
}

// looksLikeObject reports whether data, without surrounding white space,
// starts with { and ends with }.
func looksLikeObject(data []byte) bool {
	t := bytes.Trim(data, " \t\r\n")
	return len(t) >= 2 && t[0] == '{' && t[len(t)-1] == '}'
}
