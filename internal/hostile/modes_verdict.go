package hostile

import (
	"bufio"
	"fmt"
	"net"
)

func init() {
	// close-each answers every request well with Connection: close and
	// closes the connection: each request needs a new one.
	Register("close-each", func(_ *Request, w *bufio.Writer, _ net.Conn) bool {
		fmt.Fprintf(w, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: %d\r\n\r\n%s", len(OKBody), OKBody)
		return false
	})
}
