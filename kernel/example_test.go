package kernel_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/sbirtools/sbir-kernel/kernel"
)

// upperEvaluator is a tiny Evaluator: a cell's value is its code in upper case.
type upperEvaluator struct{}

func (upperEvaluator) Execute(ctx context.Context, code string, out kernel.Output) kernel.ExecuteResult {
	out.Stream("stdout", "running\n")
	return kernel.ExecuteResult{Value: &kernel.DisplayData{Data: map[string]any{"text/plain": strings.ToUpper(code)}}}
}
func (upperEvaluator) Complete(context.Context, string, int) (kernel.Completion, error) {
	return kernel.Completion{}, nil
}
func (upperEvaluator) Inspect(context.Context, string, int, int) (kernel.Inspection, error) {
	return kernel.Inspection{}, nil
}
func (upperEvaluator) IsComplete(string) (string, string) { return "complete", "" }
func (upperEvaluator) Close() error                       { return nil }

// Serve a kernel on free ports until the context is cancelled. A real
// kernel reads its ConnectionInfo with ReadConnectionFile and passes
// signal.Notify's channel as Config.Signals.
func ExampleServe() {
	ctx, cancel := context.WithCancel(context.Background())
	conn := kernel.ConnectionInfo{IP: "127.0.0.1", Key: "secret"} // ports 0: pick free ones
	res, err := kernel.Serve(ctx, conn, kernel.Config{
		Evaluator: upperEvaluator{},
		Banner:    "upper: a kernel that shouts",
		Ready: func(bound kernel.ConnectionInfo) {
			fmt.Println("listening:", bound.ShellPort != 0 && bound.IOPubPort != 0)
			cancel() // a real kernel runs until shutdown_request
		},
	})
	fmt.Println(res.Reason, err)
	// Output:
	// listening: true
	// context canceled <nil>
}

// Encode a message into signed ZeroMQ frames and decode it back.
func ExampleCodec() {
	codec := kernel.Codec{Key: []byte("secret")}
	frames, err := codec.Encode(&kernel.Message{
		Identities: [][]byte{[]byte("client")},
		Header:     kernel.Header{MsgID: "1", MsgType: "kernel_info_request", Version: kernel.ProtocolVersion},
		Content:    []byte(`{}`),
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(len(frames), string(frames[1]), len(frames[2]))
	m, err := codec.Decode(frames)
	fmt.Println(m.Header.MsgType, string(m.Identities[0]), err)

	frames[6] = []byte(`{"tampered": true}`)
	_, err = codec.Decode(frames)
	fmt.Println(err)
	// Output:
	// 7 <IDS|MSG> 64
	// kernel_info_request client <nil>
	// decode signature: HMAC signature does not match (is the key from the right connection file?)
}
