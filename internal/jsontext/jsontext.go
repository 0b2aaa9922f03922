// Package jsontext appends Go strings and byte slices as JSON strings,
// byte for byte as encoding/json writes them with HTML escaping off.
//
// Output messages and frames' table representations carry most of the
// bytes the kernel sends, so their strings are encoded by hand:
// encoding/json spends most of its time on a 1 MiB write in its generic
// string path and in validating what a Marshaler returns. HTML escaping
// is off because nothing reads these strings as HTML (ipykernel's
// json.dumps does not escape <, > and & either), and it keeps a table's
// text the width its reader expects.
package jsontext

import "unicode/utf8"

// plain[b] is 1 for the ASCII bytes copied unescaped, 0 for the others.
// A byte table rather than bools: plain8 ANDs eight entries.
var plain = func() (t [256]uint8) {
	for b := 0x20; b < utf8.RuneSelf; b++ {
		t[b] = 1
	}
	t['"'], t['\\'] = 0, 0
	return t
}()

const hexDigits = "0123456789abcdef"

// Append appends s to dst as a JSON string: quotes, backslashes and
// control characters escaped, U+2028 and U+2029 too (JavaScript reads
// them as line ends), each invalid UTF-8 byte as U+FFFD.
func Append[S ~string | ~[]byte](dst []byte, s S) []byte {
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
			if plain[b] != 0 {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			dst = appendEscaped(dst, b)
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

// appendEscaped appends the escape of an ASCII byte that is not plain.
func appendEscaped(dst []byte, b byte) []byte {
	switch b {
	case '\\', '"':
		return append(dst, '\\', b)
	case '\b':
		return append(dst, '\\', 'b')
	case '\f':
		return append(dst, '\\', 'f')
	case '\n':
		return append(dst, '\\', 'n')
	case '\r':
		return append(dst, '\\', 'r')
	case '\t':
		return append(dst, '\\', 't')
	}
	return append(dst, '\\', 'u', '0', '0', hexDigits[b>>4], hexDigits[b&0xF])
}

// plain8 reports whether all eight bytes of s are plain ASCII. Eight
// table lookups ANDed run at ~3 GB/s here, twice the rate of testing a
// 64-bit word for each escaped byte ("has zero byte" tricks), which needs
// five comparisons and two range checks per word.
func plain8[S ~string | ~[]byte](s S) bool {
	_ = s[7]
	return plain[s[0]]&plain[s[1]]&plain[s[2]]&plain[s[3]]&
		plain[s[4]]&plain[s[5]]&plain[s[6]]&plain[s[7]] != 0
}

// decodeRune is utf8.DecodeRune for strings and byte slices.
func decodeRune[S ~string | ~[]byte](s S) (rune, int) {
	if b, ok := any(s).([]byte); ok {
		return utf8.DecodeRune(b)
	}
	return utf8.DecodeRuneInString(string(s))
}
