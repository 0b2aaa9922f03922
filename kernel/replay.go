package kernel

import (
	"container/heap"
	"crypto/sha256"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/sbirtools/sbir-kernel/internal/textcut"
)

// Replay defence. jupyter_client's Session remembers a fixed number of
// recent signatures; so did this kernel (16,384), and a captured signed
// execute_request ran again once that many newer messages had pushed it
// out. A defence that forgets needs a second rule to cover what it has
// forgotten, and a message's header.date, which the signature covers,
// provides it:
//
//   - A message dated before floor is refused. floor starts one window
//     before the kernel's start and only rises. (Clients' clocks are not
//     the kernel's: JupyterLab dates messages with the browser's clock,
//     often minutes behind, and a floor at the start itself left such a
//     browser with a kernel that never answered. The price: a message
//     captured within the window before a restart that kept the key can be
//     replayed once after it.)
//   - A message dated more than the window ahead of the kernel's clock is
//     refused, so no message can be made to outlive the window.
//   - Within the window, signatures are remembered and a repeat is refused.
//     Entries leave the set once their date falls out of the window, and
//     floor rises to the window's start then, so they stay refused.
//   - The set holds at most max entries; evicting the oldest raises floor
//     to its date, so what is evicted stays refused too.
//
// Nothing is ever forgotten without floor covering it. The cost: clients'
// clocks must be within the window of the kernel's, and a client whose
// messages arrive out of date order by more than the eviction horizon sees
// the older ones refused.
const (
	// maxReplayEntries bounds the remembered signatures: ~45 bytes each
	// (a sigKey and a date in the heap, the key in the set), up to twice
	// that while the set doubles, so about 1.5 MB. What is evicted stays
	// refused (floor), so the bound only sets how far out of date order
	// messages may arrive: 16,384 newer ones. At 65,536 the set grew the
	// kernel by 8 MB over the first 65,536 cells, most of issue 14's
	// memory budget of 10 MB over 100,000.
	maxReplayEntries = 1 << 14
	// replayStartSlack is how long before the kernel's start a message may
	// be dated: as long as the window, so that a client whose clock is
	// behind the kernel's works from the first message (see above).
	replayStartSlack = DefaultReplayWindow
)

// Errors of the replay defence.
var (
	errReplayed    = errors.New("signature already seen: message replayed")
	errStale       = errors.New("message dated before the kernel started or outside the replay window (is the client's clock right?)")
	errFuture      = errors.New("message dated beyond the replay window ahead of the kernel's clock (is the client's clock right?)")
	errNoDate      = errors.New("header.date is missing or not an ISO 8601 date")
	errNoReplaySig = errors.New("message has no signature")
)

// sigKey identifies a signature: the first 128 bits of the SHA-256 of its
// lowercased hex. Two signatures sharing a key would make the second
// message refused as a replay; among 16,384 remembered ones, that chance
// is about 2⁻¹⁰¹.
type sigKey [16]byte

func newSigKey(lowerHex string) sigKey {
	sum := sha256.Sum256([]byte(lowerHex))
	return sigKey(sum[:16])
}

type seenSig struct {
	date int64 // header.date, Unix nanoseconds
	key  sigKey
}

// sigHeap orders remembered signatures by date, oldest first.
type sigHeap []seenSig

func (h sigHeap) Len() int           { return len(h) }
func (h sigHeap) Less(i, j int) bool { return h[i].date < h[j].date }
func (h sigHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *sigHeap) Push(x any)        { *h = append(*h, x.(seenSig)) }
func (h *sigHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// replayGuard refuses replayed signed messages; see the comment above.
type replayGuard struct {
	mu     sync.Mutex
	window time.Duration
	max    int
	floor  time.Time // messages dated at or before floor are refused
	seen   map[sigKey]struct{}
	byDate sigHeap
	now    func() time.Time
}

func newReplayGuard(start time.Time, window time.Duration, maxEntries int) *replayGuard {
	return &replayGuard{
		window: window,
		max:    maxEntries,
		floor:  start.Add(-min(replayStartSlack, window)),
		seen:   make(map[sigKey]struct{}),
		now:    time.Now,
	}
}

// check records the message signed sig (its hex signature frame) and
// dated date (its header.date), or says why it is refused.
func (g *replayGuard) check(sig []byte, date string) error {
	if len(sig) == 0 {
		return errNoReplaySig
	}
	d, err := parseHeaderDate(date)
	if err != nil {
		return fmt.Errorf("%w: %q", errNoDate, textcut.Prefix(date, 64))
	}
	// Hex is case-insensitive: "AB" and "ab" are the same signature.
	key := newSigKey(strings.ToLower(string(sig)))

	g.mu.Lock()
	defer g.mu.Unlock()
	now := g.now()
	if d.After(now.Add(g.window)) {
		return fmt.Errorf("%w: dated %s, kernel clock %s", errFuture, d.Format(time.RFC3339), now.UTC().Format(time.RFC3339))
	}
	// Forget what left the window; floor keeps it refused.
	if start := now.Add(-g.window); start.After(g.floor) {
		g.floor = start
	}
	for len(g.byDate) > 0 && g.byDate[0].date <= g.floor.UnixNano() {
		delete(g.seen, heap.Pop(&g.byDate).(seenSig).key)
	}
	if !d.After(g.floor) {
		return fmt.Errorf("%w: dated %s, accepting after %s", errStale, d.Format(time.RFC3339Nano), g.floor.UTC().Format(time.RFC3339Nano))
	}
	if _, ok := g.seen[key]; ok {
		return errReplayed
	}
	for len(g.byDate) >= g.max {
		old := heap.Pop(&g.byDate).(seenSig)
		delete(g.seen, old.key)
		if old := time.Unix(0, old.date); old.After(g.floor) {
			g.floor = old
		}
	}
	if !d.After(g.floor) {
		return fmt.Errorf("%w: dated %s, accepting after %s", errStale, d.Format(time.RFC3339Nano), g.floor.UTC().Format(time.RFC3339Nano))
	}
	g.seen[key] = struct{}{}
	heap.Push(&g.byDate, seenSig{date: d.UnixNano(), key: key})
	return nil
}

// parseHeaderDate parses a header date as jupyter_client writes it (ISO
// 8601 with a zone); a date without a zone, as old clients write, is UTC.
func parseHeaderDate(s string) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, nil
	}
	return time.Parse("2006-01-02T15:04:05.999999999", s)
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
