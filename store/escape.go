package store

// escapes maps a byte to the letter that follows a backslash in its escape
// (0: the byte stands for itself). The text formats gqlbench writes differ
// only in this table.
type escapes [256]byte

var (
	// copyEscapes: PostgreSQL's COPY text format.
	copyEscapes = escapeTable(map[byte]byte{'\\': '\\', '\t': 't', '\n': 'n', '\r': 'r'})
	// mysqlEscapes: a MySQL string literal in the default sql_mode.
	mysqlEscapes = escapeTable(map[byte]byte{0: '0', '\n': 'n', '\r': 'r', 0x1a: 'Z', '\\': '\\', '\'': '\''})
	// ntEscapes: an N-Triples string literal.
	ntEscapes = escapeTable(map[byte]byte{'"': '"', '\\': '\\', '\n': 'n', '\r': 'r'})
)

func escapeTable(m map[byte]byte) escapes {
	var t escapes
	for c, e := range m {
		t[c] = e
	}
	return t
}

// appendEscaped appends s with every byte that t escapes written as a
// backslash and its letter, copying the runs in between whole.
func appendEscaped(dst []byte, s string, t *escapes) []byte {
	clean := 0 // s[clean:i] needs no escaping
	for i := 0; i < len(s); i++ {
		esc := t[s[i]]
		if esc == 0 {
			continue
		}
		dst = append(dst, s[clean:i]...)
		dst = append(dst, '\\', esc)
		clean = i + 1
	}
	return append(dst, s[clean:]...)
}
