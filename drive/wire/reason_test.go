package wire

import (
	"errors"
	"io"
	"net"
	"net/url"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/gqlbench/gqlbench/measure"
)

// TestReason: a failure's reason is short and the same for every
// connection — no address, no port, no internal call name — and a timeout
// is said with the user's --timeout.
func TestReason(t *testing.T) {
	addr := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 51234}
	reset := &net.OpError{Op: "raw-read", Net: "tcp", Source: addr, Addr: addr, Err: os.NewSyscallError("read", syscall.ECONNRESET)}
	for _, c := range []struct {
		err  error
		kind measure.Outcome
		want string
	}{
		{reset, measure.ErrTransport, "read: connection reset by peer"},
		{&url.Error{Op: "Post", URL: "http://127.0.0.1:4000/graphql", Err: reset}, measure.ErrTransport, "read: connection reset by peer"},
		{os.ErrDeadlineExceeded, measure.ErrTimeout, "no complete answer within the 2s timeout (--timeout)"},
		{protocolError{"bad chunk size"}, measure.ErrResponse, "bad chunk size"},
		{io.ErrUnexpectedEOF, measure.ErrTransport, "the server closed the connection before the answer was complete"},
		{syscall.ECONNREFUSED, measure.ErrTransport, "connection refused"},
		{&url.Error{Op: "Post", URL: "http://x/graphql", Err: errors.New(`net/http: HTTP/1.x transport connection broken: malformed HTTP version "HTPT/1.1"`)},
			measure.ErrTransport, `malformed HTTP version "HTPT/1.1"`},
	} {
		if got := Reason(c.err, c.kind, 2*time.Second); got != c.want {
			t.Errorf("%v: reason %q, want %q", c.err, got, c.want)
		}
	}
}
