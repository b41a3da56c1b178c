package subscribe

import (
	"fmt"
	"strings"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// Result is what a run measured. Counts are of the measured window (the
// events published after the warm-up), over the subscriptions that read.
type Result struct {
	Subscribers, PerSubscriber, Stalled int
	Protocol                            string
	PublishRate                         float64
	Duration                            time.Duration // of the measured publishing
	WarmUp                              time.Duration // until every subscription had an event

	Published     int64 // mutations that succeeded in the window
	PublishErrors int64 // mutations that failed (their events are not expected)
	PublishLate   int64 // mutations sent more than 10 ms after their intended time

	Expected   int64 // deliveries the subscriptions' filters imply
	Delivered  int64 // deliveries received, each once (the first of duplicates)
	Lost       int64 // expected, never received
	Duplicates int64 // received again
	OutOfOrder int64 // received after an event published later (by seq, else by index)
	Wrong      int64 // payloads that differ from what the mutation implies
	Unexpected int64 // events no subscription of the run asked for

	// SubscriptionsAffected counts subscriptions with any loss, duplicate,
	// reorder or wrong payload.
	SubscriptionsAffected int64
	NeverActive           int64 // subscriptions that received nothing in the warm-up
	Ended                 int64 // subscriptions the server completed or failed before the end
	Drops                 int64 // connections that broke during the run
	Reconnects            int64 // of them, redialled
	DialErrors            int64 // connections that could not be opened
	FirstError            string

	// Latency is the delivery latency, commit (or the mutation's send,
	// LatencyFrom) to receipt, in nanoseconds.
	Latency     *hdrhistogram.Histogram
	LatencyFrom string // "commit" or "send"

	// Memory of the generator: RSS before the connections were opened and
	// once all were subscribed, and the difference per subscriber
	// connection.
	RSSBeforeBytes, RSSSubscribedBytes int64
	BytesPerSubscriber                 int64

	// With Config.Golden: the window's events compared with the golden
	// stream, those that differ, and those past its end (not compared).
	GoldenCompared, GoldenDiffs, GoldenBeyond int64
	// Golden is the window's stream, recorded with Config.RecordGolden.
	Golden *Golden
}

// Valid says whether the run passes its gate: every expected event
// delivered once, in order, as the mutation implies, with no subscription
// left inactive, none ended early, no connection dropped, no mutation
// failed. Why lists what broke it.
func (r *Result) Valid() (bool, []string) {
	var why []string
	add := func(n int64, what string) {
		if n > 0 {
			why = append(why, fmt.Sprintf("%d %s", n, what))
		}
	}
	add(r.Lost, "events lost")
	add(r.Duplicates, "events delivered twice")
	add(r.OutOfOrder, "events out of order")
	add(r.Wrong, "wrong payloads")
	add(r.Unexpected, "unexpected events")
	add(r.NeverActive, "subscriptions never active")
	add(r.Ended, "subscriptions ended by the server")
	add(r.Drops, "connections dropped")
	add(r.DialErrors, "connections not opened")
	add(r.PublishErrors, "mutations failed")
	add(r.GoldenDiffs, "events differ from the golden stream")
	if r.Published == 0 {
		why = append(why, "no event published in the measured window")
	}
	return len(why) == 0, why
}

// Summary is the result for people, a few lines.
func (r *Result) Summary() string {
	var b strings.Builder
	fmt.Fprintf(&b, "subscribe (%s): %d subscribers × %d subscriptions, %g mutations/s for %v (warm-up %v)\n",
		r.Protocol, r.Subscribers, r.PerSubscriber, r.PublishRate, r.Duration, r.WarmUp.Round(time.Millisecond))
	fmt.Fprintf(&b, "  published %d (%d failed, %d late); deliveries %d of %d expected: lost %d, duplicates %d, out of order %d, wrong %d, unexpected %d\n",
		r.Published, r.PublishErrors, r.PublishLate, r.Delivered, r.Expected, r.Lost, r.Duplicates, r.OutOfOrder, r.Wrong, r.Unexpected)
	if h := r.Latency; h != nil && h.TotalCount() > 0 {
		fmt.Fprintf(&b, "  delivery latency (%s → receipt): p50 %v  p99 %v  p99.9 %v  max %v\n", r.LatencyFrom,
			time.Duration(h.ValueAtQuantile(50)), time.Duration(h.ValueAtQuantile(99)), time.Duration(h.ValueAtQuantile(99.9)), time.Duration(h.Max()))
	}
	fmt.Fprintf(&b, "  connections: %d dropped, %d reconnected, %d not opened; subscriptions never active %d, ended early %d",
		r.Drops, r.Reconnects, r.DialErrors, r.NeverActive, r.Ended)
	if r.Stalled > 0 {
		fmt.Fprintf(&b, "; %d stalled connections (never read) left out", r.Stalled)
	}
	b.WriteByte('\n')
	if r.BytesPerSubscriber > 0 {
		fmt.Fprintf(&b, "  generator memory: RSS %d MB subscribed, %d bytes per subscriber\n", r.RSSSubscribedBytes>>20, r.BytesPerSubscriber)
	}
	if r.GoldenCompared+r.GoldenDiffs+r.GoldenBeyond > 0 {
		fmt.Fprintf(&b, "  golden stream: %d events compared, %d differ", r.GoldenCompared, r.GoldenDiffs)
		if r.GoldenBeyond > 0 {
			fmt.Fprintf(&b, ", %d past its end not compared", r.GoldenBeyond)
		}
		b.WriteByte('\n')
	}
	if r.Golden != nil {
		fmt.Fprintf(&b, "  golden stream recorded: %d events\n", len(r.Golden.Events))
	}
	if ok, why := r.Valid(); ok {
		b.WriteString("  valid: every expected event delivered once, in order, as written\n")
	} else {
		fmt.Fprintf(&b, "  INVALID: %s\n", strings.Join(why, ", "))
		if r.FirstError != "" {
			fmt.Fprintf(&b, "  first error: %s\n", r.FirstError)
		}
	}
	return b.String()
}
