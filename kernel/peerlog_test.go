package kernel

import (
	"bytes"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
)

// lockedBuffer is a bytes.Buffer that a logger and the test share.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestBadMessageFloodIsSummarised: a peer without the key sent 326,445
// unsigned messages in 10 s, and the kernel logged a warning for each
// (61.7 MB of log; issue 30, item 7). The first peerLogBurst of a minute
// are logged; the rest are counted and summarised in one line.
func TestBadMessageFloodIsSummarised(t *testing.T) {
	var logs lockedBuffer
	k := startKernel(t, Config{Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	c := k.client
	wrong := *c
	wrong.codec = Codec{Key: []byte("not-the-connection-key")}
	const flood = 2000
	for range flood {
		c.sendFrames(c.shell, wrong.encode(c.message("kernel_info_request", map[string]any{})))
	}
	// One connection's messages are handled in order: once this is
	// answered, every bad one has been dropped.
	c.reply(c.shellC, c.send(c.shell, "kernel_info_request", map[string]any{}))
	k.cancel()
	if !k.wait(waitTime) {
		t.Fatal("Serve did not return")
	}
	out := logs.String()
	if n := strings.Count(out, `msg="dropping bad message"`); n != peerLogBurst {
		t.Errorf("%d bad messages logged one by one, want %d", n, peerLogBurst)
	}
	want := fmt.Sprintf("dropped %d more bad messages in the last minute (not logged one by one)", flood-peerLogBurst)
	if !strings.Contains(out, want) || !strings.Contains(out, "sockets=shell:") {
		t.Errorf("no summary %q in the log:\n%s", want, lastLogLines(out, 5))
	}
	if lines := strings.Count(out, "\n"); lines > 3*peerLogBurst {
		t.Errorf("%d bad messages made %d lines of log", flood, lines)
	}
}

// TestPeerLogWindows: each window logs its first peerLogBurst events of a
// kind and summarises the rest when it ends; kinds are counted apart.
func TestPeerLogWindows(t *testing.T) {
	var logs lockedBuffer
	l := newPeerLog(slog.New(slog.NewTextHandler(&logs, nil)), peerLogWindow)
	for range peerLogBurst + 5 {
		l.warn(eventBadMessage, "control", ErrBadSignature)
	}
	l.warn(eventEchoFailed, "heartbeat", nil)
	l.endWindow()
	for range 3 {
		l.warn(eventBadMessage, "shell", ErrBadSignature)
	}
	l.close()
	out := logs.String()
	for _, want := range []string{
		`msg="dropped 5 more bad messages in the last minute (not logged one by one)" sockets=control:5 last_err=`,
		"more of these in the next minute are counted, not logged",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the log lacks %q:\n%s", want, out)
		}
	}
	if n := strings.Count(out, `msg="dropping bad message"`); n != peerLogBurst+3 {
		t.Errorf("%d bad messages logged one by one over two windows, want %d", n, peerLogBurst+3)
	}
	if n := strings.Count(out, `msg="heartbeat echo failed"`); n != 1 {
		t.Errorf("%d echo failures logged, want 1", n)
	}
	if strings.Count(out, "not logged one by one") != 1 {
		t.Errorf("a window without dropped events was summarised:\n%s", out)
	}
}

// lastLogLines returns the last n lines of a log.
func lastLogLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
