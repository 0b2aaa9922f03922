package dataset

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// mappedMessages is an ipc.MessageReader over the messages of an Arrow IPC
// file held in memory (a mapping). Message bodies are slices of the
// mapping, so arrays built from them read the file's pages directly.
//
// An Arrow file is "ARROW1" padded to 8 bytes, the IPC stream (schema,
// dictionaries, record batches, end-of-stream marker), the footer, the
// footer's length as int32 and "ARROW1" again.
type mappedMessages struct {
	data []byte // the message region
	off  int
	cur  *ipc.Message
	refs int
}

func newMappedMessages(file []byte) (*mappedMessages, error) {
	const head = 8
	n := len(file)
	if n < head+4+len(arrowMagic) {
		return nil, errors.New("file too short")
	}
	footerLen := int64(int32(binary.LittleEndian.Uint32(file[n-len(arrowMagic)-4:])))
	end := int64(n-len(arrowMagic)-4) - footerLen
	if footerLen <= 0 || end < head {
		return nil, fmt.Errorf("invalid footer length %d", footerLen)
	}
	return &mappedMessages{data: file[head:end], refs: 1}, nil
}

// Message returns the next message, or io.EOF at the end of the stream.
func (m *mappedMessages) Message() (*ipc.Message, error) {
	if m.cur != nil {
		m.cur.Release()
		m.cur = nil
	}
	rest := m.data[m.off:]
	if len(rest) == 0 {
		return nil, io.EOF
	}
	if len(rest) < 8 {
		return nil, fmt.Errorf("truncated message header at offset %d", m.off+8)
	}
	if binary.LittleEndian.Uint32(rest) != 0xFFFFFFFF {
		return nil, fmt.Errorf("no message continuation marker at offset %d", m.off+8)
	}
	metaLen := int(int32(binary.LittleEndian.Uint32(rest[4:])))
	if metaLen == 0 {
		m.off = len(m.data)
		return nil, io.EOF
	}
	if metaLen < 4 || metaLen > len(rest)-8 {
		return nil, fmt.Errorf("invalid message metadata length %d at offset %d", metaLen, m.off+8)
	}
	meta := memory.NewBufferBytes(rest[8 : 8+metaLen])
	bodyLen, err := messageBodyLen(meta)
	if err != nil {
		return nil, err
	}
	start := 8 + metaLen
	if bodyLen < 0 || bodyLen > int64(len(rest)-start) {
		return nil, fmt.Errorf("message body of %d bytes at offset %d runs past the end of the file", bodyLen, m.off+8)
	}
	body := memory.NewBufferBytes(rest[start : start+int(bodyLen)])
	m.off += start + int(bodyLen)
	m.cur = ipc.NewMessage(meta, body)
	return m.cur, nil
}

// messageBodyLen decodes the body length from message metadata, turning
// a panic on corrupt flatbuffers into an error.
func messageBodyLen(meta *memory.Buffer) (n int64, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("corrupt message metadata: %v", r)
		}
	}()
	msg := ipc.NewMessage(meta, memory.NewBufferBytes(nil))
	defer msg.Release()
	return msg.BodyLen(), nil
}

// Retain adds a reference. ipc.Reader calls it from one goroutine only.
func (m *mappedMessages) Retain() { m.refs++ }

// Release drops a reference; the last one releases the current message.
func (m *mappedMessages) Release() {
	m.refs--
	if m.refs <= 0 && m.cur != nil {
		m.cur.Release()
		m.cur = nil
	}
}

// nextRecord returns the reader's next record batch, nil at the end, and
// turns panics on corrupt input into errors.
func nextRecord(r *ipc.Reader) (rec arrow.RecordBatch, err error) {
	defer func() {
		if p := recover(); p != nil {
			rec, err = nil, fmt.Errorf("corrupt record batch: %v", p)
		}
	}()
	if r.Next() {
		return r.RecordBatch(), nil
	}
	if err := r.Err(); err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	return nil, nil
}
