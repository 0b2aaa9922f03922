package kernel

import "unicode/utf8"

// Stream messages carry most of a cell's output, so their content is
// encoded by hand: encoding/json spends most of its time on a 1 MiB write
// in its generic string path and in validating what a Marshaler returns.
// appendJSONString writes exactly what encoding/json writes for a string
// (HTML-safe escapes, U+2028/U+2029 escaped, invalid UTF-8 as U+FFFD), as
// FuzzAppendJSONString checks.

// jsonPlain[b] is 1 for the ASCII bytes copied unescaped, 0 for the
// others. A byte table rather than bools: plain8 ANDs eight entries.
var jsonPlain = func() (t [256]uint8) {
	for b := 0x20; b < utf8.RuneSelf; b++ {
		t[b] = 1
	}
	for _, b := range `"\<>&` {
		t[b] = 0
	}
	return t
}()

const hexDigits = "0123456789abcdef"

// appendJSONString appends s as a JSON string.
func appendJSONString[S ~string | ~[]byte](dst []byte, s S) []byte {
	dst = append(dst, '"')
	start := 0
	scalar := 0 // bytes before this index are examined one by one
	for i := 0; i < len(s); {
		// Skip eight plain ASCII bytes at a time; once a group of eight
		// holds something else, go through it byte by byte.
		if i >= scalar {
			for i+8 <= len(s) && plain8(s[i:i+8]) {
				i += 8
			}
			scalar = i + 8
			if i >= len(s) {
				break
			}
		}
		if b := s[i]; b < utf8.RuneSelf {
			if jsonPlain[b] != 0 {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch b {
			case '\\', '"':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default: // other control characters, <, >, &
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[b>>4], hexDigits[b&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := decodeRune(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// plain8 reports whether all eight bytes of s are plain ASCII (see
// jsonPlain). Eight table lookups ANDed run at ~3 GB/s here, twice the
// rate of testing a 64-bit word for each escaped byte ("has zero byte"
// tricks), which needs five comparisons and two range checks per word.
func plain8[S ~string | ~[]byte](s S) bool {
	_ = s[7]
	return jsonPlain[s[0]]&jsonPlain[s[1]]&jsonPlain[s[2]]&jsonPlain[s[3]]&
		jsonPlain[s[4]]&jsonPlain[s[5]]&jsonPlain[s[6]]&jsonPlain[s[7]] != 0
}

// decodeRune is utf8.DecodeRune for strings and byte slices.
func decodeRune[S ~string | ~[]byte](s S) (rune, int) {
	if b, ok := any(s).([]byte); ok {
		return utf8.DecodeRune(b)
	}
	return utf8.DecodeRuneInString(string(s))
}

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
	dst = appendJSONString(dst, name)
	dst = append(dst, `,"text":`...)
	dst = appendJSONString(dst, text)
	return append(dst, '}')
}
