package dataset

import (
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
// footer's length as int32 and "ARROW1" again. The messages are those
// checkArrowMetadata framed and checked, so nothing here parses again.
type mappedMessages struct {
	file []byte
	msgs []fbMessage // still to read
	cur  *ipc.Message
	refs int
}

func newMappedMessages(file []byte, msgs []fbMessage) *mappedMessages {
	return &mappedMessages{file: file, msgs: msgs, refs: 1}
}

// Message returns the next message, or io.EOF at the end of the stream.
func (m *mappedMessages) Message() (*ipc.Message, error) {
	if m.cur != nil {
		m.cur.Release()
		m.cur = nil
	}
	if len(m.msgs) == 0 {
		return nil, io.EOF
	}
	fm := m.msgs[0]
	m.msgs = m.msgs[1:]
	metaEnd := fm.offset + fm.metaLen
	meta := memory.NewBufferBytes(m.file[fm.offset+8 : metaEnd]) // after the marker and length
	body := memory.NewBufferBytes(m.file[metaEnd : metaEnd+fm.bodyLen])
	m.cur = ipc.NewMessage(meta, body)
	return m.cur, nil
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
