// Package jsonscan finds where JSON values end in a byte slice without
// decoding them: the scan the queries file's fast reader and the load
// generator's response check both make over data they then judge
// themselves. It follows strings (and their escapes) and nesting; it does
// not validate numbers, literals or what a string holds — callers that need
// that check the extent they are given. It imports the standard library
// only (nothing: no package of the project).
package jsonscan

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
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1, true
		}
	}
	return 0, false
}
