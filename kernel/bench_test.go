package kernel

import "testing"

// BenchmarkExecuteRoundTrip measures a trivial cell over real sockets:
// execute_request sent to idle received (the reply included).
func BenchmarkExecuteRoundTrip(b *testing.B) {
	k := startKernel(b, Config{Logger: testLogger(b)})
	c := k.client
	b.ResetTimer()
	for b.Loop() {
		id := c.execute("value 1", nil)
		c.reply(c.shellC, id)
		c.untilIdle(id)
	}
}

// BenchmarkCodec measures encoding and decoding a signed execute_request.
func BenchmarkCodec(b *testing.B) {
	c := Codec{Key: []byte("secret")}
	m := testMessage()
	for b.Loop() {
		f, _ := c.Encode(m)
		if _, err := c.Decode(f); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkExecute1MiB measures a cell printing 1 MiB: execute_request
// sent to idle received, all output included.
func BenchmarkExecute1MiB(b *testing.B) {
	k := startKernel(b, Config{Logger: testLogger(b)})
	c := k.client
	b.SetBytes(1 << 20)
	for b.Loop() {
		id := c.execute("big 1048576", nil)
		c.reply(c.shellC, id)
		c.untilIdle(id)
	}
}
