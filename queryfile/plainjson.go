package queryfile

// plainJSON reports whether v is one JSON value of the plain form a
// generated file's variables take — {"row":1}, {"id":"12","tags":["a"]}
// — checked in one pass without encoding/json's scanner: no white space
// outside strings, strings of printable ASCII (escapes allowed, but none
// of <, > and &), numbers, literals, and objects and arrays of those
// nested at most maxPlainDepth deep. It is a fast path only: true means
// v is valid JSON that json.Marshal of a json.RawMessage writes back
// unchanged (compact, nothing to escape); false means nothing — the
// caller asks encoding/json, which decides.
func plainJSON(v []byte) bool {
	end, ok := plainValue(v, 0, 0)
	return ok && end == len(v)
}

// maxPlainDepth is how deep plainJSON follows objects and arrays; deeper
// values are encoding/json's to judge.
const maxPlainDepth = 16

// plainByte marks the bytes a plain string holds as they are: printable
// ASCII but the quote, the backslash and the characters encoding/json
// escapes for HTML.
var plainByte = func() (t [256]bool) {
	for c := 0x20; c < 0x7f; c++ {
		t[c] = true
	}
	for _, c := range `"\<>&` {
		t[c] = false
	}
	return t
}()

// plainValue returns the index after the plain value at v[i] (see
// plainJSON); ok is false when there is none.
func plainValue(v []byte, i, depth int) (end int, ok bool) {
	if i >= len(v) {
		return 0, false
	}
	switch c := v[i]; {
	case c == '"':
		return plainStringEnd(v, i)
	case c == '{' || c == '[':
		return plainContainerEnd(v, i, depth)
	case c == '-' || c >= '0' && c <= '9':
		return plainNumberEnd(v, i)
	case c == 't':
		return literalEnd(v, i, "true")
	case c == 'f':
		return literalEnd(v, i, "false")
	case c == 'n':
		return literalEnd(v, i, "null")
	}
	return 0, false
}

// plainContainerEnd returns the index after the plain object or array at
// v[i], at depth: its members ("key":value) or elements, comma-separated.
func plainContainerEnd(v []byte, i, depth int) (end int, ok bool) {
	object, closing := v[i] == '{', byte(']')
	if object {
		closing = '}'
	}
	if depth >= maxPlainDepth {
		return 0, false
	}
	i++
	if i < len(v) && v[i] == closing {
		return i + 1, true
	}
	for {
		if object {
			if i, ok = plainStringEnd(v, i); !ok || i >= len(v) || v[i] != ':' {
				return 0, false
			}
			i++
		}
		if i, ok = plainValue(v, i, depth+1); !ok || i >= len(v) {
			return 0, false
		}
		switch v[i] {
		case ',':
			i++
		case closing:
			return i + 1, true
		default:
			return 0, false
		}
	}
}

// plainStringEnd returns the index after the plain string at v[i].
func plainStringEnd(v []byte, i int) (end int, ok bool) {
	if i >= len(v) || v[i] != '"' {
		return 0, false
	}
	for i++; i < len(v); i++ {
		c := v[i]
		if plainByte[c] {
			continue
		}
		switch c {
		case '"':
			return i + 1, true
		case '\\':
			i++
			if i >= len(v) {
				return 0, false
			}
			switch v[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if i+4 >= len(v) || !isHex(v[i+1]) || !isHex(v[i+2]) || !isHex(v[i+3]) || !isHex(v[i+4]) {
					return 0, false
				}
				i += 4
			default:
				return 0, false
			}
		default: // a control character, <, >, &, a byte beyond ASCII
			return 0, false
		}
	}
	return 0, false
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

// plainNumberEnd returns the index after the JSON number at v[i]:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func plainNumberEnd(v []byte, i int) (end int, ok bool) {
	if i < len(v) && v[i] == '-' {
		i++
	}
	switch {
	case i >= len(v):
		return 0, false
	case v[i] == '0':
		i++
	case v[i] >= '1' && v[i] <= '9':
		i = digitsEnd(v, i+1)
	default:
		return 0, false
	}
	if i < len(v) && v[i] == '.' {
		j := digitsEnd(v, i+1)
		if j == i+1 {
			return 0, false
		}
		i = j
	}
	if i < len(v) && (v[i] == 'e' || v[i] == 'E') {
		i++
		if i < len(v) && (v[i] == '+' || v[i] == '-') {
			i++
		}
		j := digitsEnd(v, i)
		if j == i {
			return 0, false
		}
		i = j
	}
	return i, true
}

func digitsEnd(v []byte, i int) int {
	for i < len(v) && v[i] >= '0' && v[i] <= '9' {
		i++
	}
	return i
}

// literalEnd returns the index after lit at v[i].
func literalEnd(v []byte, i int, lit string) (end int, ok bool) {
	if len(v)-i < len(lit) || string(v[i:i+len(lit)]) != lit {
		return 0, false
	}
	return i + len(lit), true
}
