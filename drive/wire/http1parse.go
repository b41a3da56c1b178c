package wire

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
)

// readChunked decodes a chunked body that starts at p, compacting the
// chunks' data in place from p on.
func (c *h1conn) readChunked(res *Response, p int) error {
	dst := p
	body := p
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
			res.Body = c.buf[body:dst]
			c.r = p
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
		copy(c.buf[dst:], c.buf[p:p+size])
		dst += size
		p += size + 2
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

// parseHeader parses a response's status line and header fields (RFC
// 9112), strictly: the status, the Content-Length (-1 if absent), whether
// the body is chunked and whether the server closes the connection after
// it. Every rejection says what was wrong, in a short message that is the
// same for every response with the same fault. When timing is not nil,
// the Server-Timing fields' values are appended to it, joined by ", "
// (load --layers reads them).
func parseHeader(h []byte, timing *[]byte) (status, length int, chunked, closing bool, err error) {
	length = -1
	eol := bytes.Index(h, crlf2[:2])
	line := h[:eol]
	if status, closing, err = parseStatusLine(line); err != nil {
		return 0, 0, false, false, err
	}
	http10 := closing
	var te []byte // the Transfer-Encoding fields' values, joined by commas
	for p := eol + 2; p < len(h)-2; {
		e := p + bytes.Index(h[p:], crlf2[:2])
		field := h[p:e]
		p = e + 2
		colon := bytes.IndexByte(field, ':')
		if colon <= 0 || !isToken(field[:colon]) {
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
		if length >= 0 { // RFC 9112 §6.3: chunked wins, and the connection is not to be trusted after
			length, closing = -1, true
		}
	}
	return status, length, chunked, closing, nil
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

// isToken reports whether b is a header field name (RFC 9110 §5.6.2).
func isToken(b []byte) bool {
	for _, c := range b {
		if c <= ' ' || c >= 0x7f || strings.IndexByte(`"(),/:;<=>?@[\]{}`, c) >= 0 {
			return false
		}
	}
	return len(b) > 0
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
