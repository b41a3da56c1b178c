package hostile

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The modes of a server that breaks HTTP/1.1 or sends what no client
// should keep in memory: the load generator's client must bound its
// memory, reject what is not HTTP/1.x, and never take one request's answer
// for another's.

// HugeWrongBytes is the size of the "wrong-huge" answer.
const HugeWrongBytes = 200 << 20

// ManyKeys is the number of members of the "many-keys" answer's data.
const ManyKeys = 1_000_000

func init() {
	// chunked-endless: a chunked answer that never ends.
	Register("chunked-endless", func(_ *Request, w *bufio.Writer, _ net.Conn) bool {
		w.WriteString("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
		chunk := endlessChunk()
		for {
			if _, err := w.WriteString(chunk); err != nil {
				return false
			}
		}
	})
	// length-unsent: announces 260 MB, sends a few bytes and closes.
	Register("length-unsent", func(_ *Request, w *bufio.Writer, _ net.Conn) bool {
		w.WriteString("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 260000000\r\n\r\n{\"data\":")
		return false
	})
	// continue-endless: 100 Continue, forever.
	Register("continue-endless", func(_ *Request, w *bufio.Writer, _ net.Conn) bool {
		for {
			if _, err := w.WriteString("HTTP/1.1 100 Continue\r\n\r\n"); err != nil {
				return false
			}
		}
	})
	// wrong-huge: a well-formed answer of HugeWrongBytes, wrong.
	Register("wrong-huge", func(_ *Request, w *bufio.Writer, _ net.Conn) bool {
		head, tail := `{"data":{"x":"`, `"}}`
		fmt.Fprintf(w, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", HugeWrongBytes, head)
		fill := filler()
		for left := HugeWrongBytes - len(head) - len(tail); left > 0; left -= len(fill) {
			if _, err := w.WriteString(fill[:min(left, len(fill))]); err != nil {
				return false
			}
		}
		w.WriteString(tail)
		return true
	})
	// many-keys: a 14 MB answer whose data has ManyKeys members.
	Register("many-keys", func(_ *Request, w *bufio.Writer, _ net.Conn) bool {
		b := manyKeys()
		fmt.Fprintf(w, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", len(b))
		w.Write(b)
		return true
	})
	// duplicate-late: answers after 5 ms, and sends the same answer again
	// 20 ms later, unasked.
	Register("duplicate-late", func(_ *Request, w *bufio.Writer, c net.Conn) bool {
		time.Sleep(5 * time.Millisecond)
		WriteOK(w)
		time.AfterFunc(20*time.Millisecond, func() {
			fmt.Fprintf(c, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(OKBody), OKBody)
		})
		return true
	})
	// The answer with a broken status line or header: each is rejected.
	for name, head := range map[string]string{
		"status-garbage":   "\x16\x03\x01 garbage",
		"status-2000K":     "HTTP/1.1 2000K",
		"http-1.9":         "HTTP/1.9 200 OK",
		"length-twice":     "HTTP/1.1 200 OK\r\nContent-Length: 31\r\nContent-Length: 32",
		"te-gzip-chunked":  "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked",
		"te-chunked-gzip":  "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked, gzip",
		"te-two-fields":    "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: identity",
		"te-identity-only": "HTTP/1.1 200 OK\r\nTransfer-Encoding: identity",
	} {
		chunked := strings.Contains(head, "Transfer-Encoding")
		Register(name, func(_ *Request, w *bufio.Writer, _ net.Conn) bool {
			w.WriteString(head + "\r\nContent-Type: application/json\r\n")
			if chunked {
				fmt.Fprintf(w, "\r\n%x\r\n%s\r\n0\r\n\r\n", len(OKBody), OKBody)
			} else if !strings.Contains(head, "Content-Length") {
				fmt.Fprintf(w, "Content-Length: %d\r\n\r\n%s", len(OKBody), OKBody)
			} else {
				w.WriteString("\r\n" + OKBody)
			}
			return false
		})
	}
	// reset-reading-body: answers this request, reads the first 64 KiB of
	// the next one and resets the connection while the client still
	// writes it.
	Register("reset-reading-body", func(_ *Request, w *bufio.Writer, c net.Conn) bool {
		WriteOK(w)
		w.Flush()
		io.ReadFull(c, make([]byte, 64<<10))
		resetConn(c)
		return false
	})
	// reset-after-body: reads the request and resets the connection.
	Register("reset-after-body", func(_ *Request, _ *bufio.Writer, c net.Conn) bool {
		resetConn(c)
		return false
	})
}

// resetConn closes c with a TCP reset (RST), not an orderly close (FIN).
func resetConn(c net.Conn) {
	if tc, ok := c.(*net.TCPConn); ok {
		tc.SetLinger(0)
	}
	c.Close()
}

// Bytes shared by every connection, so that the server's own memory does
// not grow with its clients.
var (
	endlessChunk = sync.OnceValue(func() string { return "4000\r\n" + strings.Repeat("x", 0x4000) + "\r\n" })
	filler       = sync.OnceValue(func() string { return strings.Repeat("a", 64<<10) })
)

var manyKeys = sync.OnceValue(func() []byte {
	b := append(make([]byte, 0, 15<<20), `{"data":{`...)
	for i := range ManyKeys {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `"k`...)
		b = append(b, fmt.Sprintf("%07d", ManyKeys-i)...)
		b = append(b, `":`...)
		b = strconv.AppendInt(b, int64(i%10), 10)
	}
	return append(b, `}}`...)
})
