package drive

import (
	"math"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"
)

// Pacer is an open-loop schedule: it hands out the sends in order, each with
// its sequence number and intended send time (an offset from the start).
// Safe for concurrent use: the free connections take the sends in turn.
type Pacer interface {
	Next() (seq int64, at time.Duration)
}

// Constant returns a pacer of rate sends per second at exact, evenly spaced
// times: send k at k/rate seconds.
func Constant(rate float64) Pacer { return &constant{nsPer: 1e9 / rate} }

type constant struct {
	n     atomic.Int64
	nsPer float64
}

func (c *constant) Next() (int64, time.Duration) {
	k := c.n.Add(1) - 1
	return k, time.Duration(math.Round(float64(k) * c.nsPer))
}

// Poisson returns a pacer of a Poisson process of rate sends per second:
// exponentially distributed gaps from a PCG generator seeded with seed, so
// the same seed gives the same schedule. The first send is one gap after
// the start.
func Poisson(rate float64, seed uint64) Pacer {
	return &poisson{rng: rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15)), nsPer: 1e9 / rate}
}

type poisson struct {
	mu    sync.Mutex
	rng   *rand.Rand
	nsPer float64
	k     int64
	t     float64 // ns
}

func (p *poisson) Next() (int64, time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.t += p.rng.ExpFloat64() * p.nsPer
	k := p.k
	p.k++
	return k, time.Duration(math.Round(p.t))
}
