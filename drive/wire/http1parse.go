package wire

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// readChunked decodes a chunked body that starts at p, compacting the
// chunks' data in place from p on. With decode false it only reads up to
// the body's end and leaves the bytes as they are: a Loop's read, which
// may stop for want of bytes and start again from the header, does that
// first (the decoding moves the bytes it would read again), going on from
// the chunk where its last try stopped (c.chunkScan, which the Loop
// zeroes for each exchange).
func (c *h1conn) readChunked(res *Response, p int, decode bool) error {
	dst := p
	body := p
	if !decode && c.chunkScan > p { // where the last scan of this body stopped
		p, dst = c.chunkScan, c.chunkDst
	}
	for {
		eol, err := c.line(res, p)
		if err != nil {
			return err
		}
		size, err := chunkSize(c.buf[p:eol])
		if err != nil {
			return err
		}
		p = eol + 2
		if size == 0 {
			for { // trailers, up to an empty line
				eol, err := c.line(res, p)
				if err != nil {
					return err
				}
				empty := eol == p
				p = eol + 2
				if empty {
					break
				}
			}
			if decode {
				res.Body = c.buf[body:dst]
				c.r = p
			}
			return nil
		}
		if dst-body+size > c.t.maxResp {
			return c.t.overLimit()
		}
		if err := c.need(res, p+size+2); err != nil {
			return err
		}
		if c.buf[p+size] != '\r' || c.buf[p+size+1] != '\n' {
			return protocolError{"chunk not followed by CRLF"}
		}
		if decode {
			copy(c.buf[dst:], c.buf[p:p+size])
		}
		dst += size
		p += size + 2
		if !decode { // a scan started again with more bytes goes on from here
			c.chunkScan, c.chunkDst = p, dst
		}
	}
}

// line returns the index of the CRLF that ends the line starting at p.
func (c *h1conn) line(res *Response, p int) (int, error) {
	scan := p
	for {
		if i := bytes.Index(c.buf[scan:c.w], crlf2[:2]); i >= 0 {
			return scan + i, nil
		}
		if c.w-p > 4096 {
			return 0, protocolError{"chunk header line too long"}
		}
		scan = max(p, c.w-1)
		if err := c.fill(res); err != nil {
			if errors.Is(err, io.EOF) {
				return 0, io.ErrUnexpectedEOF
			}
			return 0, err
		}
	}
}

func chunkSize(b []byte) (int, error) {
	if i := bytes.IndexByte(b, ';'); i >= 0 {
		b = b[:i]
	}
	b = bytes.TrimRight(b, " \t")
	if len(b) == 0 || len(b) > 8 {
		return 0, protocolError{fmt.Sprintf("bad chunk size %.20q", b)}
	}
	n := 0
	for _, ch := range b {
		var d byte
		switch {
		case ch >= '0' && ch <= '9':
			d = ch - '0'
		case ch >= 'a' && ch <= 'f':
			d = ch - 'a' + 10
		case ch >= 'A' && ch <= 'F':
			d = ch - 'A' + 10
		default:
			return 0, protocolError{fmt.Sprintf("bad chunk size %.20q", b)}
		}
		n = n<<4 | int(d)
	}
	return n, nil
}

// respHeader is what the client reads from a response's header: the
// status, the Content-Length (-1 if absent), whether the body is chunked
// and whether the server closes the connection after it.
type respHeader struct {
	status, length   int
	chunked, closing bool
}

// parseHeader parses the response header at the start of b — status line
// and header fields (RFC 9112) — strictly, once b holds all of it: n is
// its length up to and including the empty line that ends it, or 0 when
// that line is not in b yet (more must be read; no fault is reported
// before then, as none would be before the header had arrived whole).
// Every rejection says what was wrong, in a short message that is the same
// for every response with the same fault. When timing is not nil, the
// Server-Timing fields' values are appended to it, joined by ", " (load
// --layers reads them); after an n of 0 it may hold some of them.
//
// It makes one pass over the header: each line's end found with one
// IndexByte, a field's name checked against a table as it is read, the
// values of the four fields the client needs trimmed and read, the others
// only delimited.
func parseHeader(b []byte, timing *[]byte) (n int, h respHeader, err error) {
	eol := lineEnd(b, 0)
	if eol < 0 {
		return 0, h, nil
	}
	status, closing, err := parseStatusLine(b[:eol])
	if err != nil {
		return whole(b, err)
	}
	h = respHeader{status: status, length: -1, closing: closing}
	http10 := closing
	var te []byte // the Transfer-Encoding fields' values, joined by commas
	p := eol + 2
	for {
		rest := b[p:]
		if len(rest) < 2 {
			return 0, respHeader{}, nil
		}
		if rest[0] == '\r' && rest[1] == '\n' { // the empty line
			n = p + 2
			break
		}
		k := 0 // the field name's length
		for _, c := range rest {
			if !tokenChar[c] {
				break
			}
			k++
		}
		e := -1
		if k < len(rest) {
			e = lineEnd(rest, k)
		}
		if e < 0 {
			return 0, respHeader{}, nil
		}
		if k == 0 || rest[k] != ':' {
			return whole(b, protocolError{fmt.Sprintf("bad header line %.40q", rest[:e])})
		}
		field := rest[:e]
		p += e + 2
		switch k { // the fields the client reads
		case len("content-length"):
			if nameIs(field, &nameContentLength) {
				if h.length, err = contentLength(trimValue(field[k+1:]), h.length); err != nil {
					return whole(b, err)
				}
			}
		case len("transfer-encoding"):
			if nameIs(field, &nameTransferEncoding) {
				if len(te) > 0 {
					te = append(te, ',')
				}
				te = append(te, trimValue(field[k+1:])...)
			}
		case len("server-timing"):
			if timing != nil && nameIs(field, &nameServerTiming) {
				if len(*timing) > 0 {
					*timing = append(*timing, ", "...)
				}
				*timing = append(*timing, trimValue(field[k+1:])...)
			}
		case len("connection"):
			if nameIs(field, &nameConnection) {
				value := trimValue(field[k+1:])
				if foldContains(value, "close") {
					h.closing = true
				} else if http10 && foldContains(value, "keep-alive") {
					h.closing = false
				}
			}
		}
	}
	if te != nil {
		if err := transferEncoding(te); err != nil {
			return 0, respHeader{}, err
		}
		h.chunked = true
		if h.length >= 0 { // RFC 9112 §6.3: chunked wins, and the connection is not to be trusted after
			h.length, h.closing = -1, true
		}
	}
	return n, h, nil
}

// whole returns err when b holds the whole header (its empty line), and
// says that more must be read otherwise: a fault in a header is reported
// once the header is in, as with a header parsed only then.
func whole(b []byte, err error) (int, respHeader, error) {
	if bytes.Index(b, crlf2) < 0 {
		return 0, respHeader{}, nil
	}
	return 0, respHeader{}, err
}

// lineEnd returns the index of the first CRLF in b at or after from, -1
// if there is none. (A lone LF or CR is no line end.)
func lineEnd(b []byte, from int) int {
	for i := from; ; i++ {
		j := bytes.IndexByte(b[i:], '\n')
		if j < 0 {
			return -1
		}
		i += j
		if i > from && b[i-1] == '\r' {
			return i - 1
		}
	}
}

// parseStatusLine parses "HTTP/1.x SP 3DIGIT [SP reason]": the status, and
// whether the version is HTTP/1.0 (whose connections close by default).
func parseStatusLine(line []byte) (status int, http10 bool, err error) {
	if len(line) < 12 || string(line[:5]) != "HTTP/" || line[8] != ' ' {
		return 0, false, badStatusLine(line)
	}
	v := line[5:8]
	if v[0] < '0' || v[0] > '9' || v[1] != '.' || v[2] < '0' || v[2] > '9' {
		return 0, false, badStatusLine(line)
	}
	if v[0] != '1' || v[2] > '1' {
		return 0, false, protocolError{fmt.Sprintf("unsupported HTTP version %q", line[:8])}
	}
	for _, d := range line[9:12] {
		if d < '0' || d > '9' {
			return 0, false, badStatusLine(line)
		}
		status = status*10 + int(d-'0')
	}
	if status < 100 || len(line) > 12 && line[12] != ' ' {
		return 0, false, badStatusLine(line)
	}
	return status, v[2] == '0', nil
}

func badStatusLine(line []byte) error {
	return protocolError{fmt.Sprintf("bad status line %.40q", line)}
}

// contentLength parses a Content-Length value (a list of equal values is
// one value, RFC 9110 §8.6), which must agree with an earlier one, prev
// (-1: none).
func contentLength(value []byte, prev int) (int, error) {
	n := -1
	for len(value) > 0 {
		v := value
		if i := bytes.IndexByte(value, ','); i >= 0 {
			v, value = value[:i], value[i+1:]
		} else {
			value = nil
		}
		v = bytes.TrimSpace(v)
		if len(v) == 0 || len(v) > 15 {
			return 0, protocolError{fmt.Sprintf("bad Content-Length %.20q", v)}
		}
		m := 0
		for _, d := range v {
			if d < '0' || d > '9' {
				return 0, protocolError{fmt.Sprintf("bad Content-Length %.20q", v)}
			}
			m = m*10 + int(d-'0')
		}
		if n >= 0 && m != n {
			return 0, protocolError{fmt.Sprintf("two Content-Length values (%d, %d)", n, m)}
		}
		n = m
	}
	if n < 0 {
		return 0, protocolError{`bad Content-Length ""`}
	}
	if prev >= 0 && prev != n {
		return 0, protocolError{fmt.Sprintf("two Content-Length values (%d, %d)", prev, n)}
	}
	return n, nil
}

// transferEncoding accepts the one transfer coding the client decodes,
// chunked, alone: a request without a TE header allows the server no other
// (RFC 9112 §6.1, §7.4), and a response whose final coding is not chunked
// would have to be read to the connection's end and still decoded.
func transferEncoding(te []byte) error {
	codings := 0
	last := []byte(nil)
	for _, c := range bytes.Split(te, []byte(",")) {
		c = bytes.TrimSpace(c)
		if i := bytes.IndexByte(c, ';'); i >= 0 {
			c = bytes.TrimSpace(c[:i])
		}
		if len(c) == 0 {
			continue
		}
		codings++
		last = c
	}
	switch {
	case codings == 0:
		return protocolError{`bad Transfer-Encoding ""`}
	case !foldEqual(last, "chunked"):
		return protocolError{fmt.Sprintf("Transfer-Encoding %.40q does not end in chunked", te)}
	case codings > 1:
		return protocolError{fmt.Sprintf("unsupported Transfer-Encoding %.40q", te)}
	}
	return nil
}

// tokenChar says which bytes a header field name may hold (tchar, RFC
// 9110 §5.6.2): the visible ASCII characters but the delimiters.
var tokenChar = func() (t [256]bool) {
	for c := byte('!'); c <= '~'; c++ {
		t[c] = strings.IndexByte(`"(),/:;<=>?@[\]{}`, c) < 0
	}
	return t
}()

// fieldName is the name of a field the client reads, in lower case, as
// the 8-byte words (little-endian) that cover it: at 0 and 8, and the last
// 8 bytes (names of 8 to 24 bytes).
type fieldName struct {
	n     int
	words [3]uint64
}

func newFieldName(s string) fieldName {
	word := func(at int) uint64 { return binary.LittleEndian.Uint64([]byte(s[at : at+8])) }
	f := fieldName{n: len(s)}
	f.words[0], f.words[2] = word(0), word(len(s)-8)
	if len(s) > 16 {
		f.words[1] = word(8)
	}
	return f
}

var (
	nameContentLength    = newFieldName("content-length")
	nameTransferEncoding = newFieldName("transfer-encoding")
	nameServerTiming     = newFieldName("server-timing")
	nameConnection       = newFieldName("connection")
)

// nameIs reports whether field begins with the name f, letters' case
// aside, the name being a token (tokenChar) of f's length: f's names are
// lower-case letters and '-', and a token's byte with bit 0x20 set is a
// letter only if it is that letter in either case, '-' only if it is '-'
// (0x0d, CR, is no token).
func nameIs(field []byte, f *fieldName) bool {
	const fold = 0x2020202020202020
	if len(field) < f.n || f.n < 8 {
		return false
	}
	name := field[:f.n]
	if binary.LittleEndian.Uint64(name)|fold != f.words[0] || binary.LittleEndian.Uint64(name[len(name)-8:])|fold != f.words[2] {
		return false
	}
	return f.n <= 16 || binary.LittleEndian.Uint64(name[8:])|fold == f.words[1]
}

// trimValue is bytes.TrimSpace(v), without its call when v, past the
// spaces and tabs that begin it, neither begins nor ends with white space
// or a byte beyond ASCII (a field's value, most of the time).
func trimValue(v []byte) []byte {
	for len(v) > 0 && (v[0] == ' ' || v[0] == '\t') {
		v = v[1:]
	}
	if len(v) > 0 && plainEnd(v[0]) && plainEnd(v[len(v)-1]) {
		return v
	}
	return bytes.TrimSpace(v)
}

// plainEnd says whether bytes.TrimSpace stops at c: ASCII, and not its white
// space.
func plainEnd(c byte) bool {
	return c < utf8.RuneSelf && c != ' ' && (c < '\t' || c > '\r')
}

// foldEqual reports whether b equals the lower-case ASCII s, ignoring case.
func foldEqual(b []byte, s string) bool {
	if len(b) != len(s) {
		return false
	}
	for i := range len(b) {
		c := b[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != s[i] {
			return false
		}
	}
	return true
}

// foldContains reports whether b contains the lower-case ASCII s, ignoring case.
func foldContains(b []byte, s string) bool {
	for i := 0; i+len(s) <= len(b); i++ {
		if foldEqual(b[i:i+len(s)], s) {
			return true
		}
	}
	return false
}
