package kernel

import (
	"encoding/json"
	"time"

	"github.com/google/uuid"
)

// ProtocolVersion is the Jupyter messaging protocol version the kernel speaks.
const ProtocolVersion = "5.3"

// Header is a Jupyter message header. Every message the kernel sends has a
// fresh MsgID, so no two messages carry the same signature.
type Header struct {
	MsgID    string `json:"msg_id"`
	Session  string `json:"session"`
	Username string `json:"username"`
	Date     string `json:"date"`
	MsgType  string `json:"msg_type"`
	Version  string `json:"version"`
}

// Message is one decoded Jupyter message.
type Message struct {
	// Identities are the ZeroMQ routing prefixes (empty on iopub).
	Identities [][]byte
	Header     Header
	// ParentHeader is the header of the request this message answers, or
	// nil when it answers none (encoded as {}).
	ParentHeader *Header
	// Metadata is the message's metadata dict; nil is encoded as {}.
	Metadata map[string]any
	// Content is the raw JSON object of the message's content; nil is
	// encoded as {}.
	Content json.RawMessage
	// Buffers are the extra binary frames after the content.
	Buffers [][]byte

	// wireSize is the bytes of the frames a decoded message was read
	// from (and shares memory with): what queueing it holds.
	wireSize int
}

// isoDate is the date layout of message headers: ISO 8601 with
// microseconds and an explicit UTC zone, as jupyter_client writes it.
const isoDate = "2006-01-02T15:04:05.000000Z07:00"

// newHeader returns a header for a new message of type msgType in session.
func newHeader(msgType, session string) Header {
	return Header{
		MsgID:    uuid.NewString(),
		Session:  session,
		Username: "kernel",
		Date:     time.Now().UTC().Format(isoDate),
		MsgType:  msgType,
		Version:  ProtocolVersion,
	}
}

// newMessage builds a message of type msgType answering parent (nil for
// none), with content marshalled to JSON.
func newMessage(msgType, session string, parent *Header, content any) (*Message, error) {
	raw, err := json.Marshal(content)
	if err != nil {
		return nil, err
	}
	return &Message{
		Header:       newHeader(msgType, session),
		ParentHeader: parent,
		Content:      raw,
	}, nil
}
