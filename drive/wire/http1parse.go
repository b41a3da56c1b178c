package wire

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/bits"
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
// It makes one pass over the header, eight bytes at a time where it can:
// the common status line read as words; a field's name, with its ':',
// matched as words against the names servers send most (knownField), and
// read a byte at a time against a table only when it is none of them;
// each line's end found by IndexByte from just past the name (the value of
// a field the client does not read is only delimited); a plain
// Content-Length read digit by digit up to its CRLF with no other look for
// the line's end.
func parseHeader(b []byte, timing *[]byte) (n int, h respHeader, err error) {
	status, http10, eol := fastStatusLine(b)
	if eol < 0 { // anything but "HTTP/1.x 3DIGIT " or a line end after the status
		if eol = lineEnd(b, 0); eol < 0 {
			return 0, h, nil
		}
		if status, http10, err = parseStatusLine(b[:eol]); err != nil {
			return whole(b, err)
		}
	}
	f := fields{length: -1, closing: http10, http10: http10, timing: timing}
	p := eol + 2 // where a line starts
	for {
		if p+2 > len(b) {
			return 0, respHeader{}, nil
		}
		if b[p] == '\r' && b[p+1] == '\n' { // the empty line
			n = p + 2
			break
		}
		k, id := knownField(b, p) // k: where the field name ends, at its ':'
		if k < 0 {
			if k = tokenEnd(b, p); k == p || k == len(b) || b[k] != ':' {
				return badLine(b, p, k)
			}
			id = fieldOf(b[p:k])
		}
		if id == fieldContentLength {
			// the common value, digits alone after a space, read as it
			// is delimited; any other as every other value
			if m, e := plainLength(b, k+1); e > 0 {
				if f.length >= 0 && m != f.length {
					return whole(b, protocolError{fmt.Sprintf("two Content-Length values (%d, %d)", f.length, m)})
				}
				f.length = m
				p = e + 2
				continue
			}
		}
		e := lineEnd(b, k+1)
		if e < 0 {
			return 0, respHeader{}, nil
		}
		if id != fieldOther {
			if err := f.read(id, b[k+1:e]); err != nil {
				return whole(b, err)
			}
		}
		p = e + 2
	}
	h = respHeader{status: status, length: f.length, closing: f.closing}
	if f.te != nil {
		if err := transferEncoding(f.te); err != nil {
			return 0, respHeader{}, err
		}
		h.chunked = true
		if h.length >= 0 { // RFC 9112 §6.3: chunked wins, and the connection is not to be trusted after
			h.length, h.closing = -1, true
		}
	}
	return n, h, nil
}

// fields is what parseHeader has read of the fields so far.
type fields struct {
	length          int
	closing, http10 bool
	te              []byte // the Transfer-Encoding fields' values, joined by commas
	timing          *[]byte
}

// read reads the value (all between the ':' and the CRLF) of a field the
// client reads.
func (f *fields) read(id fieldID, value []byte) (err error) {
	value = trimValue(value)
	switch id {
	case fieldContentLength:
		f.length, err = contentLength(value, f.length)
	case fieldTransferEncoding:
		if len(f.te) > 0 {
			f.te = append(f.te, ',')
		}
		f.te = append(f.te, value...)
	case fieldServerTiming:
		if f.timing != nil {
			if len(*f.timing) > 0 {
				*f.timing = append(*f.timing, ", "...)
			}
			*f.timing = append(*f.timing, value...)
		}
	case fieldConnection:
		if foldContains(value, "close") {
			f.closing = true
		} else if f.http10 && foldContains(value, "keep-alive") {
			f.closing = false
		}
	}
	return err
}

// badLine rejects the line at p in b, whose name, if any, ends at k with
// no ':' after it, once the line and the header are whole.
func badLine(b []byte, p, k int) (int, respHeader, error) {
	e := -1
	if k < len(b) {
		e = lineEnd(b, k)
	}
	if e < 0 {
		return 0, respHeader{}, nil
	}
	return whole(b, protocolError{fmt.Sprintf("bad header line %.40q", b[p:e])})
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

// Eight bytes at a time (SWAR): a word's bytes tested at once, a byte's
// high bit set where it matched. In zeroBytes a zero byte borrows into its
// high bit; a borrow runs upwards only, so the lowest flagged byte is
// always a true match, which is the one wanted (knownField's ':').
const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// zeroBytes flags the zero bytes of x (the lowest one truly).
func zeroBytes(x uint64) uint64 { return (x - ones) &^ x & highs }

// lineEnd returns the index of the first CRLF in b whose CR is at or after
// from, -1 if there is none (a lone LF or CR is no line end). (IndexByte
// does better than eight or sixteen bytes at a time here: most values
// run to 30 bytes and more.)
func lineEnd(b []byte, from int) int {
	for i := from + 1; i < len(b); i++ { // i: where an LF may be
		j := bytes.IndexByte(b[i:], '\n')
		if j < 0 {
			break
		}
		if i += j; b[i-1] == '\r' {
			return i - 1
		}
	}
	return -1
}

// tokenEnd returns the index where the token (tokenChar) that begins at k
// in b ends.
func tokenEnd(b []byte, k int) int {
	for k < len(b) && tokenChar[b[k]] {
		k++
	}
	return k
}

// plainLength reads a Content-Length value that starts at v in b (past
// the name's ':') when it is 1 to 15 digits after a space or none, ended
// by CRLF: the value, and the index of the CR; e is 0 for any other value.
func plainLength(b []byte, v int) (m, e int) {
	if v < len(b) && b[v] == ' ' {
		v++
	}
	for e = v; e < len(b); e++ {
		d := b[e] - '0'
		if d > 9 {
			break
		}
		m = m*10 + int(d)
	}
	if e == v || e-v > 15 || e+2 > len(b) || binary.LittleEndian.Uint16(b[e:]) != '\r'|'\n'<<8 {
		return 0, 0
	}
	return m, e
}

// fastStatusLine reads the common status line, "HTTP/1.1" or "HTTP/1.0",
// a status of 100 to 999, and a space or the line's end: the status,
// whether the version is HTTP/1.0, and the index of the CRLF that ends the
// line; eol is -1 for anything else (parseStatusLine decides) and when the
// line's end is not in b.
func fastStatusLine(b []byte) (status int, http10 bool, eol int) {
	const (
		v11 = 'H' | 'T'<<8 | 'T'<<16 | 'P'<<24 | '/'<<32 | '1'<<40 | '.'<<48 | '1'<<56
		v10 = 'H' | 'T'<<8 | 'T'<<16 | 'P'<<24 | '/'<<32 | '1'<<40 | '.'<<48 | '0'<<56
		// " ddd OK\r", the digits aside
		ok     = ' ' | ' '<<32 | 'O'<<40 | 'K'<<48 | '\r'<<56
		okMask = 0xff | 0xffffffff<<32
	)
	if len(b) < 17 {
		return 0, false, -1
	}
	v, w := binary.LittleEndian.Uint64(b[:8]), binary.LittleEndian.Uint64(b[8:16])
	if v != v11 && v != v10 || w&0xff != ' ' {
		return 0, false, -1
	}
	d0, d1, d2 := b[9]-'0', b[10]-'0', b[11]-'0'
	if d0-1 > 8 || d1 > 9 || d2 > 9 {
		return 0, false, -1
	}
	status = int(d0)*100 + int(d1)*10 + int(d2)
	switch {
	case w&okMask == ok && b[16] == '\n':
		eol = 15
	case b[12] == ' ' || b[12] == '\r' && b[13] == '\n':
		eol = lineEnd(b, 12)
	default:
		eol = -1
	}
	return status, v == v10, eol
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

// fieldID says which field the client reads a field is: fieldOther for
// all it does not.
type fieldID uint8

const (
	fieldOther fieldID = iota
	fieldContentLength
	fieldTransferEncoding
	fieldServerTiming
	fieldConnection
)

// fieldOf returns the fieldID of a field named name (a token).
func fieldOf(name []byte) fieldID {
	switch len(name) {
	case len("content-length"):
		if nameIs(name, &nameContentLength) {
			return fieldContentLength
		}
	case len("transfer-encoding"):
		if nameIs(name, &nameTransferEncoding) {
			return fieldTransferEncoding
		}
	case len("server-timing"):
		if nameIs(name, &nameServerTiming) {
			return fieldServerTiming
		}
	case len("connection"):
		if nameIs(name, &nameConnection) {
			return fieldConnection
		}
	}
	return fieldOther
}

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

// knownNames are the field names servers send most (those of gqlbench's
// servers, of gqlgen's net/http, of fasthttp, of the usual proxies) and
// those the client reads: their lines' names are matched eight bytes at a
// time, not read a byte at a time against tokenChar.
var knownNames = []struct {
	name string
	id   fieldID
}{
	{"content-type", fieldOther}, {"content-length", fieldContentLength}, {"date", fieldOther},
	{"server", fieldOther}, {"connection", fieldConnection}, {"keep-alive", fieldOther},
	{"transfer-encoding", fieldTransferEncoding}, {"server-timing", fieldServerTiming},
	{"vary", fieldOther}, {"cache-control", fieldOther}, {"x-request-id", fieldOther},
	{"etag", fieldOther}, {"last-modified", fieldOther}, {"expires", fieldOther},
	{"content-encoding", fieldOther}, {"x-powered-by", fieldOther}, {"set-cookie", fieldOther},
	{"x-content-type-options", fieldOther}, {"x-frame-options", fieldOther}, {"via", fieldOther},
	{"age", fieldOther}, {"accept-ranges", fieldOther}, {"location", fieldOther},
	{"alt-svc", fieldOther}, {"referrer-policy", fieldOther}, {"strict-transport-security", fieldOther},
	{"access-control-allow-origin", fieldOther}, {"access-control-allow-credentials", fieldOther},
}

// knownName is a known name with its ':', as the four words (little
// endian) that cover it from the line's start: a line's word w matches
// when w&mask | fold == want — a letter in either case (fold sets its bit
// 0x20), '-' and ':' as they are, the bytes past the ':' aside.
type knownName struct {
	mask, fold, want [4]uint64
	id               fieldID
}

// knownByLen holds the known names by their length; names too long for
// four words (with their ':') are left out.
var knownByLen = func() (t [32][]knownName) {
	for _, n := range knownNames {
		s := n.name + ":"
		if len(s) > 32 {
			continue
		}
		c := knownName{id: n.id}
		for i := range len(s) {
			w, sh := i/8, 8*(i%8)
			c.mask[w] |= 0xff << sh
			c.want[w] |= uint64(s[i]) << sh
			if 'a' <= s[i] && s[i] <= 'z' {
				c.fold[w] |= 0x20 << sh
			}
		}
		t[len(n.name)] = append(t[len(n.name)], c)
	}
	return t
}()

// knownField matches the line at p in b against the known names: the
// index of the name's ':' and the field's fieldID, or k -1 when the name
// is none of them (or b ends too soon for a word's read). The first ':' in
// the line is found a word at a time, and the words up to it compared
// with the names of that length; a match says the name is a token.
func knownField(b []byte, p int) (k int, id fieldID) {
	const colons = ones * ':'
	s := b[p:]
	if len(s) < 8 {
		return -1, 0
	}
	w0 := binary.LittleEndian.Uint64(s)
	if m := zeroBytes(w0 ^ colons); m != 0 {
		n := bits.TrailingZeros64(m) / 8
		cs := knownByLen[n]
		for i := range cs {
			if c := &cs[i]; w0&c.mask[0]|c.fold[0] == c.want[0] {
				return p + n, c.id
			}
		}
		return -1, 0
	}
	if len(s) < 16 {
		return -1, 0
	}
	w1 := binary.LittleEndian.Uint64(s[8:])
	if m := zeroBytes(w1 ^ colons); m != 0 {
		n := 8 + bits.TrailingZeros64(m)/8
		cs := knownByLen[n]
		for i := range cs {
			if c := &cs[i]; w0|c.fold[0] == c.want[0] && w1&c.mask[1]|c.fold[1] == c.want[1] {
				return p + n, c.id
			}
		}
		return -1, 0
	}
	if len(s) < 24 {
		return -1, 0
	}
	w2 := binary.LittleEndian.Uint64(s[16:])
	if m := zeroBytes(w2 ^ colons); m != 0 {
		n := 16 + bits.TrailingZeros64(m)/8
		cs := knownByLen[n]
		for i := range cs {
			if c := &cs[i]; w0|c.fold[0] == c.want[0] && w1|c.fold[1] == c.want[1] && w2&c.mask[2]|c.fold[2] == c.want[2] {
				return p + n, c.id
			}
		}
		return -1, 0
	}
	if len(s) < 32 {
		return -1, 0
	}
	w3 := binary.LittleEndian.Uint64(s[24:])
	if m := zeroBytes(w3 ^ colons); m != 0 {
		n := 24 + bits.TrailingZeros64(m)/8
		cs := knownByLen[n]
		for i := range cs {
			if c := &cs[i]; w0|c.fold[0] == c.want[0] && w1|c.fold[1] == c.want[1] && w2|c.fold[2] == c.want[2] && w3&c.mask[3]|c.fold[3] == c.want[3] {
				return p + n, c.id
			}
		}
	}
	return -1, 0
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
