package experiment

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/gqlbench/gqlbench/drive/subscribe"
	"github.com/gqlbench/gqlbench/internal/outfile"
	"github.com/gqlbench/gqlbench/measure"
	"github.com/gqlbench/gqlbench/report"
	"github.com/gqlbench/gqlbench/runfile"
	"github.com/gqlbench/gqlbench/server"
)

// Subscriptions is the subscription load of issue 25 (seed 003 planned it:
// 500 clients × 2 subscriptions fed by mutations) against each variant:
// Subscribers connections × PerSubscriber subscriptions, a publisher at
// PublishRate (package drive/subscribe), with three verdicts: the run is
// valid (no event lost, duplicated, reordered or wrong), the delivery
// latency meets SLO, and the generator holds a subscriber in at most
// MaxBytesPerSubscriber. A variant that serves no subscriptions is said and
// passed by, not failed.
type Subscriptions struct {
	Common
	SF            int
	Variants      []string
	Pool          int
	Subscribers   int
	PerSubscriber int
	PublishRate   float64
	Duration      time.Duration // the measured publishing
	WarmUp        time.Duration // the longest warm-up
	Settle        time.Duration
	Protocol      string
	SLO           measure.SLO // of the delivery latency (p99<50ms)
	// MaxBytesPerSubscriber is the generator's memory target per
	// subscriber connection (issue 25: 100 KB); judged from
	// MinSubscribersForBytes subscribers on (below, the process's fixed
	// cost weighs on each).
	MaxBytesPerSubscriber int64
}

// MinSubscribersForBytes is the fewest subscribers whose generator memory
// per subscriber is judged: at fewer, the process's fixed cost of a few MB
// spread over them says nothing of a subscriber's own.
const MinSubscribersForBytes = 100

func init() {
	Register(Experiment{
		Name:     "subscriptions",
		Summary:  "seed 003's planned subscription load: 500 subscribers × 2 subscriptions fed by mutations; valid (no loss, duplicate, reorder), p99 delivery latency against an SLO, generator bytes per subscriber",
		Synopsis: subscriptionsSynopsis,
		Dir:      "gqlbench-subscriptions",
		Quick:    [][2]string{{"subscribers", "100"}, {"duration", "10s"}, {"publish-rate", "2"}, {"warmup", "15s"}, {"settle", "3s"}},
		Flags:    subscriptionsFlags,
	})
}

const subscriptionsSynopsis = `experiment subscriptions [--variants batch] [--subscribers 500] [--per-subscriber 2] [--publish-rate 1] [--duration 30s] [--slo 'p99<50ms'] [--max-bytes-per-subscriber 100000] [--quick] [flags]

The subscription load seed 003 planned and never published: --subscribers
connections speaking graphql-transport-ws (or --protocol graphql-sse), each
with --per-subscriber subscriptions to publicationAdded (the even ones every
event, the odd ones one main author's), and a publisher issuing
createPublication at --publish-rate per second (load --mode subscribe,
docs/subscriptions.md). Per variant, three verdicts: the run is valid (every
expected event delivered once, in order, as its mutation implies: no loss,
duplicate or reorder), the delivery latency (commit to receipt) meets --slo,
and the load generator holds a subscriber in at most
--max-bytes-per-subscriber (judged from 100 subscribers on). The
resolver-based variants serve subscriptions (naive, memo, batch,
batch-memo); a variant that serves none is said and passed by, not failed.
--quick: 100 subscribers × 2, 2 events/s for 10 s.`

func subscriptionsFlags(fs *flag.FlagSet) Setup {
	var e Subscriptions
	sf := Scale(1)
	fs.Var(&sf, "sf", "scale factor of the dataset")
	variants := fs.String("variants", "batch", "comma-separated server variants (those without subscriptions are passed by, said why)")
	fs.IntVar(&e.Pool, "pool", 10, "database connections of each server")
	fs.IntVar(&e.Subscribers, "subscribers", 500, "subscriber connections (seed 003: 500)")
	fs.IntVar(&e.PerSubscriber, "per-subscriber", 2, "subscriptions on each connection (seed 003: 2)")
	fs.Float64Var(&e.PublishRate, "publish-rate", 1, "mutations (events) per second")
	fs.DurationVar(&e.Duration, "duration", 30*time.Second, "the measured publishing, after the warm-up")
	fs.DurationVar(&e.WarmUp, "warmup", 30*time.Second, "the longest warm-up: until every subscription has had an event")
	fs.DurationVar(&e.Settle, "settle", 5*time.Second, "the longest wait for the last events after the last mutation")
	fs.StringVar(&e.Protocol, "protocol", subscribe.TransportWS, "graphql-transport-ws or graphql-sse")
	slo := fs.String("slo", "p99<50ms", "the delivery latency's objective (issue 25: p99 < 50 ms at 1 event/s)")
	fs.Int64Var(&e.MaxBytesPerSubscriber, "max-bytes-per-subscriber", 100000, "the load generator's memory per subscriber at most (issue 25: 100 KB)")
	return newSetup(&e, func() error {
		e.SF = int(sf)
		var err error
		if e.SLO, err = measure.ParseSLO(*slo); err != nil {
			return usagef("--slo: %v", err)
		}
		e.Variants, err = parseVariants(*variants)
		return err
	})
}

func (e *Subscriptions) check() error {
	if e.Pool < 1 || e.MaxBytesPerSubscriber < 1 {
		return usagef("--pool and --max-bytes-per-subscriber must be at least 1")
	}
	err := subscribe.Check(subscribe.Config{URL: "http://127.0.0.1/graphql", Subscribers: e.Subscribers, PerSubscriber: e.PerSubscriber,
		PublishRate: e.PublishRate, Duration: e.Duration, Protocol: e.Protocol})
	if err != nil {
		return usagef("%v", err)
	}
	if e.WarmUp < 0 || e.Settle < 0 {
		return usagef("--warmup and --settle must not be negative")
	}
	return nil
}

func (e *Subscriptions) defaults() {
	e.SF, e.Pool = max(e.SF, 1), max(e.Pool, 1)
	if len(e.Variants) == 0 {
		e.Variants = []string{"batch"}
	}
	if e.MaxBytesPerSubscriber <= 0 {
		e.MaxBytesPerSubscriber = 100000
	}
}

// Run runs the experiment.
func (e Subscriptions) Run(ctx context.Context) (*Result, error) {
	e.defaults()
	return runPerVariant(ctx, "subscriptions", e.Common, e.run, func(rs []*subsResult) report.Section { return subscriptionsSection(e, rs) })
}

// subsResult is one variant's run, or why it has none.
type subsResult struct {
	variant, path string
	skipped       string // the variant serves no subscriptions: why
	res           *subscribe.Result
}

func (e Subscriptions) run(ctx context.Context, s *session, dbs *databases, results *[]*subsResult) error {
	if err := peersNeedPostgres(e.Variants, dbs.kind); err != nil {
		return err
	}
	s.config = append(s.config, e.config()...)
	url, _, err := dbs.dataset(ctx, e.SF, s.Seed)
	if err != nil {
		return err
	}
	s.pinLoad()
	defer s.unpinLoad()
	skipped := 0
	for _, v := range e.Variants {
		r, err := e.variant(ctx, s, v, url, dbs.kind)
		if r != nil {
			*results = append(*results, r)
			for _, vd := range r.verdicts(e) {
				s.verdict(vd)
				fmt.Fprintf(s.Out, "%s %s: %s (threshold %s): %s%s\n", v, vd.Measure, vd.Value, orDash(vd.Threshold), strings.ToUpper(vd.Result), parenthesized(vd.Detail))
				if vd.Result == Fail {
					s.checks = append(s.checks, fmt.Sprintf("subscriptions %s: %s %s (threshold %s)", v, vd.Measure, vd.Value, vd.Threshold))
				}
			}
			if r.skipped != "" {
				skipped++
			}
		}
		if err != nil {
			return err
		}
	}
	if skipped == len(e.Variants) {
		s.nothingRan = "no variant serves subscriptions"
	}
	return nil
}

// variant runs the load against one variant: its server, whether it
// serves subscriptions, the run and its run file.
func (e Subscriptions) variant(ctx context.Context, s *session, v, url, db string) (*subsResult, error) {
	srv, err := s.tryServer(ctx, v, url, e.Pool, "subscriptions-"+v)
	if srv == nil {
		return nil, err
	}
	defer s.stopServer(srv)
	r := &subsResult{variant: v}
	if why, err := servesSubscriptions(ctx, srv); err != nil {
		s.serverFailed(srv, fmt.Errorf("%s: %w", v, err))
		return nil, nil
	} else if why != "" {
		r.skipped = why
		s.notes = append(s.notes, fmt.Sprintf("%s: not measured: %s", v, why))
		return r, nil
	}
	cfg := subscribe.Config{URL: srv.URL, Subscribers: e.Subscribers, PerSubscriber: e.PerSubscriber, PublishRate: e.PublishRate,
		Duration: e.Duration, WarmUp: e.WarmUp, Settle: e.Settle, Protocol: e.Protocol}
	start := time.Now()
	hdr := e.header(s, srv, v, db)
	// The generator's RSS before and once subscribed measures its memory
	// per subscriber: memory this process freed earlier (the dataset, the
	// oracle, the suite's other parts) goes back to the system first, or
	// the subscribers would reuse it unseen.
	debug.FreeOSMemory()
	res, err := subscribe.Run(ctx, cfg)
	if res == nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if died := srv.Died(); died != nil {
			err = died
		}
		s.serverFailed(srv, fmt.Errorf("%s: the subscription load: %w", v, err))
		return nil, nil
	}
	r.res = res
	r.path = filepath.Join(s.Dir, "runs", "subs-"+v+".jsonl")
	sum := SubscriptionSummary(res, start)
	if ctx.Err() != nil {
		sum.Status, sum.Reason = "interrupted", "interrupted: "+sum.Reason
	}
	if err := writeRunFile(r.path, hdr, sum); err != nil {
		return r, err
	}
	s.res.Runs = append(s.res.Runs, r.path)
	s.logf("  %-28s %s", v+" subscriptions", firstLine(res.Summary()))
	if died := srv.Died(); died != nil {
		s.serverFailed(srv, fmt.Errorf("%s: %w (the run file %s keeps what was measured)", v, died, r.path))
	}
	return r, ctx.Err()
}

// servesSubscriptions asks srv for a subscription stream (GraphQL over
// SSE, the simplest to ask for): "" when it opens one, else why it has
// none — gqlbench's servers without subscriptions answer 501, a server of
// another stack whatever it answers a stream request with. A Go variant
// of gqlbench's that answers otherwise is an error.
func servesSubscriptions(ctx context.Context, srv *Server) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	body := `{"query":"subscription { publicationAdded { seq } }"}`
	req, err := http.NewRequestWithContext(ctx, "POST", srv.URL, strings.NewReader(body))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", fmt.Errorf("asking for a subscription stream: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode == 200 && strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		return "", nil
	}
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 300))
	answer := fmt.Sprintf("a subscription stream request gets %s: %s", resp.Status, strings.TrimSpace(string(b)))
	sv, _ := server.Lookup(srv.Spec.Variant)
	switch {
	case resp.StatusCode == http.StatusNotImplemented:
		return fmt.Sprintf("%s serves no subscriptions (only the resolver-based variants do: naive, memo, batch, batch-memo)", srv.Spec.Variant), nil
	case sv.Process != nil:
		return fmt.Sprintf("%s, a server of another stack, serves no subscriptions here (%s)", srv.Spec.Variant, answer), nil
	}
	return "", fmt.Errorf("%s", answer)
}

// verdicts are the run's three lines, or, for a variant without
// subscriptions, one line saying so.
func (r *subsResult) verdicts(e Subscriptions) []Verdict {
	if r.skipped != "" {
		return []Verdict{{Variant: r.variant, Measure: "subscriptions", Value: "not measured", Result: NA, Detail: r.skipped}}
	}
	res := r.res
	ok, why := res.Valid()
	valid := Verdict{Variant: r.variant, Measure: "valid run", Value: fmt.Sprintf("lost %d, duplicates %d, out of order %d", res.Lost, res.Duplicates, res.OutOfOrder),
		Threshold: "0 of each", Result: resultOf(ok), Detail: fmt.Sprintf("%d of %d expected deliveries", res.Delivered, res.Expected)}
	if !ok {
		valid.Detail += "; invalid: " + strings.Join(why, ", ")
	}
	lat := Verdict{Variant: r.variant, Measure: "delivery latency",
		Metric: "delivery-p99", Threshold: e.SLO.String(), Value: "no deliveries", Unit: "ms", Result: NA}
	if h := res.Latency; h != nil && h.TotalCount() > 0 {
		p99 := time.Duration(h.ValueAtQuantile(99))
		lat.Value, lat.Number = "p99 "+p99.Round(10*time.Microsecond).String(), numPtr(float64(p99)/1e6)
		lat.Detail = fmt.Sprintf("%d × %d at %g/s; p50 %v, max %v, from %s", res.Subscribers, res.PerSubscriber, res.PublishRate, time.Duration(h.ValueAtQuantile(50)).Round(10*time.Microsecond), time.Duration(h.Max()).Round(10*time.Microsecond), res.LatencyFrom)
		pass, broke := e.SLO.Check(h)
		lat.Result = resultOf(pass)
		if !pass {
			lat.Detail = broke + "; " + lat.Detail
		}
	}
	mem := Verdict{Variant: r.variant, Measure: "generator bytes per subscriber", Metric: "bytes-per-subscriber", Unit: "bytes",
		Value: fmt.Sprint(res.BytesPerSubscriber), Number: numPtr(float64(res.BytesPerSubscriber)), Threshold: fmt.Sprintf("≤ %d", e.MaxBytesPerSubscriber),
		Detail: fmt.Sprintf("RSS %.1f → %.1f MiB", float64(res.RSSBeforeBytes)/(1<<20), float64(res.RSSSubscribedBytes)/(1<<20))}
	switch {
	case res.BytesPerSubscriber <= 0:
		mem.Result, mem.Detail = NA, mem.Detail+"; not measured: the RSS did not grow"
	case res.Subscribers < MinSubscribersForBytes:
		mem.Result, mem.Detail = Info, fmt.Sprintf("%s; judged from %d subscribers on (the process's fixed cost weighs on fewer)", mem.Detail, MinSubscribersForBytes)
	default:
		mem.Result = resultOf(res.BytesPerSubscriber <= e.MaxBytesPerSubscriber)
	}
	return []Verdict{valid, lat, mem}
}

// header is the run file's header of variant v's run.
func (e Subscriptions) header(s *session, srv *Server, v, db string) *runfile.Header {
	host, _ := os.Hostname()
	return &runfile.Header{
		Type: runfile.TypeHeader, Format: runfile.Format,
		Tool:      runfile.Tool{Name: "gqlbench", Version: s.Version, Go: runtime.Version()},
		Generator: fmt.Sprintf("%s/%d", host, os.Getpid()), Command: s.Command,
		Flags: map[string]string{"subscribers": strconv.Itoa(e.Subscribers), "per-subscriber": strconv.Itoa(e.PerSubscriber),
			"publish-rate": strconv.FormatFloat(e.PublishRate, 'f', -1, 64), "duration": e.Duration.String(), "protocol": e.Protocol},
		Labels: labels(v, e.SF, e.Pool, e.Subscribers, "subscriptions", db),
		Target: srv.URL, Mode: "subscribe",
		Queries: runfile.Queries{Path: "(built in: publicationAdded, createPublication)", Templates: []string{"publicationAdded"}},
		Params:  runfile.Params{Extra: "subscribe: " + e.Protocol},
		Watch:   []runfile.Watched{{PID: srv.PID, Name: v}},
		Machine: runfile.ThisMachine(), Hist: runfile.StandardHist, Start: time.Now().UTC(),
	}
}

// writeRunFile writes a run file of a header and a summary.
func writeRunFile(path string, hdr *runfile.Header, sum *runfile.Summary) error {
	return outfile.WriteFile(path, 0o644, func(w io.Writer) error {
		rw := runfile.NewWriter(w)
		rw.Write(hdr)
		rw.Write(sum)
		return rw.Err()
	})
}

// config discloses the parameters.
func (e Subscriptions) config() [][2]string {
	return [][2]string{
		{"scale factor", strconv.Itoa(e.SF)},
		{"variants", strings.Join(e.Variants, ", ")},
		{"load", fmt.Sprintf("%d subscriber connections × %d subscriptions (%s; even ones publicationAdded, every event; odd ones one main author's, half), createPublication at %g/s for %v after the warm-up (at most %v), %v settle",
			e.Subscribers, e.PerSubscriber, e.Protocol, e.PublishRate, e.Duration, e.WarmUp, e.Settle)},
		{"verdicts", fmt.Sprintf("valid: no event lost, duplicated, reordered or wrong; delivery latency (commit to receipt) %s; the load generator's RSS per subscriber ≤ %d bytes (from %d subscribers on)", e.SLO, e.MaxBytesPerSubscriber, MinSubscribersForBytes)},
		{"connection pool", strconv.Itoa(e.Pool)},
	}
}

// subscriptionsSection is the report's section: a row per variant. The
// run files' own Subscriptions section has the details.
func subscriptionsSection(e Subscriptions, rs []*subsResult) report.Section {
	sec := report.Section{ID: "subscriptions-verdicts", Title: "Subscriptions under load: verdicts"}
	t := report.Table{Title: "Verdicts", Head: []string{"variant", "measure", "value", "threshold", "result", "detail"}}
	for _, r := range rs {
		for _, v := range r.verdicts(e) {
			t.Rows = append(t.Rows, []string{r.variant, v.Measure, v.Value, orDash(v.Threshold), v.Result, v.Detail})
		}
	}
	sec.Paras = []string{"Seed 003 planned 500 clients × 2 subscriptions fed by the mutations of its load, and never published it. Each event is checked: its payload against the mutation that raised it, its delivery latency from the commit time it carries to its receipt (one machine, one clock), and per subscription events lost, duplicated or out of order — any of which makes the run invalid (a router that drops events by design is reported, not averaged)."}
	sec.Tables = []report.Table{t}
	return sec
}

// parenthesized is " (s)", or "" for "".
func parenthesized(s string) string {
	if s == "" {
		return ""
	}
	return " (" + s + ")"
}

// SubscriptionSummary is the run file's summary line of the subscription
// run r, which started at start: r as a runfile.Subscription (its latency histogram
// encoded), and status "failed" with the reasons when the run is invalid.
// `load --mode subscribe` and `experiment subscriptions` both write it.
func SubscriptionSummary(r *subscribe.Result, start time.Time) *runfile.Summary {
	s := &runfile.Subscription{
		Subscribers: r.Subscribers, PerSubscriber: r.PerSubscriber, Stalled: r.Stalled, PublishRate: r.PublishRate,
		Protocol: r.Protocol, WindowNS: int64(r.Duration), WarmUpNS: int64(r.WarmUp),
		Published: r.Published, PublishErrors: r.PublishErrors, PublishLate: r.PublishLate,
		Expected: r.Expected, Delivered: r.Delivered, Lost: r.Lost, Duplicates: r.Duplicates, OutOfOrder: r.OutOfOrder,
		Wrong: r.Wrong, Unexpected: r.Unexpected, SubscriptionsAffected: r.SubscriptionsAffected,
		NeverActive: r.NeverActive, Ended: r.Ended, Drops: r.Drops, Reconnects: r.Reconnects, DialErrors: r.DialErrors,
		Latency: runfile.DistOf(r.Latency), LatencyFrom: r.LatencyFrom,
		RSSBeforeBytes: r.RSSBeforeBytes, RSSSubscribedBytes: r.RSSSubscribedBytes, BytesPerSubscriber: r.BytesPerSubscriber,
		GoldenCompared: r.GoldenCompared, GoldenDiffs: r.GoldenDiffs,
		FirstError: r.FirstError,
	}
	if r.Latency != nil && r.Latency.TotalCount() > 0 {
		s.Hist, _ = runfile.EncodeHist(r.Latency)
	}
	s.Valid, s.Invalid = r.Valid()
	sum := &runfile.Summary{Type: runfile.TypeSummary, Status: "ok", End: time.Now().UTC(), ElapsedNS: int64(time.Since(start)),
		Templates: map[string]*runfile.TemplateSummary{}, Subscription: s}
	if !s.Valid {
		sum.Status, sum.Reason = "failed", "invalid subscription run: "+strings.Join(s.Invalid, ", ")
	}
	return sum
}
