package kernel

import "github.com/sbirtools/sbir-kernel/internal/jsontext"

// Stream messages carry most of a cell's output, so their content is
// encoded by hand (internal/jsontext), exactly as encoding/json marshals
// it with HTML escaping off, as TestAppendStreamJSON checks.

// streamJSONSize is the buffer to encode a stream message's content in:
// text, its quotes and name, and room for one escaped byte in sixteen (a
// newline per line of typical output) before it must grow.
func streamJSONSize[S ~string | ~[]byte](name string, text S) int {
	return len(text) + len(text)/16 + len(name) + 32
}

// appendStreamJSON appends the content of a stream message as
// encoding/json marshals streamContent{name, text}.
func appendStreamJSON[S ~string | ~[]byte](dst []byte, name string, text S) []byte {
	dst = append(dst, `{"name":`...)
	dst = jsontext.Append(dst, name)
	dst = append(dst, `,"text":`...)
	dst = jsontext.Append(dst, text)
	return append(dst, '}')
}
