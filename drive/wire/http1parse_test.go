package wire

import (
	"bytes"
	"strings"
	"testing"
)

// TestParseHeaderStrict: what RFC 9112 allows is read, what it does not is
// rejected with a message that names the fault.
func TestParseHeaderStrict(t *testing.T) {
	for _, c := range []struct {
		head             string
		status, length   int
		chunked, closing bool
		err              string
	}{
		{head: "HTTP/1.1 200 OK", status: 200, length: -1},
		{head: "HTTP/1.1 200", status: 200, length: -1}, // no reason phrase
		{head: "HTTP/1.1 404 ", status: 404, length: -1},
		{head: "HTTP/1.0 200 OK", status: 200, length: -1, closing: true},
		{head: "HTTP/1.0 200 OK\r\nConnection: keep-alive", status: 200, length: -1},
		{head: "HTTP/1.1 200 OK\r\nConnection: close", status: 200, length: -1, closing: true},
		{head: "HTTP/1.1 200 OK\r\nContent-Length: 12\r\ncontent-length: 12", status: 200, length: 12},
		{head: "HTTP/1.1 200 OK\r\nContent-Length: 12, 12", status: 200, length: 12},
		{head: "HTTP/1.1 200 OK\r\nTransfer-Encoding: Chunked", status: 200, length: -1, chunked: true},
		{head: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 5", status: 200, length: -1, chunked: true, closing: true},
		{head: "HTTP/1.1 2000K", err: `bad status line "HTTP/1.1 2000K"`},
		{head: "HTTP/1.1 20 OK", err: `bad status line "HTTP/1.1 20 OK"`},
		{head: "HTTP/1.1 099 Low", err: `bad status line "HTTP/1.1 099 Low"`},
		{head: "HTTP/1.1  200 OK", err: `bad status line "HTTP/1.1  200 OK"`},
		{head: "http/1.1 200 OK", err: `bad status line "http/1.1 200 OK"`},
		{head: "HTTP/1.9 200 OK", err: `unsupported HTTP version "HTTP/1.9"`},
		{head: "HTTP/2.0 200 OK", err: `unsupported HTTP version "HTTP/2.0"`},
		{head: "HTTP/1.1 200 OK\r\nContent-Length: 12\r\nContent-Length: 13", err: "two Content-Length values (12, 13)"},
		{head: "HTTP/1.1 200 OK\r\nContent-Length: 12, 13", err: "two Content-Length values (12, 13)"},
		{head: "HTTP/1.1 200 OK\r\nContent-Length: +12", err: `bad Content-Length "+12"`},
		{head: "HTTP/1.1 200 OK\r\nContent-Length:", err: `bad Content-Length ""`},
		{head: "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip", err: `Transfer-Encoding "gzip" does not end in chunked`},
		{head: "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked", err: `unsupported Transfer-Encoding "gzip, chunked"`},
		{head: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked, chunked", err: `unsupported Transfer-Encoding "chunked, chunked"`},
		{head: "HTTP/1.1 200 OK\r\nTransfer-Encoding: ,", err: `bad Transfer-Encoding ""`},
		{head: "HTTP/1.1 200 OK\r\nContent Length: 5", err: `bad header line "Content Length: 5"`},
		{head: "HTTP/1.1 200 OK\r\nContent-Length : 5", err: `bad header line "Content-Length : 5"`},
		{head: "HTTP/1.1 200 OK\r\n folded", err: `bad header line " folded"`},
	} {
		b := []byte(c.head + "\r\n\r\n")
		n, h, err := parseHeader(b, nil)
		status, length, chunked, closing := h.status, h.length, h.chunked, h.closing
		if c.err != "" {
			if err == nil || err.Error() != c.err {
				t.Errorf("%q: error %v, want %q", c.head, err, c.err)
			}
			continue
		}
		if err != nil || n != len(b) || status != c.status || length != c.length || chunked != c.chunked || closing != c.closing {
			t.Errorf("%q: %d %d %d %v %v %v, want %d %d %d %v %v", c.head, n, status, length, chunked, closing, err, len(b), c.status, c.length, c.chunked, c.closing)
		}
	}
}

// TestParseHeaderServerTiming: the Server-Timing fields' values are kept,
// several lines joined, case aside; none when there is none.
func TestParseHeaderServerTiming(t *testing.T) {
	for _, c := range []struct{ head, want string }{
		{"HTTP/1.1 200 OK\r\nContent-Length: 0\r\nServer-Timing: parse;dur=0.010, total;dur=1.000", "parse;dur=0.010, total;dur=1.000"},
		{"HTTP/1.1 200 OK\r\nserver-timing: db;dur=2\r\nContent-Length: 0\r\nSERVER-TIMING:  total;dur=3 ", "db;dur=2, total;dur=3"},
		{"HTTP/1.1 200 OK\r\nContent-Length: 0", ""},
	} {
		st := []byte("left over")[:0]
		if _, _, err := parseHeader([]byte(c.head+"\r\n\r\n"), &st); err != nil || string(st) != c.want {
			t.Errorf("%q: %q %v, want %q", c.head, st, err, c.want)
		}
	}
}

// TestLineEndExhaustive: lineEnd finds the CRLF a byte-by-byte loop finds,
// from starts before, at and after the byte tried (and some of the
// first), for every byte value at every position of slices of every length
// up to 40, with a lone CR, a lone LF or a CRLF next to it or a byte
// further on, and a CR nine bytes before an LF.
func TestLineEndExhaustive(t *testing.T) {
	naive := func(b []byte, from int) int {
		for i := from; i+1 < len(b); i++ {
			if b[i] == '\r' && b[i+1] == '\n' {
				return i
			}
		}
		return -1
	}
	for n := 0; n <= 40; n++ {
		b := make([]byte, n)
		fill := func() {
			for i := range b {
				b[i] = 'a' + byte(i%26)
			}
		}
		fill()
		for pos := 0; pos < n; pos++ {
			for v := 0; v < 256; v++ {
				for _, after := range []string{"", "\r", "\n", "\r\n", "+\r", "+\n", "+\r\n"} {
					fill()
					b[pos] = byte(v)
					if pos+1+len(after) <= n { // a second special byte next or further on
						copy(b[pos+1:], after)
					}
					if pos >= 9 && v == '\n' { // and a CR a word before it
						b[pos-9] = '\r'
					}
					for _, from := range []int{0, 1, 2, 3, pos - 9, pos - 8, pos - 1, pos, pos + 1, n} {
						if from < 0 || from > n {
							continue
						}
						if got, want := lineEnd(b, from), naive(b, from); got != want {
							t.Fatalf("lineEnd(%q, %d) = %d, want %d", b, from, got, want)
						}
					}
				}
			}
		}
	}
}

// TestKnownFieldExact: knownField, which matches a line's first words
// against the known names, says a name is known only when it is one (in
// any case), a token followed by ':', and then says where it ends and which
// field it is as tokenEnd and fieldOf do; and it does know every known name
// with its ':' in any case, whatever follows it, when b holds the words that
// cover them. Every byte of each known
// name and its ':' is replaced by every byte value in turn.
func TestKnownFieldExact(t *testing.T) {
	known := map[string]bool{}
	for _, n := range knownNames {
		known[n.name] = true
	}
	check := func(b []byte) {
		t.Helper()
		k, id := knownField(b, 0)
		if k < 0 {
			return
		}
		if end := tokenEnd(b, 0); end != k || b[k] != ':' || !known[string(bytes.ToLower(b[:k]))] {
			t.Fatalf("knownField(%q) = %d: tokenEnd %d, a known name %v", b, k, end, known[string(bytes.ToLower(b[:k]))])
		}
		if want := fieldOf(b[:k]); id != want {
			t.Fatalf("knownField(%q): field %d, fieldOf %d", b, id, want)
		}
	}
	for _, n := range knownNames {
		for _, s := range []string{n.name, strings.ToUpper(n.name), strings.ToTitle(n.name[:1]) + n.name[1:]} {
			for _, tail := range []string{" 1\r\n\r\n", ":::::::::::::::::::::::::", strings.Repeat("\r\n", 16)} {
				b := []byte(s + ":" + tail)
				k, _ := knownField(b, 0)
				if words := (len(s) + 8) / 8; k != len(s) && words <= 4 && len(b) >= 8*words { // b holds the words
					t.Errorf("knownField(%q) = %d, want %d", b, k, len(s))
				}
				check(b)
				for pos := 0; pos <= len(s); pos++ {
					c := b[pos]
					for v := range 256 {
						b[pos] = byte(v)
						check(b)
					}
					b[pos] = c
				}
				// cut short: every prefix
				for end := range b {
					check(b[:end])
				}
			}
		}
	}
}

// TestPlainLengthExact: the Content-Length fast path reads a value only
// when contentLength reads the same from the trimmed value, and leaves all
// else to it.
func TestPlainLengthExact(t *testing.T) {
	for _, v := range []string{"31", " 31", "  31", "\t31", "31 ", "0", "007", "+1", "-1", "1 2", "1,1", "1, 2",
		"123456789012345", "1234567890123456", "", " ", "3\r1", "31\r", "31\n", "3a", "\xb31", "31\xa0", "9\x00"} {
		for _, end := range []string{"\r\n", "\r", "\n", "", "\r\r\n", "\n\r\n"} {
			b := []byte(":" + v + end)
			m, e := plainLength(b, 1)
			if e == 0 {
				continue
			}
			want, err := contentLength(bytes.TrimSpace(b[1:e]), -1)
			if err != nil || m != want || lineEnd(b, 1) != e {
				t.Errorf("plainLength(%q) = %d at %d; contentLength %d %v, line end %d", b, m, e, want, err, lineEnd(b, 1))
			}
		}
	}
}

// TestFastStatusLineExact: the common status line's fast path reads a line
// only as parseStatusLine reads it, with the same line end, and every
// status line with one byte changed to any value as well.
func TestFastStatusLineExact(t *testing.T) {
	for _, s := range []string{"HTTP/1.1 200 OK\r\nX: y\r\n\r\n", "HTTP/1.0 204 \r\n\r\n", "HTTP/1.1 100\r\n\r\n",
		"HTTP/1.1 999 OK\r\n\r\n", "HTTP/1.1 404 Not Found\r\n\r\n", "HTTP/1.1 200\r\nA: b\r\n\r\n"} {
		b := []byte(s)
		for pos := range b {
			c := b[pos]
			for v := range 256 {
				b[pos] = byte(v)
				for end := 0; end <= len(b); end++ {
					status, http10, eol := fastStatusLine(b[:end])
					if eol < 0 {
						continue
					}
					if want := lineEnd(b[:end], 0); eol != want {
						t.Fatalf("fastStatusLine(%q): line end %d, want %d", b[:end], eol, want)
					}
					ws, w10, err := parseStatusLine(b[:eol])
					if err != nil || ws != status || w10 != http10 {
						t.Fatalf("fastStatusLine(%q) = %d %v; parseStatusLine %d %v %v", b[:end], status, http10, ws, w10, err)
					}
				}
			}
			b[pos] = c
		}
		if _, _, eol := fastStatusLine(b); eol < 0 && len(b) >= 17 {
			t.Errorf("fastStatusLine(%q) left it to parseStatusLine", b)
		}
	}
}
