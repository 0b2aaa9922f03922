package kernel

import (
	"fmt"
	"strings"
	"testing"

	"github.com/go-zeromq/zmq4"
)

// streamText returns the stdout and stderr text of the stream messages
// in ms.
func streamText(t *testing.T, ms []*Message) (stdout, stderr string) {
	var o, e strings.Builder
	for _, m := range ms {
		if m.Header.MsgType != "stream" {
			continue
		}
		c := content(t, m)
		if c["name"] == "stderr" {
			e.WriteString(c["text"].(string))
		} else {
			o.WriteString(c["text"].(string))
		}
	}
	return o.String(), e.String()
}

// TestStreamBuffersIntactAcrossSubscribers: while large stream messages
// reuse their content buffers, subscribers come and go: several read
// everything, one stalls until the publisher disconnects it and then
// dials again, and stdout and stderr interleave. Every reader must get
// every message intact and correctly signed (the clients' Decode checks
// the HMAC).
func TestStreamBuffersIntactAcrossSubscribers(t *testing.T) {
	k := startKernel(t, Config{})
	c := k.client
	others := []*testClient{k.connect(), k.connect()}
	for _, o := range others {
		defer o.close()
	}
	stall := func() zmq4.Socket {
		s := zmq4.NewSub(c.ctx)
		if err := s.Dial(k.conn.endpoint(k.conn.IOPubPort)); err != nil {
			t.Fatal(err)
		}
		s.SetOption(zmq4.OptionSubscribe, "")
		return s
	}
	slow := stall()
	defer slow.Close()

	const n, w = 40, 300 << 10
	var code strings.Builder
	var wantOut, wantErr strings.Builder
	for i := range n {
		fmt.Fprintf(&code, "chunks %d %d\n", i%3+1, w)
		for j := range i%3 + 1 {
			wantOut.WriteString(chunk(j, w))
		}
		fmt.Fprintf(&code, "eprint e%d\n", i)
		fmt.Fprintf(&wantErr, "e%d\n", i)
	}
	for round := range 3 {
		id := c.execute(code.String(), nil)
		if round == 1 {
			// Drop the stalled subscriber's socket and stall a new one
			// mid-cell.
			slow.Close()
			slow = stall()
		}
		c.reply(c.shellC, id)
		check := func(who string, ms []*Message) {
			out, errs := streamText(t, ms)
			if out != wantOut.String() || errs != wantErr.String() {
				g, wnt := out, wantOut.String()
				at := 0
				for at < min(len(g), len(wnt)) && g[at] == wnt[at] {
					at++
				}
				t.Fatalf("round %d, %s: stdout differs at byte %d (got %d of %d bytes); stderr equal: %v",
					round, who, at, len(g), len(wnt), errs == wantErr.String())
			}
		}
		check("client", c.untilIdle(id))
		for i, o := range others {
			check(fmt.Sprintf("subscriber %d", i), o.untilIdle(id))
		}
	}
}
