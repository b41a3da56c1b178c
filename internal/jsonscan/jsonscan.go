// Package jsonscan finds where JSON values end in a byte slice without
// decoding them: the scan the queries file's fast reader and the load
// generator's response check both make over data they then judge
// themselves. It follows strings (and their escapes) and nesting; it does
// not validate numbers, literals or what a string holds — callers that need
// that check the extent they are given. It imports the standard library
// only (nothing: no package of the project).
package jsonscan

import (
	"encoding/binary"
	"math/bits"
)

// IsSpace says whether c is JSON white space.
func IsSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// SkipSpace returns the index of the first byte at or after i that is not
// white space (len(b) if none).
func SkipSpace(b []byte, i int) int {
	for i < len(b) && IsSpace(b[i]) {
		i++
	}
	return i
}

// ValueEnd returns the index after the JSON value starting at b[i]: a
// string, an object or array (to its matching close), or a scalar (up to
// the next delimiter or space). ok is false when the value is empty or
// unterminated.
func ValueEnd(b []byte, i int) (end int, ok bool) {
	if i >= len(b) {
		return 0, false
	}
	switch b[i] {
	case '"':
		return StringEnd(b, i)
	case '{', '[':
		depth := 0
		for i < len(b) {
			switch b[i] {
			case '"':
				e, ok := StringEnd(b, i)
				if !ok {
					return 0, false
				}
				i = e
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1, true
				}
			}
			i++
		}
		return 0, false
	default:
		s := i
		for i < len(b) && b[i] != ',' && b[i] != '}' && b[i] != ']' && !IsSpace(b[i]) {
			i++
		}
		return i, i > s
	}
}

// StringEnd returns the index after the string whose opening quote is
// b[i]; ok is false when it is unterminated.
func StringEnd(b []byte, i int) (end int, ok bool) {
	for i++; ; i++ {
		i = quoteOrEscape(b, i)
		switch {
		case i >= len(b):
			return 0, false
		case b[i] == '"':
			return i + 1, true
		}
		i++ // the escaped byte
	}
}

// Eight bytes at a time (SWAR): a word's bytes tested at once, a byte's
// high bit set where it matched. The lowest flagged byte is always a
// true match (a borrow only runs upwards), which is the one wanted.
const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// zeroBytes flags the zero bytes of x.
func zeroBytes(x uint64) uint64 { return (x - ones) & ^x & highs }

// quoteOrEscape returns the index of the first '"' or '\\' in b at or
// after i, len(b) if none.
func quoteOrEscape(b []byte, i int) int {
	for ; i+8 <= len(b); i += 8 {
		x := binary.LittleEndian.Uint64(b[i:])
		if m := zeroBytes(x^(ones*'"')) | zeroBytes(x^(ones*'\\')); m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
	}
	for ; i < len(b) && b[i] != '"' && b[i] != '\\'; i++ {
	}
	return i
}

// PlainEnd returns the index of the first byte at or after i that a plain
// string's contents cannot hold as they are — '"', '\\', a control
// character — or that is not ASCII (≥ 0x80); len(b) if none.
func PlainEnd(b []byte, i int) int {
	for ; i+8 <= len(b); i += 8 {
		x := binary.LittleEndian.Uint64(b[i:])
		// below 0x20: x − 0x20 borrows into the high bit of those bytes
		// (bytes ≥ 0x80 are flagged by x's own high bit anyway)
		m := ((x - ones*0x20) | x) & highs
		m |= zeroBytes(x^(ones*'"')) | zeroBytes(x^(ones*'\\'))
		if m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
	}
	for ; i < len(b); i++ {
		if c := b[i]; c == '"' || c == '\\' || c < 0x20 || c >= 0x80 {
			break
		}
	}
	return i
}
