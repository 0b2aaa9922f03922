package kernel

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// slowSocket is an iopub socket whose subscriber reads slowly but never
// stalls: each send takes delay, far under the socket's stall timeout, so
// the subscriber is never disconnected.
type slowSocket struct {
	*memSocket
	delay time.Duration
	sent  atomic.Int64
}

func (s *slowSocket) Send(frames [][]byte) error {
	time.Sleep(s.delay)
	s.sent.Add(1)
	select {
	case <-s.out: // nobody reads the messages themselves: keep the channel from filling
	default:
	}
	return s.memSocket.Send(frames)
}

// TestSlowIOPubKeepsKernelMemoryBounded: a client floods cheap requests
// (kernel_info_request, with a large header, which every status message
// carries as its parent) while an iopub subscriber reads slowly. Each
// request queues a busy and an idle status, which never wait for room in
// the iopub queue; unless the kernel stops taking requests while the queue
// is full, the queue, and the kernel's memory, grow with the flood.
func TestSlowIOPubKeepsKernelMemoryBounded(t *testing.T) {
	iopub := &slowSocket{memSocket: newMemSocket(), delay: 2 * time.Millisecond}
	shell := newMemSocket()
	tr := transport{shell, newMemSocket(), newMemSocket(), iopub, newMemSocket()}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		serve(ctx, tr, []byte(testKey), Config{Evaluator: &scriptEvaluator{}, Logger: testLogger(t)})
	}()
	t.Cleanup(func() { cancel(); <-done })

	codec := Codec{Key: []byte(testKey)}
	const (
		requests  = 600
		headerPad = 64 << 10 // bytes of header each status repeats
	)
	go func() {
		for range requests {
			h := newHeader("kernel_info_request", "s1")
			h.Username = strings.Repeat("u", headerPad)
			m := &Message{Identities: [][]byte{[]byte("client-1")}, Header: h, Content: []byte(`{}`)}
			select {
			case shell.in <- codec.mustEncode(t, m):
			case <-ctx.Done():
				return
			}
		}
	}()
	// Every reply on shell means its busy status was queued before it.
	// What the kernel holds for iopub is then at least the statuses of
	// the requests answered (plus "starting") minus what was sent.
	maxQueued := int64(0)
	deadline := time.After(30 * time.Second)
	for replies := int64(1); replies <= requests; replies++ {
		select {
		case <-shell.out:
		case <-deadline:
			t.Fatalf("%d of %d replies in 30 s", replies-1, requests)
		}
		maxQueued = max(maxQueued, 1+replies-iopub.sent.Load())
	}
	const perStatus = headerPad + 512
	if limit := int64(publishQueueBytes/perStatus + 8); maxQueued > limit {
		t.Errorf("the kernel held up to %d unsent status messages (%d MiB) for a slow iopub subscriber; "+
			"the iopub queue is %d MiB (at most %d such messages)",
			maxQueued, maxQueued*perStatus>>20, publishQueueBytes>>20, limit)
	}
}
