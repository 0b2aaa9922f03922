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

// errReplayed rejects a message whose signature was seen before.
var errReplayed = errors.New("signature already seen: message replayed")

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
}

// DecodeFrames decodes frames signed with key, with the default frame
// size bound. It is Codec{Key: key}.Decode(frames).
func DecodeFrames(frames [][]byte, key []byte) (*Message, error) {
	return Codec{Key: key}.Decode(frames)
}

// Decode parses and verifies one multipart message. The returned message
// shares memory with frames. Decode never panics: any malformed input is
// reported as an error saying which part was wrong.
func (c Codec) Decode(frames [][]byte) (*Message, error) {
	limit := c.MaxFrameBytes
	if limit <= 0 {
		limit = DefaultMaxFrameBytes
	}
	for i, f := range frames {
		if len(f) > limit {
			return nil, fmt.Errorf("decode frame %d (%d bytes, limit %d): %w", i, len(f), limit, ErrFrameTooLarge)
		}
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
		want := sign(c.Key, header, parent, metadata, content)
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
	if !isJSONObject(content) {
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
		sig = []byte(hex.EncodeToString(sign(c.Key, header, parent, metadata, content)))
	}
	frames := make([][]byte, 0, len(m.Identities)+6+len(m.Buffers))
	frames = append(frames, m.Identities...)
	frames = append(frames, []byte(delimiter), sig, header, parent, metadata, content)
	frames = append(frames, m.Buffers...)
	return frames, nil
}

var hmacPool sync.Map // string(key) -> *sync.Pool of hash.Hash

// sign returns the HMAC-SHA256 of the parts under key.
func sign(key []byte, parts ...[]byte) []byte {
	p, _ := hmacPool.LoadOrStore(string(key), &sync.Pool{New: func() any { return hmac.New(sha256.New, key) }})
	pool := p.(*sync.Pool)
	h := pool.Get().(hash.Hash)
	h.Reset()
	for _, part := range parts {
		h.Write(part)
	}
	sum := h.Sum(nil)
	pool.Put(h)
	return sum
}

// unmarshalObject decodes data, which must be a JSON object, into v.
func unmarshalObject(data []byte, v any) error {
	if !isJSONObject(data) {
		return errors.New("not a JSON object")
	}
	return json.Unmarshal(data, v)
}

func isJSONObject(data []byte) bool {
	t := bytes.TrimLeft(data, " \t\r\n")
	return len(t) > 0 && t[0] == '{' && json.Valid(data)
}

// replayGuard remembers the last signatures seen so a captured message
// cannot be sent again, as jupyter_client's Session does.
type replayGuard struct {
	mu   sync.Mutex
	seen map[string]struct{}
	ring []string
	next int
}

func newReplayGuard(size int) *replayGuard {
	return &replayGuard{seen: make(map[string]struct{}, size), ring: make([]string, size)}
}

// check records sig and reports errReplayed if it was seen before.
func (g *replayGuard) check(sig []byte) error {
	if len(sig) == 0 {
		return nil
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	s := string(sig)
	if _, ok := g.seen[s]; ok {
		return errReplayed
	}
	if old := g.ring[g.next]; old != "" {
		delete(g.seen, old)
	}
	g.ring[g.next] = s
	g.next = (g.next + 1) % len(g.ring)
	g.seen[s] = struct{}{}
	return nil
}

// signatureOf returns the signature frame of frames, or nil.
func signatureOf(frames [][]byte) []byte {
	for i, f := range frames {
		if string(f) == delimiter && i+1 < len(frames) {
			return frames[i+1]
		}
	}
	return nil
}
