package subscribe

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/gqlbench/gqlbench/measure"
)

// record is the publisher's note of mutation i.
type record struct {
	sent  atomic.Int64 // unix ns of the send; 0 before
	state atomic.Int32 // 0 pending, 1 succeeded, 2 failed
	id    atomic.Pointer[string]
	resp  atomic.Pointer[[]byte] // the response's body, kept for a golden stream
}

// sameID says whether id is the one of this mutation's object, recording
// it when it is the first seen.
func (r *record) sameID(id string) bool {
	if id == "" {
		return true
	}
	if r.id.CompareAndSwap(nil, &id) {
		return true
	}
	return *r.id.Load() == id
}

func (r *record) idOf() string {
	if p := r.id.Load(); p != nil {
		return *p
	}
	return ""
}

type shard struct {
	mu sync.Mutex
	h  *hdrhistogram.Histogram
}

// run is one run's shared state.
type run struct {
	cfg     Config
	dialers chan struct{}
	opened  sync.WaitGroup

	records []record
	next    atomic.Int64 // the next index to publish
	start   atomic.Int64 // the first index of the measured window; -1 during the warm-up
	active  atomic.Int64 // subscriptions that have received an event
	allOn   chan struct{}
	onOnce  sync.Once
	target  int64 // subscriptions that read

	delivered, drops, reconnects, dialErrors, ended, strays atomic.Int64
	late, sendBased                                         atomic.Int64

	errMu    sync.Mutex
	firstErr error

	shards []shard
	sse    *http.Client // the event streams' client (SSE)
}

func (r *run) fail(err error) {
	r.errMu.Lock()
	if r.firstErr == nil {
		r.firstErr = err
	}
	r.errMu.Unlock()
}

func (r *run) record(i int64) *record {
	if i < 0 || i >= r.next.Load() || i >= int64(len(r.records)) {
		return nil
	}
	return &r.records[i]
}

func (r *run) activated() {
	if r.active.Add(1) == r.target {
		r.onOnce.Do(func() { close(r.allOn) })
	}
}

func (r *run) latency(conn int, d time.Duration) {
	s := &r.shards[conn%len(r.shards)]
	s.mu.Lock()
	s.h.RecordValue(max(int64(d), 1))
	s.mu.Unlock()
}

// Run runs cfg: opens the connections, subscribes, warms up until every
// subscription has had an event, publishes for cfg.Duration, waits for the
// last events, and returns what it measured. An error means the run could
// not be made at all (bad settings, no connection opened); a run that was
// made returns its Result, valid or not.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	if err := cfg.withDefaults(); err != nil {
		return nil, err
	}
	self, _ := measure.NewProc(os.Getpid())
	rssBefore := rss(self)

	r := newRun(cfg)
	if r.sse != nil {
		defer r.sse.CloseIdleConnections()
	}

	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	var wg sync.WaitGroup
	conns := r.open(runCtx, &wg)
	opened := make(chan struct{})
	go func() { r.opened.Wait(); close(opened) }()
	select {
	case <-opened:
	case <-ctx.Done():
		stop()
		wg.Wait()
		return nil, ctx.Err()
	}
	if r.dialErrors.Load() == int64(len(conns)) {
		stop()
		wg.Wait()
		return nil, r.firstErr
	}
	res := &Result{Subscribers: cfg.Subscribers, PerSubscriber: cfg.PerSubscriber, Stalled: cfg.Stalled, Protocol: cfg.Protocol,
		PublishRate: cfg.PublishRate, Duration: cfg.Duration, RSSBeforeBytes: rssBefore}
	end := r.publish(ctx, runCtx, res, self)

	// Settle: wait for the events on their way.
	expected := r.expected(conns, end)
	deadline := time.Now().Add(cfg.Settle)
	for r.delivered.Load() < expected && time.Now().Before(deadline) && ctx.Err() == nil {
		time.Sleep(20 * time.Millisecond)
	}
	stop()
	wg.Wait()

	r.collect(res, conns, end)
	if r.firstErr != nil {
		res.FirstError = r.firstErr.Error()
	}
	return res, nil
}

// newRun is cfg's run before any connection: its records sized for every
// event it may publish, its histogram shards, and, for SSE, its client.
func newRun(cfg Config) *run {
	capacity := int64(math.Ceil(cfg.PublishRate*(cfg.Duration+cfg.WarmUp).Seconds())) + 64
	if cfg.Events > 0 {
		capacity = min(capacity, int64(math.Ceil(cfg.PublishRate*cfg.WarmUp.Seconds()))+cfg.Events+64)
	}
	r := &run{cfg: cfg, dialers: make(chan struct{}, cfg.Dialers), records: make([]record, capacity),
		allOn: make(chan struct{}), target: int64(cfg.Subscribers * cfg.PerSubscriber)}
	r.start.Store(-1)
	if cfg.Protocol == SSE {
		r.sse = newSSEClient()
	}
	r.shards = make([]shard, runtime.GOMAXPROCS(0))
	for i := range r.shards {
		r.shards[i].h = measure.NewHist()
	}
	return r
}

// open starts the connections, the subscribers' and the stalled ones, each
// serving until ctx ends; wg counts them and r.opened their openings.
func (r *run) open(ctx context.Context, wg *sync.WaitGroup) []*conn {
	cfg := r.cfg
	conns := make([]*conn, cfg.Subscribers+cfg.Stalled)
	r.opened.Add(len(conns))
	for n := range conns {
		c := &conn{r: r, n: n, stalled: n >= cfg.Subscribers, subs: make([]sub, cfg.PerSubscriber), ids: make([]string, cfg.PerSubscriber)}
		for k := range c.subs {
			c.ids[k] = strconv.Itoa(k)
			_, _, c.subs[k].selects = cfg.Workload.Subscription(n, k)
		}
		conns[n] = c
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.serve(ctx)
		}()
	}
	return conns
}

// publish warms up, then measures: one publisher schedule throughout, under
// runCtx; the warm-up ends when every subscription has had an event, at
// cfg.WarmUp, or when ctx ends. It records the warm-up and the memory in
// res and returns the index after the last event published.
func (r *run) publish(ctx, runCtx context.Context, res *Result, self *measure.Proc) int64 {
	cfg := r.cfg
	pub := newPublisher(r)
	begun := time.Now()
	pubDone := make(chan struct{})
	pubCtx, stopPub := context.WithCancel(runCtx)
	var windowEnd atomic.Int64
	go func() {
		defer close(pubDone)
		pub.run(pubCtx, &windowEnd)
	}()
	select {
	case <-r.allOn:
	case <-time.After(cfg.WarmUp):
	case <-ctx.Done():
	}
	res.WarmUp = time.Since(begun)
	res.RSSSubscribedBytes = rss(self)
	if res.RSSSubscribedBytes > res.RSSBeforeBytes {
		res.BytesPerSubscriber = (res.RSSSubscribedBytes - res.RSSBeforeBytes) / int64(cfg.Subscribers+cfg.Stalled)
	}
	r.start.Store(r.next.Load())
	windowEnd.Store(time.Now().Add(cfg.Duration).UnixNano())
	<-pubDone
	stopPub()
	return r.next.Load()
}

func rss(p *measure.Proc) int64 {
	if p == nil {
		return 0
	}
	return p.Sample().RSSBytes
}

// expected counts the deliveries the window's successful mutations imply.
func (r *run) expected(conns []*conn, end int64) int64 {
	var n int64
	start := r.start.Load()
	for _, c := range conns {
		if c.stalled {
			continue
		}
		for k := range c.subs {
			for i := start; i < end; i++ {
				if r.records[i].state.Load() == 1 && (c.subs[k].selects == nil || c.subs[k].selects(i)) {
					n++
				}
			}
		}
	}
	return n
}

// collect adds up the subscriptions' counts.
func (r *run) collect(res *Result, conns []*conn, end int64) {
	start := r.start.Load()
	for i := start; i < end; i++ {
		switch r.records[i].state.Load() {
		case 1:
			res.Published++
		case 2:
			res.PublishErrors++
		}
	}
	for _, c := range conns {
		if c.stalled {
			continue
		}
		for k := range c.subs {
			s := &c.subs[k]
			if !s.active {
				res.NeverActive++
			}
			var lost int64
			for i := start; i < end; i++ {
				if r.records[i].state.Load() == 1 && (s.selects == nil || s.selects(i)) {
					res.Expected++
					if !s.has(i) {
						lost++
					}
				}
			}
			res.Lost += lost
			res.Delivered += s.delivered
			res.Duplicates += s.dups
			res.OutOfOrder += s.reorder
			res.Wrong += s.wrong
			res.Unexpected += s.unexpected
			if lost+s.dups+s.reorder+s.wrong+s.unexpected > 0 {
				res.SubscriptionsAffected++
			}
		}
	}
	res.Unexpected += r.strays.Load()
	res.Ended, res.Drops, res.Reconnects, res.DialErrors = r.ended.Load(), r.drops.Load(), r.reconnects.Load(), r.dialErrors.Load()
	res.PublishLate = r.late.Load()
	res.Latency = measure.NewHist()
	for i := range r.shards {
		res.Latency.Merge(r.shards[i].h)
	}
	res.LatencyFrom = "commit"
	if r.sendBased.Load() > 0 {
		res.LatencyFrom = "send"
	}
	r.goldenCheck(res, start, end)
}

// publisher issues the mutations on a constant schedule.
type publisher struct {
	r      *run
	client *http.Client
}

func newPublisher(r *run) *publisher {
	tr := &http.Transport{MaxIdleConnsPerHost: r.cfg.Publishers, MaxConnsPerHost: r.cfg.Publishers, DisableCompression: true}
	return &publisher{r: r, client: &http.Client{Transport: tr, Timeout: 30 * time.Second}}
}

// run publishes at the configured rate until windowEnd (unix ns, 0 while
// warming up) has passed or the records are used up.
func (p *publisher) run(ctx context.Context, windowEnd *atomic.Int64) {
	defer p.client.CloseIdleConnections()
	interval := time.Duration(float64(time.Second) / p.r.cfg.PublishRate)
	slots := make(chan struct{}, p.r.cfg.Publishers)
	var wg sync.WaitGroup
	defer wg.Wait()
	t0 := time.Now()
	for n := int64(0); ; n++ {
		due := t0.Add(time.Duration(n) * interval)
		if d := time.Until(due); d > 0 {
			select {
			case <-time.After(d):
			case <-ctx.Done():
				return
			}
		}
		if end := windowEnd.Load(); end != 0 && time.Now().UnixNano() >= end {
			return
		}
		if start := p.r.start.Load(); start >= 0 && p.r.cfg.Events > 0 && p.r.next.Load() >= start+p.r.cfg.Events {
			return
		}
		select {
		case slots <- struct{}{}:
		case <-ctx.Done():
			return
		}
		if time.Since(due) > 10*time.Millisecond {
			p.r.late.Add(1)
		}
		i := p.r.next.Load()
		if i >= int64(len(p.r.records)) {
			return
		}
		rec := &p.r.records[i]
		rec.sent.Store(time.Now().UnixNano())
		p.r.next.Store(i + 1)
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-slots }()
			p.send(ctx, i, rec)
		}()
	}
}

func (p *publisher) send(ctx context.Context, i int64, rec *record) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.r.cfg.URL, bytes.NewReader(p.r.cfg.Workload.Mutation(i)))
	if err != nil {
		rec.state.Store(2)
		p.r.fail(err)
		return
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := p.client.Do(req)
	if err != nil {
		rec.state.Store(2)
		if ctx.Err() == nil {
			p.r.fail(fmt.Errorf("mutation %d: %v", i, err))
		}
		return
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	resp.Body.Close()
	if err == nil && resp.StatusCode != http.StatusOK {
		err = fmt.Errorf("HTTP %d: %.200s", resp.StatusCode, body)
	}
	var id string
	if err == nil {
		id, err = p.r.cfg.Workload.Created(body)
	}
	if err == nil && !rec.sameID(id) {
		err = fmt.Errorf("the response's id %q, the events' %q", id, rec.idOf())
	}
	if err != nil {
		rec.state.Store(2)
		p.r.fail(fmt.Errorf("mutation %d: %v", i, err))
		return
	}
	if p.r.cfg.Golden != nil || p.r.cfg.RecordGolden {
		rec.resp.Store(&body)
	}
	rec.state.Store(1)
}
