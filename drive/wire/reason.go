package wire

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"strings"
	"syscall"
	"time"

	"github.com/gqlbench/gqlbench/measure"
)

// Snippet is a body as one line of at most 200 characters, for a message.
func Snippet(b []byte) string {
	s := strings.Join(strings.Fields(string(b)), " ")
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	if s == "" {
		return "(empty body)"
	}
	return s
}

// Reason says, shortly and the same way every time, why a
// request got no complete answer: the client's own words for a malformed
// response, the timeout as the user set it, a connection's failure without
// its addresses or ports ("read: connection reset by peer").
func Reason(err error, kind measure.Outcome, timeout time.Duration) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err // net/http's "Post URL: ...": the target is known
	}
	var pe protocolError
	switch {
	case kind == measure.ErrTimeout:
		if timeout > 0 {
			return fmt.Sprintf("no complete answer within the %v timeout (--timeout)", timeout)
		}
		return "no complete answer within the timeout (--timeout)"
	case errors.As(err, &pe):
		return pe.msg
	case errors.Is(err, ErrClosed):
		return err.Error()
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "the server closed the connection before the answer was complete"
	}
	var op *net.OpError
	if errors.As(err, &op) {
		verb := strings.TrimPrefix(op.Op, "raw-") // the raw client's "raw-read": a read to the user
		inner := op.Err
		var se *os.SyscallError
		if errors.As(inner, &se) {
			inner = se.Err
		}
		if inner != nil {
			return verb + ": " + inner.Error()
		}
		return verb + " failed"
	}
	var errno syscall.Errno
	if errors.As(err, &errno) {
		return errno.Error()
	}
	// net/http's words for a response it could not parse, without its
	// preamble: "malformed HTTP version \"HTPT/1.1\""
	msg := strings.TrimPrefix(err.Error(), "net/http: HTTP/1.x transport connection broken: ")
	if len(msg) > 120 {
		msg = msg[:120] + "…"
	}
	return strings.ToValidUTF8(msg, "?")
}
