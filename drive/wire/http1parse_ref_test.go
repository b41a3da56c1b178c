package wire

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// refParseHeader is the header parser parseHeader replaced (one
// bytes.Index per line, a strings.IndexByte per byte of a field name, every
// value trimmed), kept as the reference it must agree with: on a header
// whole in h (up to its empty line), the same status, length, chunked,
// closing and Server-Timing, or the same error.
func refParseHeader(h []byte, timing *[]byte) (status, length int, chunked, closing bool, err error) {
	length = -1
	eol := bytes.Index(h, crlf2[:2])
	line := h[:eol]
	if status, closing, err = parseStatusLine(line); err != nil {
		return 0, 0, false, false, err
	}
	http10 := closing
	var te []byte
	for p := eol + 2; p < len(h)-2; {
		e := p + bytes.Index(h[p:], crlf2[:2])
		field := h[p:e]
		p = e + 2
		colon := bytes.IndexByte(field, ':')
		if colon <= 0 || !refIsToken(field[:colon]) {
			return 0, 0, false, false, protocolError{fmt.Sprintf("bad header line %.40q", field)}
		}
		name, value := field[:colon], bytes.TrimSpace(field[colon+1:])
		switch {
		case foldEqual(name, "content-length"):
			if length, err = contentLength(value, length); err != nil {
				return 0, 0, false, false, err
			}
		case foldEqual(name, "transfer-encoding"):
			if len(te) > 0 {
				te = append(te, ',')
			}
			te = append(te, value...)
		case timing != nil && foldEqual(name, "server-timing"):
			if len(*timing) > 0 {
				*timing = append(*timing, ", "...)
			}
			*timing = append(*timing, value...)
		case foldEqual(name, "connection"):
			if foldContains(value, "close") {
				closing = true
			} else if http10 && foldContains(value, "keep-alive") {
				closing = false
			}
		}
	}
	if te != nil {
		if err := transferEncoding(te); err != nil {
			return 0, 0, false, false, err
		}
		chunked = true
		if length >= 0 {
			length, closing = -1, true
		}
	}
	return status, length, chunked, closing, nil
}

func refIsToken(b []byte) bool {
	for _, c := range b {
		if c <= ' ' || c >= 0x7f || strings.IndexByte(`"(),/:;<=>?@[\]{}`, c) >= 0 {
			return false
		}
	}
	return len(b) > 0
}

// checkAsReference checks parseHeader on b against refParseHeader: every
// prefix of b without the header's empty line asks for more and reports no
// fault; b itself (and any longer prefix) parses as the reference parses
// the header, its length included. It says whether the header was whole and
// accepted.
func checkAsReference(t *testing.T, b []byte) (ok bool) {
	t.Helper()
	q := bytes.Index(b, crlf2)
	for k := 0; k <= len(b); k++ {
		var st []byte
		n, h, err := parseHeader(b[:k], &st)
		if q < 0 || k < q+4 {
			if n != 0 || err != nil {
				t.Fatalf("%q: prefix of %d bytes, without its end: %d %v, want 0 and no error", b, k, n, err)
			}
			continue
		}
		var rst []byte
		status, length, chunked, closing, rerr := refParseHeader(b[:q+4], &rst)
		if fmt.Sprint(err) != fmt.Sprint(rerr) {
			t.Fatalf("%q (%d bytes): error %v, the reference's %v", b, k, err, rerr)
		}
		if rerr != nil {
			continue
		}
		ok = true
		got := respHeader{status, length, chunked, closing}
		if n != q+4 || h != got || string(st) != string(rst) {
			t.Fatalf("%q (%d bytes): %d %+v timing %q, the reference's %d %+v timing %q", b, k, n, h, st, q+4, got, rst)
		}
		// without timing, as the transport without --layers parses
		if n2, h2, err2 := parseHeader(b[:k], nil); n2 != n || h2 != h || err2 != nil {
			t.Fatalf("%q (%d bytes), no timing: %d %+v %v, want %d %+v", b, k, n2, h2, err2, n, h)
		}
	}
	return ok
}

// TestParseHeaderAsReference: on headers made at random from valid and
// broken parts (bad names, lone CRs and LFs, folded lines, conflicting
// lengths, odd codings, 1xx and HTTP/1.0 status lines, bytes flipped at
// random), with every prefix of each, the one-pass parser says exactly
// what the parser it replaced says, and asks for more bytes exactly when
// the header's empty line has not arrived.
func TestParseHeaderAsReference(t *testing.T) {
	statuses := []string{"HTTP/1.1 200 OK", "HTTP/1.1 200", "HTTP/1.0 200 OK", "HTTP/1.1 204 No Content",
		"HTTP/1.1 100 Continue", "HTTP/1.1 404 ", "HTTP/1.1 2000K", "HTTP/2.0 200 OK", "http/1.1 200 OK", ""}
	names := []string{"Content-Length", "content-length", "CONTENT-LENGTH", "Transfer-Encoding", "Server-Timing",
		"server-timing", "Connection", "Date", "Content-Type", "X-A", "Content Length", "Bad@Name", "", " folded",
		"Conn\rection", "Content-Length ", "x\x7f", "é"}
	values := []string{" 31", "31", " 12, 12", " 12, 13", " +5", "", " chunked", " Chunked", " gzip, chunked",
		" chunked, chunked", " ,", " close", " keep-alive", " Keep-Alive, Upgrade", "\t db;dur=2 ", " a\rb", " a\nb",
		" \xc2\xa0x\xc2\xa0", " application/json; charset=utf-8", " Fri, 27 Nov 2026 11:51:37 GMT", ":", " 99999999999999999"}
	ends := []string{"\r\n", "\r\n", "\r\n", "\r\n", "\n", "\r", "\r\r\n", "\n\r\n"}
	flip := "\r\n: \t\x00\x7fA,"
	rng := rand.New(rand.NewPCG(1, 2))
	pick := func(s []string) string { return s[rng.IntN(len(s))] }
	accepted := 0
	for range 3000 {
		var b []byte
		if rng.IntN(8) > 0 {
			b = append(b, statuses[rng.IntN(4)]...)
		} else {
			b = append(b, pick(statuses)...)
		}
		b = append(b, "\r\n"...)
		for range rng.IntN(6) {
			b = append(b, pick(names)...)
			switch rng.IntN(10) {
			case 0:
			case 1:
				b = append(b, " :"...)
			default:
				b = append(b, ':')
			}
			b = append(b, pick(values)...)
			b = append(b, pick(ends)...)
		}
		if rng.IntN(10) > 0 {
			b = append(b, "\r\n"...)
		}
		if rng.IntN(3) == 0 {
			b = append(b, `{"data":{"__typename":"Query"}}`...)
		}
		if rng.IntN(3) == 0 && len(b) > 0 {
			b[rng.IntN(len(b))] = flip[rng.IntN(len(flip))]
		}
		if checkAsReference(t, b) {
			accepted++
		}
	}
	if accepted < 300 || accepted > 2700 { // both sides of the parser are tried
		t.Errorf("%d of 3000 headers accepted", accepted)
	}
}

// FuzzParseHeader: any bytes, as TestParseHeaderAsReference.
func FuzzParseHeader(f *testing.F) {
	for _, s := range []string{
		"HTTP/1.1 200 OK\r\nContent-Length: 31\r\nContent-Type: application/json\r\nDate: x\r\n\r\n{}",
		"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n",
		"HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nServer-Timing: a;dur=1\r\nserver-timing: b\r\n\r\n",
		"HTTP/1.1 200 OK\r\n folded\r\n\r\n",
		"HTTP/1.1 200 OK\r\nX: a\rb\nc\r\n\r\n",
		"\r\n\r\n",
		"HTTP/1.1 200 OK\r\nContent-Type: application/graphql-response+json\r\nDate: Fri, 27 Nov 2026 18:00:00 GMT\r\nContent-Length: 31\r\n\r\n",
		"HTTP/1.1 200 OK\r\nContent\rLength: 31\r\nX-Abcdefghijklmnopqrstuv: 1\r\n\r\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 512 {
			return
		}
		checkAsReference(t, b)
	})
}

// BenchmarkParseHeader: the header of `gqlbench serve null`'s answer, the
// same fields shorter and in another order, another with application/json,
// and a longer one of a typical server.
func BenchmarkParseHeader(b *testing.B) {
	for _, c := range []struct{ name, head string }{
		{"serve", "HTTP/1.1 200 OK\r\nContent-Length: 31\r\nContent-Type: application/graphql-response+json; charset=utf-8\r\nDate: Fri, 27 Nov 2026 18:45:04 GMT\r\n\r\n"},
		{"short", "HTTP/1.1 200 OK\r\nContent-Type: application/graphql-response+json\r\nDate: Fri, 27 Nov 2026 18:00:00 GMT\r\nContent-Length: 31\r\n\r\n"},
		{"null", "HTTP/1.1 200 OK\r\nContent-Length: 31\r\nContent-Type: application/json; charset=utf-8\r\nDate: Fri, 27 Nov 2026 11:51:37 GMT\r\n\r\n"},
		{"typical", "HTTP/1.1 200 OK\r\nServer: nginx/1.25.3\r\nDate: Fri, 27 Nov 2026 11:51:37 GMT\r\nContent-Type: application/graphql-response+json; charset=utf-8\r\nContent-Length: 1234\r\nConnection: keep-alive\r\nVary: Origin, Accept-Encoding\r\nX-Request-Id: 7f3a2c9e-1d2b-4c5e-9f0a-b1c2d3e4f5a6\r\nAccess-Control-Allow-Origin: *\r\n\r\n"},
	} {
		b.Run(c.name, func(b *testing.B) {
			h := []byte(c.head)
			for b.Loop() {
				if n, _, err := parseHeader(h, nil); n != len(h) || err != nil {
					b.Fatal(n, err)
				}
			}
		})
	}
}

// BenchmarkRefParseHeader: the same with the parser parseHeader replaced,
// the header's end found first as readResponse found it.
func BenchmarkRefParseHeader(b *testing.B) {
	h := []byte("HTTP/1.1 200 OK\r\nContent-Length: 31\r\nContent-Type: application/json; charset=utf-8\r\nDate: Fri, 27 Nov 2026 11:51:37 GMT\r\n\r\n")
	for b.Loop() {
		e := bytes.Index(h, crlf2)
		if _, _, _, _, err := refParseHeader(h[:e+4], nil); err != nil {
			b.Fatal(err)
		}
	}
}

// TestParseHeaderAsReferenceFastPaths: as TestParseHeaderAsReference, on
// headers made to try the word-at-a-time paths: the known names in every
// case and with one byte changed (to CR, to a byte beyond ASCII, to a
// delimiter, to ':'; a '-' often), status lines with any byte changed, names of 7 to 9, 15 to 17, 23 to 25 and 32 to 33 bytes (about
// the words' edges), Content-Length values the fast path must leave alone,
// common status lines and their near misses, a body or none after the
// header, every prefix of each.
func TestParseHeaderAsReferenceFastPaths(t *testing.T) {
	statuses := []string{"HTTP/1.1 200 OK", "HTTP/1.1 200 OK", "HTTP/1.0 200 OK", "HTTP/1.1 204", "HTTP/1.1 100 Continue",
		"HTTP/1.1 200 OKAY", "HTTP/1.1 200 O", "HTTP/1.1 200 OK\r", "HTTP/1.1 200 OK\n", "HTTP/1.1 200\rOK", "HTTP/1.1 099 OK",
		"HTTP/1.1 2x0 OK", "HTTP/1.2 200 OK", "HTTP/1.1 200  OK", "HTTP/1.1\t200 OK", "HTTP/1.1 999 OK", "HTTP/1.1 200OK"}
	var names []string
	for _, n := range knownNames {
		names = append(names, n.name)
	}
	names = append(names, "x-abcde", "x-abcdef", "x-abcdefg", "x-abcdefghijklm", "x-abcdefghijklmn",
		"x-abcdefghijklmno", "x-abcdefghijklmnopqrstu", "x-abcdefghijklmnopqrstuv", "x-abcdefghijklmnopqrstuvw", "x-abcdefghijklmnopqrstuvwxyz1234", "x-abcdefghijklmnopqrstuvwxyz12345",
		"content-lengths", "content-lengt", "connection-x", "server-timings", "transfer-encodin", "dates", "dat",
		"x_under.score~", "Content-Length2", "keep_alive")
	values := []string{" 31", "31", "  31", "\t31", " 31 ", " 031", " 3 1", " 12, 12", " 12,13", " 1234567890123456",
		" 123456789012345", " chunked", " close", " keep-alive", " db;dur=2", "", " x", " a\rb", " a\nb", " a\n\nb", " a\r\rb",
		" application/graphql-response+json", " Fri, 27 Nov 2026 18:00:00 GMT", " \xc2\xa0", " 31\r"}
	fits := map[string][]string{
		"content-length": {" 31", "31", " 0", " 031", "\t31", " 31 ", " 3 1", " 12, 12", " 123456789012345",
			" 1234567890123456", " 99999999999999999999", " 31\r", " 3\n1", " -1", " 0x1f"},
		"transfer-encoding": {" chunked", " gzip, chunked", "chunked"},
		"connection":        {" close", " keep-alive", " Upgrade"},
		"server-timing":     {" a;dur=1", " db;dur=2, total;dur=3"},
	}
	spoil := "\r\n:\x80\xff@ \t_\x00-"
	rng := rand.New(rand.NewPCG(3, 4))
	pick := func(s []string) string { return s[rng.IntN(len(s))] }
	cased := func(s string) string {
		b := []byte(s)
		for i := range b {
			if rng.IntN(3) == 0 {
				b[i] = bytes.ToUpper(b[i : i+1])[0]
			}
		}
		return string(b)
	}
	accepted := 0
	for range 3000 {
		b := append([]byte(pick(statuses)), "\r\n"...)
		if rng.IntN(4) == 0 { // any byte anywhere in the status line
			b[rng.IntN(len(b))] = byte(rng.IntN(256))
		}
		for range rng.IntN(7) {
			name := []byte(cased(pick(names)))
			if rng.IntN(4) == 0 { // a byte spoilt, a '-' often
				at := rng.IntN(len(name))
				if i := bytes.IndexByte(name, '-'); i >= 0 && rng.IntN(2) == 0 {
					at = i
				}
				name[at] = spoil[rng.IntN(len(spoil))]
			}
			b = append(b, name...)
			b = append(b, ':')
			if rng.IntN(2) == 0 {
				b = append(b, pick(values)...)
			} else if fit := fits[strings.ToLower(string(name))]; fit != nil { // a value that fits the name
				b = append(b, pick(fit)...)
			}
			b = append(b, "\r\n"...)
		}
		b = append(b, "\r\n"...)
		if rng.IntN(2) == 0 {
			b = append(b, `{"data":{"__typename":"Query"}}`[:rng.IntN(32)]...)
		}
		if checkAsReference(t, b) {
			accepted++
		}
	}
	if accepted < 300 || accepted > 2700 { // both sides of the parser are tried
		t.Errorf("%d of 3000 headers accepted", accepted)
	}
}
