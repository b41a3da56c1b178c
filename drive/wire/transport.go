package wire

import (
	"errors"
	"net"
	"os"
	"time"

	"github.com/gqlbench/gqlbench/exitcode"
	"github.com/gqlbench/gqlbench/measure"
)

// Transport makes connections to the server under test.
type Transport interface {
	// NewConn returns a connection, which connects on its first Do (and
	// reconnects when the server closes it).
	NewConn() Conn
}

// Conn carries one request at a time. Do and Close may be called
// concurrently with each other (Close interrupts Do); Do is not safe for
// concurrent use.
type Conn interface {
	// Do sends request i (an index into the requests the Transport was made
	// for) and reads the complete response into r. A non-nil error means no
	// complete response; r.Start and r.End still say when the attempt
	// began and ended.
	Do(i int, r *Response) error
	// Close closes the connection; a Do in progress fails, and so does
	// every later one.
	Close() error
}

// Connecter is a Conn that can connect ahead of its first request.
type Connecter interface {
	Connect() error
}

// Response is one exchange, as Conn.Do fills it. Times are read from the
// monotonic clock.
type Response struct {
	Status    int
	Body      []byte    // valid until the next Do on the same Conn
	Start     time.Time // send start, before any connect made for the request
	FirstByte time.Time // the first response byte
	End       time.Time // the last response byte, or the failure
	SentBytes int64     // request bytes written
	RecvBytes int64     // response bytes read, headers included
	Retried   bool      // a persisted query's hash was not known: the full request followed
	Calls     int       // HTTP calls made: a REST plan's; 0 counts as one
	Connects  int       // connections made for this request (inside its time)
	// ServerTiming is the response's Server-Timing header value (several
	// lines joined by ", "), when it has one; valid until the next Do.
	ServerTiming []byte
}

// ErrClosed is returned by Do on a closed Conn.
var ErrClosed = errors.New("connection closed by the load generator")

// Classify maps a transport error to an outcome.
func Classify(err error) measure.Outcome {
	var ne net.Error
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		return measure.ErrTimeout
	case errors.As(err, new(protocolError)):
		return measure.ErrResponse // (never a latency sample: the engine marks it NoResponse)
	}
	return measure.ErrTransport
}

// protocolError is a response that is not HTTP/1.x as the client speaks
// it, or one over a limit (bad_response); its message says what was
// wrong, short and the same for every response with the same fault.
type protocolError struct{ msg string }

func (e protocolError) Error() string { return e.msg }

// ClientPerConn is gqlbench's own client with a goroutine per connection
// everywhere: the closed loop does not carry its connections in one event
// loop (Loop).
const ClientPerConn = "gqlbench-goroutines"

// NewTransport makes a transport of the named client kind: "gqlbench"
// (HTTP), ClientPerConn, or "net/http" (StdHTTP).
func NewTransport(client, target string, reqs []Request, o Options) (Transport, error) {
	switch {
	case HasGraphQLPlan(reqs) && client == "net/http":
		return nil, &exitcode.UsageError{Err: errors.New("tasks in GraphQL steps are carried out by gqlbench's own client: --client net/http does not apply")}
	case HasGraphQLPlan(reqs):
		return NewGraphQLPlans(target, reqs, o)
	}
	o.Parallel = 0                       // a plan's calls at a time
	if client == "net/http" || o.HTTP2 { // HTTP/2: net/http's, one connection per client
		return NewStdHTTP(target, reqs, o)
	}
	o.PerConn = o.PerConn || client == ClientPerConn
	return NewHTTP(target, reqs, o)
}
