package drive

import (
	"context"
	"time"
)

// A Counter reads a count that only grows, kept outside the load
// generator: the statements a database has executed, for one. The
// database of a server gqlbench does not instrument (PostGraphile, the Node
// servers) says that way how many SQL statements a GraphQL request costs.
type Counter interface {
	Count(ctx context.Context) (int64, error)
}

// counterReadTimeout bounds one read. An interval waits for it: a database
// busy with the load may take a while to answer, and a late interval is
// flagged (runfile.Interval.CollectedLateNS) where a lost read would lose
// the interval's count.
const counterReadTimeout = time.Second

// counterDelta turns a Counter's readings into differences.
type counterDelta struct {
	c    Counter
	last int64
	ok   bool // last holds a reading
}

// delta reads the counter and returns the growth since the last good
// reading; ok is false when there is none to compare with, the read
// failed, or the count went down (the database's statistics were reset or
// evicted): that interval's statements are unknown, the next reading
// starts afresh.
func (d *counterDelta) delta(ctx context.Context) (n int64, ok bool) {
	if d == nil || d.c == nil {
		return 0, false
	}
	ctx, cancel := context.WithTimeout(ctx, counterReadTimeout)
	defer cancel()
	v, err := d.c.Count(ctx)
	if err != nil {
		d.ok = false
		return 0, false
	}
	n, ok = v-d.last, d.ok && v >= d.last
	d.last, d.ok = v, true
	return n, ok
}
