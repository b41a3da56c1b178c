package hostile

import (
	"bufio"
	"net"
)

func init() {
	// healthy never misbehaves: the control.
	Register("healthy", func(_ *Request, w *bufio.Writer, _ net.Conn) bool { WriteOK(w); return true })
	// reset closes the connection without answering.
	Register("reset", func(*Request, *bufio.Writer, net.Conn) bool { return false })
}
