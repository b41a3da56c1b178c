package wire

import "testing"

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
