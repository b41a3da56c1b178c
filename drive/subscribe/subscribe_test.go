package subscribe

import (
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/gqlbench/gqlbench/measure"
)

// TestClean: a server that delivers every event once and in order makes a
// valid run, with every expected delivery measured.
func TestClean(t *testing.T) {
	r, err := (&faultServer{}).run(Config{})
	if err != nil {
		t.Fatal(err)
	}
	if ok, why := r.Valid(); !ok {
		t.Fatalf("invalid: %v (%s)\n%s", why, r.FirstError, r.Summary())
	}
	if r.Delivered != r.Expected || r.Expected == 0 || r.Latency.TotalCount() != r.Delivered {
		t.Errorf("delivered %d of %d expected, %d latencies", r.Delivered, r.Expected, r.Latency.TotalCount())
	}
	// 3 connections × (1 subscription of all + 1 of half the events).
	if want := r.Published * 3 * 3 / 2; r.Published != 60 || r.Expected != want {
		t.Errorf("expected %d deliveries for %d events, want about %d", r.Expected, r.Published, want)
	}
	if r.LatencyFrom != "commit" {
		t.Errorf("latency from %s", r.LatencyFrom)
	}
}

// TestFaultsDetected: a drop, a duplicate, a swap and an altered payload,
// each once on one subscription, are each counted once, and the run is
// invalid with all four named.
func TestFaultsDetected(t *testing.T) {
	r, err := (&faultServer{dropAt: 30, dupAt: 40, swapAt: 50, wrongAt: 60}).run(Config{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Lost != 1 || r.Duplicates != 1 || r.OutOfOrder != 1 || r.Wrong != 1 || r.SubscriptionsAffected != 1 {
		t.Errorf("lost %d, duplicates %d, out of order %d, wrong %d, subscriptions affected %d; want 1 each\n%s",
			r.Lost, r.Duplicates, r.OutOfOrder, r.Wrong, r.SubscriptionsAffected, r.Summary())
	}
	ok, _ := r.Valid()
	why := joinWhy(r)
	for _, w := range []string{"1 events lost", "1 events delivered twice", "1 events out of order", "1 wrong payloads"} {
		if !strings.Contains(why, w) {
			t.Errorf("the verdict %q does not name %q", why, w)
		}
	}
	if ok || !strings.Contains(r.Summary(), "INVALID") {
		t.Errorf("a run with faults is valid:\n%s", r.Summary())
	}
}

// TestSSE: over GraphQL over SSE the same faults are counted the same way,
// and a clean server makes a valid run.
func TestSSE(t *testing.T) {
	r, err := (&faultServer{}).run(Config{Protocol: SSE})
	if err != nil {
		t.Fatal(err)
	}
	if ok, why := r.Valid(); !ok || r.Delivered != r.Expected || r.Protocol != SSE {
		t.Fatalf("clean over SSE: valid %v %v (%s)\n%s", ok, why, r.FirstError, r.Summary())
	}
	// The victim is the first stream opened, perhaps a filtered one (30 of
	// the 60 events): the faults come early enough for either.
	r, err = (&faultServer{dropAt: 10, dupAt: 14, swapAt: 18, wrongAt: 22}).run(Config{Protocol: SSE})
	if err != nil {
		t.Fatal(err)
	}
	if r.Lost != 1 || r.Duplicates != 1 || r.OutOfOrder != 1 || r.Wrong != 1 {
		t.Errorf("over SSE: lost %d, duplicates %d, out of order %d, wrong %d; want 1 each\n%s", r.Lost, r.Duplicates, r.OutOfOrder, r.Wrong, r.Summary())
	}
	r, err = (&faultServer{hangUpAt: 20}).run(Config{Protocol: SSE})
	if err != nil {
		t.Fatal(err)
	}
	if r.Drops != 1 {
		t.Errorf("over SSE, a stream hung up: drops %d, want 1", r.Drops)
	}
}

// TestDropReconnect: a connection the server hangs up is counted as
// dropped and, with Reconnect, redialled; the events it missed count as
// lost.
func TestDropReconnect(t *testing.T) {
	r, err := (&faultServer{hangUpAt: 30}).run(Config{Reconnect: true})
	if err != nil {
		t.Fatal(err)
	}
	if r.Drops != 1 || r.Reconnects != 1 {
		t.Errorf("drops %d, reconnects %d; want 1, 1\n%s", r.Drops, r.Reconnects, r.Summary())
	}
	if ok, _ := r.Valid(); ok {
		t.Error("a run with a dropped connection is valid")
	}
	r, err = (&faultServer{hangUpAt: 30}).run(Config{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Drops != 1 || r.Reconnects != 0 || r.Lost == 0 {
		t.Errorf("without reconnecting: drops %d, reconnects %d, lost %d; want 1, 0, some", r.Drops, r.Reconnects, r.Lost)
	}
}

// TestStalledDoNotStall: connections that never read leave the others
// with every event.
func TestStalledDoNotStall(t *testing.T) {
	r, err := (&faultServer{}).run(Config{Stalled: 2})
	if err != nil {
		t.Fatal(err)
	}
	if ok, why := r.Valid(); !ok || r.Stalled != 2 {
		t.Errorf("with 2 stalled connections: valid %v %v, stalled %d", ok, why, r.Stalled)
	}
}

// TestBadConfig: settings out of range are refused before anything is
// opened, and an unreachable server is an error, not a result.
func TestBadConfig(t *testing.T) {
	for _, c := range []Config{
		{URL: "http://127.0.0.1:1/graphql", Subscribers: 0, PerSubscriber: 1, PublishRate: 1, Duration: 1},
		{URL: "http://127.0.0.1:1/graphql", Subscribers: 1, PerSubscriber: 10000, PublishRate: 1, Duration: 1},
		{URL: "http://127.0.0.1:1/graphql", Subscribers: 1, PerSubscriber: 1, PublishRate: 0, Duration: 1},
		{URL: "ftp://x/graphql", Subscribers: 1, PerSubscriber: 1, PublishRate: 1, Duration: 1},
	} {
		if _, err := Run(t.Context(), c); err == nil {
			t.Errorf("%+v: no error", c)
		}
	}
	_, err := Run(t.Context(), Config{URL: "http://127.0.0.1:1/graphql", Subscribers: 2, PerSubscriber: 1, PublishRate: 1, Duration: 1})
	if err == nil || !strings.Contains(err.Error(), "cannot connect") {
		t.Errorf("unreachable server: %v", err)
	}
}

// TestImports keeps the subscriber engine free of server, database and
// GraphQL code, like package drive.
func TestImports(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	allowed := map[string]bool{
		"github.com/gqlbench/gqlbench/drive/subscribe": true, "github.com/gqlbench/gqlbench/measure": true,
		"github.com/HdrHistogram/hdrhistogram-go": true, "github.com/coder/websocket": true,
	}
	for _, dep := range strings.Fields(string(out)) {
		if !allowed[dep] && !strings.HasPrefix(dep, "github.com/coder/websocket/") {
			t.Errorf("the subscriber engine depends on %s", dep)
		}
	}
}

// TestRamp: a ramp stops at the first step whose latency breaks the SLO
// (here an SLO no delivery can meet), and runs every step when none does.
func TestRamp(t *testing.T) {
	f := &faultServer{}
	ts := f.start()
	defer ts.Close()
	cfg := Config{URL: ts.URL + "/graphql", PerSubscriber: 2, PublishRate: 200, Duration: time.Minute, Events: 20,
		Settle: time.Second, Workload: Publications{Tag: "r"}}
	steps, why, err := Ramp(t.Context(), cfg, []int{1, 2, 3}, measure.SLO{{Percentile: 99, Max: time.Nanosecond}})
	if err != nil || len(steps) != 1 || !strings.Contains(why, "1 subscribers: ") || !strings.Contains(why, "p99") {
		t.Errorf("an SLO of 1 ns: %d steps, %q, %v; want 1 step and the SLO named", len(steps), why, err)
	}
	steps, why, err = Ramp(t.Context(), cfg, []int{1, 2, 3}, measure.SLO{{Percentile: 99, Max: time.Hour}})
	if err != nil || len(steps) != 3 || why != "" || steps[2].Subscribers != 3 || steps[2].Result.Subscribers != 3 {
		t.Errorf("an SLO of 1 h: %d steps, %q, %v; want all 3", len(steps), why, err)
	}
}

// TestOps: a user's workload finds the event by its marker, checks the
// marked variables in the payload, and refuses variables without a marker.
func TestOps(t *testing.T) {
	if _, err := NewOps(Ops{MutationVars: map[string]any{"text": "plain"}, Tag: "t1"}); err == nil {
		t.Error("variables without a marker accepted")
	}
	o, err := NewOps(Ops{MutationDoc: "mutation", MutationVars: map[string]any{"book": "3", "text": "gqlbench {{run}} #{{i}}"}, Tag: "t1"})
	if err != nil {
		t.Fatal(err)
	}
	if m := string(o.Mutation(7)); !strings.Contains(m, `"text":"gqlbench t1 #7"`) || !strings.Contains(m, `"book":"3"`) {
		t.Errorf("mutation %s", m)
	}
	ev, err := o.Decode([]byte(`{"data":{"added":{"id":"r9","text":"gqlbench t1 #7"}}}`))
	if err != nil || ev.Index != 7 || o.Check(7, ev) != nil {
		t.Errorf("decode: %+v %v; check %v", ev, err, o.Check(7, ev))
	}
	if err := o.Check(8, ev); err == nil {
		t.Error("event 7's payload passes as event 8's")
	}
	for _, bad := range []string{`{"errors":[{"message":"boom"}]}`, `{"data":null}`, `{"data":{"added":{"text":"another run #7"}}}`, `not json`} {
		if _, err := o.Decode([]byte(bad)); err == nil {
			t.Errorf("%s decoded", bad)
		}
	}
}
