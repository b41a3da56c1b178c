package wire

import (
	"errors"
	"fmt"
	"net"
	"slices"
	"sync"
)

// The bounds on what a response may cost the load generator, whatever the
// server sends (docs/load.md, "Broken servers").
const (
	// DefaultMaxResponseBytes is the largest response by default
	// (--max-response): far above a GraphQL answer a benchmark measures
	// (the benchmark's largest are tens of KB), small enough that the
	// shared budget holds many at once.
	DefaultMaxResponseBytes = 4 << 20
	// defaultBudgetBytes is the least response buffer budget of a
	// transport, all its connections together (Options).
	defaultBudgetBytes = 32 << 20
	baseBuf            = 16 << 10 // every connection's own buffer, outside the budget
	maxHeader          = 64 << 10 // a response's header, status line and any 1xx responses before it included
)

func (o Options) maxResponse() int {
	if o.MaxResponseBytes > 0 {
		return o.MaxResponseBytes
	}
	return DefaultMaxResponseBytes
}

func (o Options) budget() *budget {
	n := o.ResponseBudgetBytes
	if n <= 0 {
		n = max(defaultBudgetBytes, 8*int64(o.maxResponse()))
	}
	return &budget{size: n}
}

// budget is the large response buffers of a transport's connections: at
// most size bytes of them at once, in use or free. A buffer given back is
// kept for the next large response, of any connection: a run of large
// answers allocates nothing after the first (a buffer that doubles to a
// few MB per response, dropped after, would be gigabytes per second of
// garbage, and a heap the collector lets grow far beyond what is live).
type budget struct {
	size int64

	mu         sync.Mutex
	held, used int64    // bytes of buffers made (in use or free), in use
	free       [][]byte // free buffers
}

// get returns a buffer of n bytes (its capacity may be more), or nil when
// the budget cannot hold one.
func (b *budget) get(n int) []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	best := -1 // the smallest free buffer large enough
	for i, f := range b.free {
		if cap(f) >= n && (best < 0 || cap(f) < cap(b.free[best])) {
			best = i
		}
	}
	if best >= 0 {
		f := b.free[best]
		b.free = slices.Delete(b.free, best, best+1)
		b.used += int64(cap(f))
		return f[:cap(f)]
	}
	// Make room: free buffers too small go to the collector.
	for b.held+int64(n) > b.size && len(b.free) > 0 {
		b.held -= int64(cap(b.free[0]))
		b.free = slices.Delete(b.free, 0, 1)
	}
	if b.held+int64(n) > b.size {
		return nil
	}
	b.held += int64(n)
	b.used += int64(n)
	return make([]byte, n)
}

// put gives a buffer from get back.
func (b *budget) put(buf []byte) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.used -= int64(cap(buf))
	b.free = append(b.free, buf[:0])
}

// inUse is how many bytes of buffers are in use.
func (b *budget) inUse() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.used
}

func (b *budget) exhausted() error {
	return protocolError{"responses of all connections over the " + SizeText(b.size) + " buffer budget"}
}

// overLimit is the error of a response over the limit of max bytes.
func overLimit(max int) error {
	return protocolError{"response over --max-response (" + SizeText(int64(max)) + ")"}
}

// SizeText writes a byte count as a person would: "8 MiB", "300 KiB",
// "1234 bytes".
func SizeText(n int64) string {
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

// NotReached reports whether a failed exchange never reached the target:
// it could not connect (as opposed to a connection reset while the
// request was written, or an answer that was no HTTP).
func NotReached(err error, res *Response) bool {
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
