package sqlsource

import (
	"context"
	"runtime"
	"sync"
	"time"
)

// tickQuiet is how long no new key may have arrived before a tick batch is
// fetched.
const tickQuiet = 5 * time.Microsecond

// tickLoader batches the way JavaScript's DataLoader does, which the LinGBM
// paper's servers use: it fetches a batch as soon as the resolvers that are
// about to join it have done so — once the number of keys stopped growing
// while the dispatcher yielded the processor, and no key arrived for
// tickQuiet — instead of after a fixed window. A window cannot be short in
// Go: an idle Go process sleeps at least about 1 ms however short the
// timer (measured here: time.Sleep(50µs) takes 1.08 ms), so dataloadgen's
// window costs every batched level of every query a millisecond, which made
// batch slower than naive on every template. With cache on, a key loaded
// once in the loader's life (a request) is never fetched again; with cache
// off every Load joins the next batch, duplicates included (DataLoader's
// cache: false).
type tickLoader[K comparable, V any] struct {
	fetch func(context.Context, []K) ([]V, []error)
	cache bool

	mu    sync.Mutex
	cur   *tickBatch[K, V]
	known map[K]*tickBatch[K, V] // with cache: the batch that has (or will have) each key
	index map[K]int              // with cache: the key's position in its batch
}

type tickBatch[K comparable, V any] struct {
	ctx  context.Context
	keys []K
	last time.Time // when the latest key arrived
	done chan struct{}
	vals []V
	errs []error
}

func newTickLoader[K comparable, V any](cache bool, fetch func(context.Context, []K) ([]V, []error)) *tickLoader[K, V] {
	l := &tickLoader[K, V]{fetch: fetch, cache: cache}
	if cache {
		l.known, l.index = map[K]*tickBatch[K, V]{}, map[K]int{}
	}
	return l
}

// Load returns the value of key, fetched in a batch with the keys other
// goroutines load at the same moment.
func (l *tickLoader[K, V]) Load(ctx context.Context, key K) (V, error) {
	l.mu.Lock()
	b, i, ok := (*tickBatch[K, V])(nil), 0, false
	if l.cache {
		if b, ok = l.known[key]; ok {
			i = l.index[key]
		}
	}
	leader := false
	if !ok {
		if l.cur == nil {
			l.cur = &tickBatch[K, V]{ctx: ctx, done: make(chan struct{})}
			leader = true
		}
		b, i = l.cur, len(l.cur.keys)
		b.keys = append(b.keys, key)
		b.last = time.Now()
		if l.cache {
			l.known[key], l.index[key] = b, i
		}
	}
	l.mu.Unlock()
	if leader {
		// The goroutine that opened the batch dispatches it, as JavaScript's
		// DataLoader runs the batch on the event loop that queued it: a
		// goroutine of its own would start on a small stack and grow it
		// through the driver's calls on every batch (19 % of batch's CPU on
		// QT3 went to copying stacks).
		l.dispatch(b)
	}
	select {
	case <-b.done:
	case <-ctx.Done():
	}
	if err := ctx.Err(); err != nil { // whether or not the batch finished meanwhile
		var zero V
		return zero, err
	}
	var v V
	if i < len(b.vals) {
		v = b.vals[i]
	}
	switch {
	case len(b.errs) == 1:
		return v, b.errs[0]
	case i < len(b.errs):
		return v, b.errs[i]
	}
	return v, nil
}

// dispatch waits until b stops growing, closes it to new keys and fetches it.
func (l *tickLoader[K, V]) dispatch(b *tickBatch[K, V]) {
	n := -1
	for {
		runtime.Gosched()
		l.mu.Lock()
		k, quiet := len(b.keys), time.Since(b.last) >= tickQuiet
		if k == n && quiet {
			l.cur = nil
			l.mu.Unlock()
			break
		}
		n = k
		l.mu.Unlock()
	}
	b.vals, b.errs = l.fetch(b.ctx, b.keys)
	close(b.done)
}
