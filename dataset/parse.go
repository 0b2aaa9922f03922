package dataset

import (
	"encoding/binary"
	"strconv"
	"unicode/utf8"
	"unsafe"
)

// trimSpace trims ASCII spaces and tabs.
func trimSpace(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t') {
		b = b[1:]
	}
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t') {
		b = b[:len(b)-1]
	}
	return b
}

// parseAmount parses a dollar amount: "148309.0000", "171,433",
// "$69,731.00", "-5". scratch is reused to hold the cleaned digits.
func parseAmount(b []byte, scratch []byte) (float64, []byte, bool) {
	b = trimSpace(b)
	scratch = scratch[:0]
	if len(b) > 0 && (b[0] == '-' || b[0] == '+') {
		scratch = append(scratch, b[0])
		b = b[1:]
	}
	if len(b) > 0 && b[0] == '$' {
		b = b[1:]
	}
	digits := 0
	for i, c := range b {
		switch {
		case c >= '0' && c <= '9':
			digits++
			scratch = append(scratch, c)
		case c == '.':
			scratch = append(scratch, c)
		case c == ',':
			// A thousands separator must sit between digits.
			if digits == 0 || i+1 >= len(b) || b[i+1] < '0' || b[i+1] > '9' {
				return 0, scratch, false
			}
		default:
			return 0, scratch, false
		}
	}
	if digits == 0 {
		return 0, scratch, false
	}
	f, err := strconv.ParseFloat(unsafe.String(unsafe.SliceData(scratch), len(scratch)), 64)
	return f, scratch, err == nil
}

// parseInt parses a decimal integer, accepting a zero fraction ("2024.0")
// as written by some spreadsheet exports.
func parseInt(b []byte) (int64, bool) {
	b = trimSpace(b)
	for i := len(b) - 1; i > 0; i-- {
		if b[i] == '.' {
			for _, c := range b[i+1:] {
				if c != '0' {
					return 0, false
				}
			}
			b = b[:i]
			break
		}
	}
	if len(b) == 0 || len(b) > 19 {
		return 0, false
	}
	neg := false
	if b[0] == '-' || b[0] == '+' {
		neg = b[0] == '-'
		b = b[1:]
		if len(b) == 0 {
			return 0, false
		}
	}
	var n int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	if neg {
		n = -n
	}
	return n, true
}

// parseDate parses YYYY-MM-DD or M/D/YYYY (leading zeros optional) and
// returns days since 1970-01-01. A trailing midnight time (" 00:00:00"),
// as written by some exports, is accepted.
func parseDate(b []byte) (int32, bool) {
	b = trimSpace(b)
	if len(b) > 10 {
		if i := indexByte(b, ' '); i > 0 && isMidnight(b[i+1:]) {
			b = b[:i]
		}
	}
	var y, m, d int
	var ok bool
	if len(b) == 10 && b[4] == '-' && b[7] == '-' {
		y, ok = atoiN(b[0:4])
		if ok {
			m, ok = atoiN(b[5:7])
		}
		if ok {
			d, ok = atoiN(b[8:10])
		}
	} else {
		i := indexByte(b, '/')
		if i < 1 || i > 2 {
			return 0, false
		}
		j := indexByte(b[i+1:], '/')
		if j < 1 || j > 2 {
			return 0, false
		}
		j += i + 1
		if len(b)-j-1 != 4 {
			return 0, false
		}
		m, ok = atoiN(b[:i])
		if ok {
			d, ok = atoiN(b[i+1 : j])
		}
		if ok {
			y, ok = atoiN(b[j+1:])
		}
	}
	if !ok || m < 1 || m > 12 || d < 1 || d > daysIn(y, m) || y < 1 {
		return 0, false
	}
	return daysFromCivil(y, m, d), true
}

func isMidnight(b []byte) bool {
	s := string(b)
	return s == "00:00:00" || s == "0:00" || s == "00:00" || s == "12:00:00 AM" || s == "00:00:00.000"
}

func indexByte(b []byte, c byte) int {
	for i, x := range b {
		if x == c {
			return i
		}
	}
	return -1
}

// atoiN parses an unsigned decimal of at most 4 digits.
func atoiN(b []byte) (int, bool) {
	if len(b) == 0 || len(b) > 4 {
		return 0, false
	}
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

func daysIn(y, m int) int {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// daysFromCivil returns the days since 1970-01-01 of a proleptic Gregorian
// date (Howard Hinnant's algorithm).
func daysFromCivil(y, m, d int) int32 {
	if m <= 2 {
		y--
	}
	era := y / 400
	if y < 0 && y%400 != 0 {
		era-- // floor division
	}
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return int32(era*146097 + doe - 719468)
}

// validUTF8 is utf8.Valid, faster on mostly-ASCII text: it skips 32 bytes
// at a time while they are ASCII and decodes runes only around the rest.
func validUTF8(b []byte) bool {
	const hi = 0x8080808080808080
	i := 0
	for i+32 <= len(b) {
		w := binary.LittleEndian.Uint64(b[i:]) | binary.LittleEndian.Uint64(b[i+8:]) |
			binary.LittleEndian.Uint64(b[i+16:]) | binary.LittleEndian.Uint64(b[i+24:])
		if w&hi == 0 {
			i += 32
			continue
		}
		// Decode past this block; i stays on a rune boundary.
		for end := i + 32; i < end; {
			if b[i] < utf8.RuneSelf {
				i++
				continue
			}
			r, size := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && size == 1 {
				return false
			}
			i += size
		}
	}
	return utf8.Valid(b[i:])
}

// CivilFromDays returns the proleptic Gregorian year, month (1-12) and
// day of a date stored as days since 1970-01-01, as the date columns
// hold it: the inverse of the parse's daysFromCivil.
func CivilFromDays(z32 int32) (y, m, d int) {
	z := int(z32) + 719468
	era := z / 146097
	if z < 0 && z%146097 != 0 {
		era--
	}
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	y = yoe + era*400
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d = doy - (153*mp+2)/5 + 1
	if mp < 10 {
		m = mp + 3
	} else {
		m = mp - 9
	}
	if m <= 2 {
		y++
	}
	return y, m, d
}
