package drive

import (
	"errors"
	"fmt"
	"net"
	"sync/atomic"
)

// The bounds on what a response may cost the load generator, whatever the
// server sends (docs/load.md, "Broken servers").
const (
	// DefaultMaxResponseBytes is the largest response by default
	// (--max-response): far above a GraphQL answer a benchmark measures
	// (the benchmark's largest are tens of KB), small enough that the
	// shared budget holds many at once.
	DefaultMaxResponseBytes = 8 << 20
	// defaultBudgetBytes is the least response buffer budget of a
	// transport, all its connections together (HTTPOptions).
	defaultBudgetBytes = 128 << 20
	baseBuf            = 16 << 10 // every connection's own buffer, outside the budget
	maxHeader          = 64 << 10 // a response's header, status line included
	maxInformational   = 5        // 1xx responses before the answer, as net/http allows
)

func (o HTTPOptions) maxResponse() int {
	if o.MaxResponseBytes > 0 {
		return o.MaxResponseBytes
	}
	return DefaultMaxResponseBytes
}

func (o HTTPOptions) budget() *budget {
	n := o.ResponseBudgetBytes
	if n <= 0 {
		n = max(defaultBudgetBytes, 4*int64(o.maxResponse()))
	}
	b := &budget{size: n}
	b.left.Store(n)
	return b
}

// budget is bytes that the connections of a transport take for large
// responses and give back after.
type budget struct {
	left atomic.Int64
	size int64
}

// take takes n bytes, or reports that they are not there.
func (b *budget) take(n int64) bool {
	if b.left.Add(-n) >= 0 {
		return true
	}
	b.left.Add(n)
	return false
}

func (b *budget) give(n int64) { b.left.Add(n) }

// inUse is how many bytes are taken.
func (b *budget) inUse() int64 { return b.size - b.left.Load() }

func (b *budget) exhausted() error {
	return protocolError{"responses of all connections over the " + sizeText(b.size) + " buffer budget"}
}

// overLimit is the error of a response over the limit of max bytes.
func overLimit(max int) error {
	return protocolError{"response over --max-response (" + sizeText(int64(max)) + ")"}
}

// sizeText writes a byte count as a person would: "8 MiB", "300 KiB",
// "1234 bytes".
func sizeText(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// dialError is a failure to connect: the target was not reached.
type dialError struct{ err error }

func (e dialError) Error() string { return e.err.Error() }
func (e dialError) Unwrap() error { return e.err }

// notReached reports whether a failed exchange never reached the target:
// it could not connect (as opposed to a connection reset while the
// request was written, or an answer that was no HTTP).
func notReached(err error, res *Response) bool {
	if res.RecvBytes > 0 || err == nil {
		return false
	}
	if errors.As(err, new(dialError)) {
		return true
	}
	var oe *net.OpError
	if errors.As(err, &oe) && oe.Op == "dial" {
		return true
	}
	var de *net.DNSError
	return errors.As(err, &de)
}
