package drive

import (
	"bytes"
	"errors"
	"fmt"
	"io"
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
			return protocolError{fmt.Sprintf("response exceeds the %d-byte limit", c.t.maxResp)}
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
		return 0, protocolError{"bad chunk size"}
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
			return 0, protocolError{"bad chunk size"}
		}
		n = n<<4 | int(d)
	}
	return n, nil
}

// parseHeader parses a response's status line and header fields: the
// status, the Content-Length (-1 if absent), whether the body is chunked
// and whether the server closes the connection after it.
func parseHeader(h []byte) (status, length int, chunked, closing bool, err error) {
	length = -1
	eol := bytes.Index(h, crlf2[:2])
	line := h[:eol]
	if len(line) < 12 || !bytes.HasPrefix(line, []byte("HTTP/1.")) || line[8] != ' ' {
		return 0, 0, false, false, protocolError{fmt.Sprintf("status line %.40q", line)}
	}
	http10 := line[7] == '0'
	closing = http10
	for _, d := range line[9:12] {
		if d < '0' || d > '9' {
			return 0, 0, false, false, protocolError{fmt.Sprintf("status line %.40q", line)}
		}
		status = status*10 + int(d-'0')
	}
	for p := eol + 2; p < len(h)-2; {
		e := p + bytes.Index(h[p:], crlf2[:2])
		field := h[p:e]
		p = e + 2
		colon := bytes.IndexByte(field, ':')
		if colon <= 0 {
			return 0, 0, false, false, protocolError{fmt.Sprintf("header line %.40q", field)}
		}
		name, value := field[:colon], bytes.TrimSpace(field[colon+1:])
		switch {
		case foldEqual(name, "content-length"):
			n := 0
			if len(value) == 0 || len(value) > 12 {
				return 0, 0, false, false, protocolError{"bad Content-Length"}
			}
			for _, d := range value {
				if d < '0' || d > '9' {
					return 0, 0, false, false, protocolError{"bad Content-Length"}
				}
				n = n*10 + int(d-'0')
			}
			length = n
		case foldEqual(name, "transfer-encoding"):
			chunked = foldContains(value, "chunked")
		case foldEqual(name, "connection"):
			if foldContains(value, "close") {
				closing = true
			} else if http10 && foldContains(value, "keep-alive") {
				closing = false
			}
		}
	}
	return status, length, chunked, closing, nil
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
