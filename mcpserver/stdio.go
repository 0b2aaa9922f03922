package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sbirtools/sbir-kernel/internal/textcut"
)

// maxStdioLine bounds one message on stdio, as the SDK's own default.
const maxStdioLine = mcp.DefaultMaxLineLength

// ServeStdio serves one client on r and w (newline-delimited JSON-RPC) until
// r ends or ctx does, then closes every session.
//
// The SDK's stdio transport ends the connection, and with it every
// session, at the first line that is not JSON. Here each line is checked
// first: a line that is not one JSON object, or not JSON-RPC 2.0, is
// answered with a JSON-RPC error (-32700 parse error, -32600 invalid
// request) naming the line, and the connection carries on.
func (s *Server) ServeStdio(ctx context.Context, r io.Reader, w io.Writer) error {
	out := &lockedWriter{w: w}
	pr, pw := io.Pipe()
	go func() { pw.CloseWithError(filterLines(r, pw, out)) }()
	return s.Run(ctx, &mcp.IOTransport{Reader: pr, Writer: out})
}

// lockedWriter serialises whole-message writes of the SDK and of
// filterLines (the SDK writes each message with one Write call).
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (l *lockedWriter) Close() error { return nil }

// filterLines copies the valid JSON-RPC lines of r to dst and answers the
// others on out.
func filterLines(r io.Reader, dst io.Writer, out io.Writer) error {
	br := bufio.NewReaderSize(r, 64<<10)
	for lineNo := 1; ; lineNo++ {
		line, tooLong, err := readLine(br, maxStdioLine)
		if len(bytes.TrimSpace(line)) > 0 || tooLong {
			if msg, code, id := checkMessage(line, tooLong); msg != "" {
				writeRPCError(out, id, code, fmt.Sprintf("line %d: %s", lineNo, msg))
			} else if _, werr := dst.Write(append(line, '\n')); werr != nil {
				return werr
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// readLine reads one line without its newline; past limit bytes it
// discards the rest of the line and reports tooLong.
func readLine(br *bufio.Reader, limit int) (line []byte, tooLong bool, err error) {
	for {
		chunk, isPrefix, rerr := br.ReadLine()
		if len(line)+len(chunk) > limit {
			tooLong = true
		} else {
			line = append(line, chunk...)
		}
		if rerr != nil {
			return line, tooLong, rerr
		}
		if !isPrefix {
			return line, tooLong, nil
		}
	}
}

// checkMessage returns why a line is not a JSON-RPC 2.0 message ("" when it
// is one), the error code, and its id when it has one.
func checkMessage(line []byte, tooLong bool) (msg string, code int, id json.RawMessage) {
	if tooLong {
		return fmt.Sprintf("message longer than %d bytes", maxStdioLine), -32700, nil
	}
	if !json.Valid(line) {
		var v any
		err := json.Unmarshal(line, &v)
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return fmt.Sprintf("not JSON (%v at byte %d): send each JSON-RPC message as one JSON object on one line", se, se.Offset), -32700, nil
		}
		return "not JSON: send each JSON-RPC message as one JSON object on one line", -32700, nil
	}
	trimmed := bytes.TrimSpace(line)
	if len(trimmed) > 0 && trimmed[0] == '[' {
		// A batch: the SDK answers its elements, but ends the connection
		// at an element it cannot decode, as at a line.
		var elems []json.RawMessage
		if err := json.Unmarshal(trimmed, &elems); err != nil {
			return "not a JSON-RPC batch: expected an array of JSON-RPC objects", -32600, nil
		}
		for i, e := range elems {
			if msg, code, _ := checkObject(e); msg != "" {
				return fmt.Sprintf("batch element %d: %s", i+1, msg), code, nil
			}
		}
		return "", 0, nil
	}
	return checkObject(line)
}

// checkObject checks one JSON-RPC message (the line is valid JSON) for
// what the SDK needs to decode it: the SDK ends the connection at an id it
// cannot represent or an error that is not an error object, and reads an
// id with a fraction or beyond 64 bits as another id.
func checkObject(data []byte) (msg string, code int, id json.RawMessage) {
	var m struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Method  *string         `json:"method"`
		Result  json.RawMessage `json:"result"`
		Error   json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(data, &m); err != nil {
		return "not a JSON-RPC message: expected an object with \"jsonrpc\": \"2.0\"", -32600, nil
	}
	if m.ID != nil {
		if why := badID(m.ID); why != "" {
			return why, -32600, nil
		}
	}
	switch {
	case m.JSONRPC != "2.0":
		return fmt.Sprintf("\"jsonrpc\" is %q, want \"2.0\"", m.JSONRPC), -32600, m.ID
	case m.Method == nil && m.Result == nil && m.Error == nil:
		return "neither a request (\"method\") nor a response (\"result\" or \"error\")", -32600, m.ID
	case m.Error != nil:
		var e struct {
			Code    *int64  `json:"code"`
			Message *string `json:"message"`
		}
		if err := json.Unmarshal(m.Error, &e); err != nil || e.Code == nil || e.Message == nil {
			return "\"error\" must be an object with an integer \"code\" and a string \"message\"", -32600, m.ID
		}
	}
	return "", 0, nil
}

// badID says why id (present) is not one the SDK answers under itself, or
// returns "".
func badID(id json.RawMessage) string {
	t := bytes.TrimSpace(id)
	switch {
	case len(t) > 0 && t[0] == '"':
		return ""
	case string(t) == "null":
		return "\"id\" is null: give a string or an integer, or leave \"id\" out for a notification"
	case len(t) > 0 && (t[0] == '-' || t[0] >= '0' && t[0] <= '9'):
		if _, err := strconv.ParseInt(string(t), 10, 64); err != nil {
			shown := shorten(string(t), 40)
			return fmt.Sprintf("\"id\" %s is not an integer of at most 64 bits: give a string or such an integer", shown)
		}
		return ""
	}
	shown := shorten(string(t), 40)
	return fmt.Sprintf("\"id\" %s is neither a string nor an integer: give one of those", shown)
}

func writeRPCError(w io.Writer, id json.RawMessage, code int, msg string) {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": code, "message": msg}})
	w.Write(append(b, '\n'))
}

// shorten cuts s to at most n bytes on a character boundary, marking a
// cut with " …", for quoting a client's input back to it.
func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return textcut.Prefix(s, n) + " …"
}
