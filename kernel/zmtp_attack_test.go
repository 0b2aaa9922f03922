package kernel

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"
)

// Raw ZMTP 3.0 bytes, as a peer without the connection key can send them
// to any of the kernel's ports.
var (
	// zmtpGreeting is a ZMTP 3.0 greeting for the NULL mechanism, as
	// client (as-server 0).
	zmtpGreeting = func() []byte {
		g := make([]byte, 64)
		g[0], g[9] = 0xFF, 0x7F
		g[10], g[11] = 3, 0
		copy(g[12:], "NULL")
		return g
	}()
	// zmtpHugeFrame is a long frame header announcing 2^62 bytes.
	zmtpHugeFrame = append([]byte{0x06}, be64(0x4000000000000000)...)
)

func be64(n uint64) []byte { return binary.BigEndian.AppendUint64(nil, n) }

// zmtpReady returns a READY command for a peer of socket type typ.
func zmtpReady(typ string) []byte {
	body := []byte{5}
	body = append(body, "READY"...)
	body = append(body, byte(len("Socket-Type")))
	body = append(body, "Socket-Type"...)
	body = binary.BigEndian.AppendUint32(body, uint32(len(typ)))
	body = append(body, typ...)
	return append([]byte{0x04, byte(len(body))}, body...)
}

// rawZMTP connects to port on 127.0.0.1, sends payload and reads what
// the kernel answers until it closes the connection or a short while
// passes. It returns what was read.
func rawZMTP(t testing.TB, port int, payload []byte) []byte {
	t.Helper()
	c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), waitTime)
	if err != nil {
		t.Fatalf("dial %d: %v", port, err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(200 * time.Millisecond))
	c.Write(payload)
	var got bytes.Buffer
	io.Copy(&got, io.LimitReader(c, 1<<20))
	return got.Bytes()
}

// assertAlive checks that the kernel still answers kernel_info on shell
// and echoes on the heartbeat.
func (k *testKernel) assertAlive(t *testing.T) {
	t.Helper()
	cc := *k.client // report failures on t, which may be a fuzz target's
	cc.t = t
	c := &cc
	rep, _ := c.roundTrip(c.shell, c.shellC, "kernel_info_request", map[string]any{})
	if rep.Header.MsgType != "kernel_info_reply" {
		t.Fatalf("after the attack the kernel answered %s", rep.Header.MsgType)
	}
	ping := []byte(fmt.Sprintf("ping-%d", time.Now().UnixNano()))
	if err := c.hb.Send(zmq4.NewMsg(ping)); err != nil {
		t.Fatalf("heartbeat send: %v", err)
	}
	echo := make(chan []byte, 1)
	go func() {
		m, err := c.hb.Recv()
		if err == nil && len(m.Frames) == 1 {
			echo <- m.Frames[0]
		}
		close(echo)
	}()
	select {
	case got := <-echo:
		if !bytes.Equal(got, ping) {
			t.Fatalf("heartbeat echoed %q, want %q", got, ping)
		}
	case <-time.After(waitTime):
		t.Fatal("heartbeat no longer answers")
	}
}

// TestPreAuthHugeFrameDoesNotCrash sends, without the key, the 73 bytes
// that crashed zmq4 v0.17.0 (greeting, then a long frame of 2^62 bytes:
// "makeslice: len out of range") and a frame of 2^40 bytes after a valid
// READY (out of memory) to the heartbeat and shell ports, then checks the
// kernel still serves.
func TestPreAuthHugeFrameDoesNotCrash(t *testing.T) {
	k := startKernel(t, Config{})
	crash := append(append([]byte{}, zmtpGreeting...), zmtpHugeFrame...)
	if len(crash) != 73 {
		t.Fatalf("crasher is %d bytes, want 73", len(crash))
	}
	for _, port := range []struct {
		name string
		n    int
		typ  string
	}{{"heartbeat", k.conn.HBPort, "REQ"}, {"shell", k.conn.ShellPort, "DEALER"}} {
		t.Run(port.name+"/greeting+2^62", func(t *testing.T) {
			rawZMTP(t, port.n, crash)
			k.assertAlive(t)
		})
		t.Run(port.name+"/ready+2^40", func(t *testing.T) {
			p := append(append(append([]byte{}, zmtpGreeting...), zmtpReady(port.typ)...), 0x02)
			p = append(p, be64(1<<40)...)
			p = append(p, bytes.Repeat([]byte("A"), 64<<10)...)
			rawZMTP(t, port.n, p)
			k.assertAlive(t)
		})
	}
}

// FuzzKernelListeners sends arbitrary bytes, after a valid greeting or
// none, to one of the kernel's five ports through a real TCP connection
// and checks that the kernel still answers kernel_info and heartbeats.
func FuzzKernelListeners(f *testing.F) {
	crash := append(append([]byte{}, zmtpGreeting...), zmtpHugeFrame...)
	f.Add(byte(0), false, crash)
	f.Add(byte(4), false, crash)
	f.Add(byte(0), true, append(append(zmtpReady("DEALER"), 0x02), be64(1<<40)...))
	f.Add(byte(4), true, append(append(zmtpReady("REQ"), 0x02), be64(1<<40)...))
	f.Add(byte(4), true, append(zmtpReady("REQ"), 0x00, 0x01, 'x'))                 // no REQ delimiter
	f.Add(byte(2), true, append(zmtpReady("DEALER"), 0x04, 0x05, 4, 'P', 'I', 'N')) // short command
	f.Add(byte(3), true, append(zmtpReady("SUB"), 0x00, 0x02, 1, 'x', 0x00, 0x01, 'y'))
	f.Add(byte(1), true, append(zmtpReady("DEALER"), 0x04, 0x0d, 5, 'R', 'E', 'A', 'D', 'Y', 11, 'S', 'o', 'c', 'k', 'e', 't'))
	f.Add(byte(0), false, bytes.Repeat([]byte{0xff}, 100))
	k := startKernel(f, Config{})
	f.Fuzz(func(t *testing.T, port byte, greet bool, payload []byte) {
		ports := []int{k.conn.ShellPort, k.conn.ControlPort, k.conn.StdinPort, k.conn.IOPubPort, k.conn.HBPort}
		p := payload
		if greet {
			p = append(append([]byte{}, zmtpGreeting...), payload...)
		}
		rawZMTP(t, ports[int(port)%len(ports)], p)
		k.assertAlive(t)
	})
}
