package hostile

import (
	"bufio"
	"fmt"
	"net"
	"strings"
)

// Modes for the load generator's run: how it ends, how it counts and
// words errors.
func init() {
	// stall reads the request and never answers; the connection stays
	// open until the client gives up on it.
	Register("stall", func(*Request, *bufio.Writer, net.Conn) bool { return true })
	// bad-status-line answers with a status line that is not HTTP, and
	// closes.
	Register("bad-status-line", func(_ *Request, w *bufio.Writer, _ net.Conn) bool {
		fmt.Fprintf(w, "HTPT/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s", len(OKBody), OKBody)
		return false
	})
	// bad-chunk answers chunked with a chunk size that is not hex, and
	// closes.
	Register("bad-chunk", func(_ *Request, w *bufio.Writer, _ net.Conn) bool {
		w.WriteString("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n")
		return false
	})
	// unauthorized answers 401 with a GraphQL error that quotes the
	// request's Authorization header back (a secret the report must hide).
	Register("unauthorized", func(r *Request, w *bufio.Writer, _ net.Conn) bool {
		auth := strings.ReplaceAll(r.Header.Get("Authorization"), `"`, `'`)
		writeJSON(w, "401 Unauthorized", fmt.Sprintf(`{"errors":[{"message":"not authorized: %s is not a valid token"}]}`, auth))
		return true
	})
	// server-error answers 500 with a plain-text body.
	Register("server-error", func(_ *Request, w *bufio.Writer, _ net.Conn) bool {
		body := "internal error: the database is down\n"
		fmt.Fprintf(w, "HTTP/1.1 500 Internal Server Error\r\nContent-Type: text/plain\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
		return true
	})
}

// writeJSON writes a JSON answer of the given status ("401 Unauthorized").
func writeJSON(w *bufio.Writer, status, body string) {
	fmt.Fprintf(w, "HTTP/1.1 %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", status, len(body), body)
}
