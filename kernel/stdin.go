package kernel

import (
	"context"
	"fmt"
)

// input sends input_request on the stdin socket to the client that sent
// r (its routing identities) and waits for the matching input_reply.
func (s *server) input(ctx context.Context, r *request, prompt string, password bool) (string, error) {
	s.stdinMu.Lock()
	defer s.stdinMu.Unlock()
	// Replies to earlier, abandoned requests must not answer this one.
	for len(s.stdinQ) > 0 {
		<-s.stdinQ
	}
	m, err := newMessage(msgInputRequest, s.session, &r.msg.Header, map[string]any{"prompt": prompt, "password": password})
	if err != nil {
		return "", fmt.Errorf("input: %w", err)
	}
	m.Identities = r.msg.Identities
	frames, err := s.codec.Encode(m)
	if err != nil {
		return "", fmt.Errorf("input: %w", err)
	}
	if err := s.t.stdin.Send(frames); err != nil {
		return "", fmt.Errorf("input: send input_request: %w", err)
	}
	for {
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case <-s.ctx.Done():
			return "", s.ctx.Err()
		case rep := <-s.stdinQ:
			if rep.Header.MsgType != msgInputReply {
				s.log.Warn("ignoring unexpected message on stdin", "msg_type", rep.Header.MsgType)
				continue
			}
			if rep.ParentHeader != nil && rep.ParentHeader.MsgID != m.Header.MsgID {
				s.log.Warn("ignoring input_reply to another input_request", "parent", rep.ParentHeader.MsgID)
				continue
			}
			var c struct {
				Value string `json:"value"`
			}
			if err := decodeContent(&request{msg: rep}, &c); err != nil {
				return "", fmt.Errorf("input: %w", err)
			}
			return c.Value, nil
		}
	}
}
