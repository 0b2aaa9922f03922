package kernel

import (
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
	"unicode/utf8"
)

// request is one message being handled, with the socket its reply goes to.
type request struct {
	sock    socket
	channel string // "shell" or "control"
	msg     *Message
}

// handler handles one message type; a returned error becomes an error
// reply. shell and control say on which channels the type is accepted.
type handler struct {
	fn             func(s *server, r *request) error
	shell, control bool
}

// newHandlers builds the dispatch table: the one place that maps message
// types to handlers. A duplicate registration is a programming error.
func newHandlers() map[string]handler {
	t := make(map[string]handler)
	add := func(msgType string, fn func(*server, *request) error, shell, control bool) {
		if _, dup := t[msgType]; dup {
			panic("kernel: duplicate handler for " + msgType)
		}
		t[msgType] = handler{fn: fn, shell: shell, control: control}
	}
	const onShell, onControl = true, true
	add(msgKernelInfoRequest, (*server).handleKernelInfo, onShell, onControl)
	add(msgExecuteRequest, (*server).handleExecute, onShell, false)
	add(msgCompleteRequest, (*server).handleComplete, onShell, false)
	add(msgInspectRequest, (*server).handleInspect, onShell, false)
	add(msgIsCompleteRequest, (*server).handleIsComplete, onShell, false)
	add(msgHistoryRequest, (*server).handleHistory, onShell, onControl)
	add(msgCommInfoRequest, (*server).handleCommInfo, onShell, onControl)
	add(msgCommOpen, (*server).handleCommOpen, onShell, false)
	add(msgCommMsg, (*server).handleCommIgnored, onShell, false)
	add(msgCommClose, (*server).handleCommIgnored, onShell, false)
	add(msgShutdownRequest, (*server).handleShutdown, onShell, onControl)
	add(msgInterruptRequest, (*server).handleInterrupt, false, onControl)
	return t
}

// dispatch handles r between a busy and an idle status, both with r as
// parent. Unknown types are logged; handler errors and panics become
// error replies. The kernel keeps serving whatever happens.
func (s *server) dispatch(r *request) {
	parent := &r.msg.Header
	msgType := parent.MsgType
	// No new request starts while iopub is full: its statuses would
	// queue without limit. Interrupts and shutdowns get a second budget
	// of their own, so that they pass a queue filled by ordinary requests
	// and output but a flood of them is bounded too.
	room := publishQueueBytes
	if msgType == msgInterruptRequest || msgType == msgShutdownRequest {
		room = 2 * publishQueueBytes
	}
	s.pub.waitRoom(room)
	s.pub.status("busy", parent)
	defer s.pub.status("idle", parent)
	h, ok := s.handlers[msgType]
	if !ok {
		s.log.Warn("ignoring unknown message type", "msg_type", msgType, "channel", r.channel)
		return
	}
	if (r.channel == "shell" && !h.shell) || (r.channel == "control" && !h.control) {
		s.replyError(r, fmt.Errorf("%s is not accepted on the %s channel", msgType, r.channel))
		return
	}
	defer func() {
		if p := recover(); p != nil {
			s.log.Error("handler panicked", "msg_type", msgType, "panic", p, "stack", string(debug.Stack()))
			s.replyError(r, fmt.Errorf("internal error handling %s: %v", msgType, p))
		}
	}()
	if err := h.fn(s, r); err != nil {
		s.log.Warn("request failed", "msg_type", msgType, "err", err)
		s.replyError(r, err)
	}
}

// replyType returns the reply type of a request type, or "" for messages
// that have no reply (comm_msg, ...).
func replyType(msgType string) string {
	if base, ok := strings.CutSuffix(msgType, "_request"); ok {
		return base + "_reply"
	}
	return ""
}

// reply sends a reply of msgType to r's sender, with r as parent.
func (s *server) reply(r *request, msgType string, content any) {
	s.send(r.sock, r.msg.Identities, msgType, &r.msg.Header, content)
}

// send encodes and sends one message on a ROUTER socket.
func (s *server) send(sock socket, ids [][]byte, msgType string, parent *Header, content any) {
	m, err := newMessage(msgType, s.session, parent, content)
	if err != nil {
		s.log.Error("encode content", "msg_type", msgType, "err", err)
		return
	}
	m.Identities = ids
	frames, err := s.codec.Encode(m)
	if err != nil {
		s.log.Error("encode message", "msg_type", msgType, "err", err)
		return
	}
	if err := sock.Send(frames); err != nil {
		s.log.Warn("send failed", "msg_type", msgType, "err", err)
	}
}

// replyError answers r with status "error" describing err.
func (s *server) replyError(r *request, err error) {
	rt := replyType(r.msg.Header.MsgType)
	if rt == "" {
		return
	}
	ename, evalue := ErrorKernel, err.Error()
	var ee *ExecError
	if errors.As(err, &ee) {
		ename, evalue = ee.Name, ee.Value
	}
	s.reply(r, rt, errorContent{Status: "error", EName: ename, EValue: evalue, Traceback: []string{}})
}

// decodeContent unmarshals r's content into v.
func decodeContent(r *request, v any) error {
	if err := json.Unmarshal(r.msg.Content, v); err != nil {
		return fmt.Errorf("invalid %s content: %w", r.msg.Header.MsgType, err)
	}
	return nil
}

func (s *server) handleKernelInfo(r *request) error {
	s.reply(r, msgKernelInfoReply, s.info)
	return nil
}

func (s *server) handleComplete(r *request) error {
	var c struct {
		Code      string `json:"code"`
		CursorPos *int   `json:"cursor_pos"`
	}
	if err := decodeContent(r, &c); err != nil {
		return err
	}
	if err := s.checkCodeSize(c.Code); err != nil {
		return err
	}
	cursor := clampCursor(c.Code, c.CursorPos)
	comp, err := s.ev.Complete(s.ctx, c.Code, cursor)
	if err != nil {
		return fmt.Errorf("complete: %w", err)
	}
	n := utf8.RuneCountInString(c.Code)
	start, end := comp.CursorStart, comp.CursorEnd
	if len(comp.Matches) == 0 || start < 0 || start > n || end < start || end > n {
		start, end = cursor, cursor
	}
	matches := comp.Matches
	if matches == nil {
		matches = []string{}
	}
	s.reply(r, msgCompleteReply, completeReplyContent{
		Status: "ok", Matches: matches, CursorStart: start, CursorEnd: end, Metadata: nonNilMap(comp.Metadata),
	})
	return nil
}

func (s *server) handleInspect(r *request) error {
	var c struct {
		Code        string `json:"code"`
		CursorPos   *int   `json:"cursor_pos"`
		DetailLevel int    `json:"detail_level"`
	}
	if err := decodeContent(r, &c); err != nil {
		return err
	}
	if err := s.checkCodeSize(c.Code); err != nil {
		return err
	}
	in, err := s.ev.Inspect(s.ctx, c.Code, clampCursor(c.Code, c.CursorPos), c.DetailLevel)
	if err != nil {
		return fmt.Errorf("inspect: %w", err)
	}
	data := map[string]any{}
	if in.Found {
		data = mimeBundle(in.Data)
	}
	s.reply(r, msgInspectReply, inspectReplyContent{Status: "ok", Found: in.Found, Data: data, Metadata: nonNilMap(in.Metadata)})
	return nil
}

func (s *server) handleIsComplete(r *request) error {
	var c struct {
		Code string `json:"code"`
	}
	if err := decodeContent(r, &c); err != nil {
		return err
	}
	if len(c.Code) > s.cfg.maxCodeBytes() {
		// Too large to run, so not a cell: "invalid" makes a console run
		// it anyway, and the execute_request gets the explanation.
		s.reply(r, msgIsCompleteReply, isCompleteReplyContent{Status: "invalid"})
		return nil
	}
	status, indent := s.ev.IsComplete(c.Code)
	switch status {
	case "complete", "invalid", "unknown":
		indent = ""
	case "incomplete":
	default:
		status, indent = "unknown", ""
	}
	s.reply(r, msgIsCompleteReply, isCompleteReplyContent{Status: status, Indent: indent})
	return nil
}

// checkCodeSize refuses code over Config.MaxCodeBytes before the evaluator
// sees it (completion and inspection reach the same preparation code as
// execution).
func (s *server) checkCodeSize(code string) error {
	if e := codeTooLarge("the code", len(code), s.cfg.maxCodeBytes()); e != nil {
		return e
	}
	return nil
}

// clampCursor returns the cursor position in code points, defaulting to
// the end of code and clamped to it.
func clampCursor(code string, pos *int) int {
	n := utf8.RuneCountInString(code)
	if pos == nil || *pos > n {
		return n
	}
	return max(*pos, 0)
}

func (s *server) handleCommInfo(r *request) error {
	s.reply(r, msgCommInfoReply, map[string]any{"status": "ok", "comms": map[string]any{}})
	return nil
}

// handleCommOpen refuses every comm: the kernel registers no comm targets,
// so it closes the comm at once, as ipykernel does for an unknown target.
func (s *server) handleCommOpen(r *request) error {
	var c struct {
		CommID     string `json:"comm_id"`
		TargetName string `json:"target_name"`
	}
	if err := decodeContent(r, &c); err != nil {
		return err
	}
	s.log.Info("closing comm for unknown target", "target_name", c.TargetName, "comm_id", c.CommID)
	s.pub.publish(msgCommClose, &r.msg.Header, map[string]any{"comm_id": c.CommID, "data": map[string]any{}})
	return nil
}

// handleCommIgnored drops comm_msg and comm_close: no comm is ever open.
func (s *server) handleCommIgnored(r *request) error {
	s.log.Debug("ignoring message for unknown comm", "msg_type", r.msg.Header.MsgType)
	return nil
}
