package kernel

import (
	"fmt"
	"log/slog"
	"sort"
	"strings"
	"sync"
	"time"
)

// What peers can make the kernel log as often as they like, without the
// key: messages that fail to decode or verify, messages zmq4 could not
// receive, heartbeat echoes to peers that left. Logged one by one, 326,445
// unsigned messages in 10 s made 326,445 warnings (61.7 MB of log). Each
// kind is logged in full peerLogBurst times a window; the rest are counted
// and summarised when the window ends: a flood costs a few lines a minute.
const (
	peerLogWindow = time.Minute
	peerLogBurst  = 10
)

// peerEvent is a kind of event peerLog rate-limits.
type peerEvent int

const (
	eventBadMessage peerEvent = iota // a message failed to decode, verify or pass the replay check
	eventRecvError                   // zmq4 could not receive a message
	eventEchoFailed                  // a heartbeat echo could not be sent
	eventStalled                     // an iopub subscriber was disconnected for reading nothing
)

// text returns the warning logged one by one and the format of the
// summary of the rest (its %d is their count).
func (e peerEvent) text() (msg, summary string) {
	switch e {
	case eventBadMessage:
		return "dropping bad message", "dropped %d more bad messages"
	case eventRecvError:
		return "dropping a message that could not be received", "%d more messages could not be received"
	case eventStalled:
		return "disconnected an iopub subscriber that read nothing for the stall timeout; it misses the output sent until it reconnects",
			"disconnected %d more stalled iopub subscribers"
	default:
		return "heartbeat echo failed", "%d more heartbeat echoes failed"
	}
}

// peerLog rate-limits the warnings of peerEvents, per event, over windows
// of a fixed length (the first event of a quiet period starts one).
type peerLog struct {
	log    *slog.Logger
	window time.Duration

	mu     sync.Mutex
	counts map[peerEvent]*peerCount
	timer  *time.Timer // ends the current window; nil when none runs
	closed bool
}

// peerCount is what one event's window holds.
type peerCount struct {
	logged, dropped int
	sockets         map[string]int // of the dropped ones
	lastErr         string
}

func newPeerLog(log *slog.Logger, window time.Duration) *peerLog {
	return &peerLog{log: log, window: window, counts: map[peerEvent]*peerCount{}}
}

// warn logs ev on socket, or counts it once this window has logged
// peerLogBurst of them.
func (l *peerLog) warn(ev peerEvent, socket string, err error, attrs ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	c := l.counts[ev]
	if c == nil {
		c = &peerCount{sockets: map[string]int{}}
		l.counts[ev] = c
	}
	if l.timer == nil && !l.closed {
		l.timer = time.AfterFunc(l.window, l.endWindow)
	}
	if c.logged < peerLogBurst {
		c.logged++
		args := []any{"socket", socket}
		if err != nil {
			args = append(args, "err", err)
		}
		args = append(args, attrs...)
		if c.logged == peerLogBurst {
			args = append(args, "note", fmt.Sprintf("more of these in the next %s are counted, not logged", windowText(l.window)))
		}
		msg, _ := ev.text()
		l.log.Warn(msg, args...)
		return
	}
	c.dropped++
	c.sockets[socket]++
	if err != nil {
		c.lastErr = err.Error()
	}
}

// endWindow logs the summaries of the window that ends and starts afresh.
func (l *peerLog) endWindow() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.flushLocked()
	l.timer = nil
}

// close logs what the current window counted and stops its timer.
func (l *peerLog) close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.closed = true
	if l.timer != nil {
		l.timer.Stop()
		l.timer = nil
	}
	l.flushLocked()
}

func (l *peerLog) flushLocked() {
	for _, ev := range []peerEvent{eventBadMessage, eventRecvError, eventEchoFailed, eventStalled} {
		c := l.counts[ev]
		if c == nil || c.dropped == 0 {
			continue
		}
		_, summary := ev.text()
		l.log.Warn(fmt.Sprintf(summary+" in the last %s (not logged one by one)", c.dropped, windowText(l.window)),
			"sockets", socketCounts(c.sockets), "last_err", c.lastErr)
	}
	clear(l.counts)
}

// windowText names a window: "minute" for the default one.
func windowText(d time.Duration) string {
	if d == time.Minute {
		return "minute"
	}
	return d.String()
}

// socketCounts formats per-socket counts, e.g. "control:3 shell:120".
func socketCounts(m map[string]int) string {
	names := make([]string, 0, len(m))
	for name := range m {
		names = append(names, name)
	}
	sort.Strings(names)
	var b strings.Builder
	for i, name := range names {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%s:%d", name, m[name])
	}
	return b.String()
}
