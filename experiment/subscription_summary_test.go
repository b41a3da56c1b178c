package experiment

import (
	"strings"
	"testing"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/gqlbench/gqlbench/drive/subscribe"
)

// TestSubscriptionSummary: the run file's summary carries the result's counts, its
// golden comparison and its latency histogram, and an invalid run is a
// failed one with the reasons — the one summary both `load --mode
// subscribe` and `experiment subscriptions` write.
func TestSubscriptionSummary(t *testing.T) {
	h := hdrhistogram.New(1, int64(time.Minute), 3)
	for i := int64(1); i <= 100; i++ {
		_ = h.RecordValue(i * int64(time.Millisecond))
	}
	ok := &subscribe.Result{Subscribers: 3, PerSubscriber: 2, Published: 10, Expected: 60, Delivered: 60,
		GoldenCompared: 10, Latency: h, LatencyFrom: "commit"}
	sum := SubscriptionSummary(ok, time.Now().Add(-time.Second))
	s := sum.Subscription
	if sum.Status != "ok" || !s.Valid || s.Delivered != 60 || s.GoldenCompared != 10 || s.Hist == "" || s.Latency.N != 100 {
		t.Fatalf("valid run's summary: status %q, subscription %+v", sum.Status, s)
	}
	if sum.ElapsedNS < int64(time.Second) {
		t.Errorf("elapsed %d ns, want ≥ 1 s", sum.ElapsedNS)
	}
	bad := &subscribe.Result{Subscribers: 3, PerSubscriber: 2, Published: 10, Expected: 60, Delivered: 58, Lost: 2, GoldenDiffs: 1}
	sum = SubscriptionSummary(bad, time.Now())
	if sum.Status != "failed" || sum.Subscription.Valid || sum.Subscription.GoldenDiffs != 1 ||
		!strings.HasPrefix(sum.Reason, "invalid subscription run: ") || !strings.Contains(sum.Reason, "lost") {
		t.Fatalf("invalid run's summary: status %q, reason %q, golden diffs %d", sum.Status, sum.Reason, sum.Subscription.GoldenDiffs)
	}
}
