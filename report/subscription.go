package report

import (
	"fmt"
	"strings"
	"time"
)

// subscriptionID is the anchor of the subscription runs' section.
const subscriptionID = "subscriptions"

// subscriptionSection is the section of the runs made by load --mode
// subscribe (their summaries' subscription account): per run, the load, the
// validity gate, the deliveries and the delivery latency, and the
// generator's memory per subscriber. It is absent when no run has one.
func subscriptionSection(runs []*Run) (Section, []string, bool) {
	sec := Section{ID: subscriptionID, Title: "Subscriptions"}
	load := Table{Title: "Load and validity", Head: []string{"run", "series", "subscribers × subscriptions", "events/s", "window", "published", "valid", "why not"}}
	del := Table{Title: "Deliveries (measured window)", Note: "lost, duplicates, out of order and wrong payloads are counted per subscription; any of them makes the run invalid",
		Head: []string{"run", "expected", "delivered", "lost", "duplicates", "out of order", "wrong", "unexpected", "subscriptions affected", "drops", "reconnects"}}
	lat := Table{Title: "Delivery latency", Head: []string{"run", "from", "n", "p50 ms", "p90 ms", "p99 ms", "p99.9 ms", "max ms", "generator bytes/subscriber"}}
	ramp := Table{Title: "Ramp", Note: "each step a whole run at one number of subscribers, until one breaks the SLO or is invalid",
		Head: []string{"run", "SLO", "subscribers", "valid", "delivered", "p50 ms", "p99 ms", "generator bytes/subscriber", "stopped"}}
	var invalid []string
	for _, run := range runs {
		fs := run.File.Summary
		if fs == nil || fs.Subscription == nil {
			continue
		}
		s := fs.Subscription
		name := run.Path
		valid, why := "yes", ""
		if !s.Valid {
			valid, why = "NO", strings.Join(s.Invalid, ", ")
			invalid = append(invalid, fmt.Sprintf("%s: %s", name, why))
		}
		load.Rows = append(load.Rows, []string{name, run.key.Series, fmt.Sprintf("%d × %d", s.Subscribers, s.PerSubscriber),
			fmt.Sprintf("%g", s.PublishRate), time.Duration(s.WindowNS).String(), fmt.Sprint(s.Published), valid, why})
		del.Rows = append(del.Rows, []string{name, fmt.Sprint(s.Expected), fmt.Sprint(s.Delivered), fmt.Sprint(s.Lost), fmt.Sprint(s.Duplicates),
			fmt.Sprint(s.OutOfOrder), fmt.Sprint(s.Wrong), fmt.Sprint(s.Unexpected), fmt.Sprint(s.SubscriptionsAffected), fmt.Sprint(s.Drops), fmt.Sprint(s.Reconnects)})
		for i, st := range s.Ramp {
			stop := ""
			if i == len(s.Ramp)-1 {
				stop = s.RampStop
				if stop == "" {
					stop = "every step met the SLO"
				}
			}
			ramp.Rows = append(ramp.Rows, []string{name, s.RampSLO, fmt.Sprint(st.Subscribers), yesNo(st.Valid), fmt.Sprint(st.Delivered),
				msText(st.P50NS), msText(st.P99NS), fmt.Sprint(st.BytesPerSubscriber), stop})
		}
		l := s.Latency
		lat.Rows = append(lat.Rows, []string{name, s.LatencyFrom, fmt.Sprint(l.N), msText(l.P50), msText(l.P90), msText(l.P99), msText(l.P999), msText(l.Max), fmt.Sprint(s.BytesPerSubscriber)})
	}
	if len(load.Rows) == 0 {
		return Section{}, nil, false
	}
	sec.Paras = []string{"Runs of load --mode subscribe: N connections speaking graphql-transport-ws, K subscriptions on each, " +
		"and a publisher issuing the mutations that raise the events. A run is valid only if every expected event was delivered " +
		"once, in order, with the payload its mutation implies, and no connection dropped (docs/subscriptions.md)."}
	if len(invalid) > 0 {
		sec.Paras = append(sec.Paras, fmt.Sprintf("INVALID: %d subscription run(s): %s.", len(invalid), strings.Join(invalid, "; ")))
	}
	sec.Tables = []Table{load, del, lat}
	if len(ramp.Rows) > 0 {
		sec.Tables = append(sec.Tables, ramp)
	}
	return sec, invalid, true
}

func msText(ns int64) string { return fmt.Sprintf("%.2f", float64(ns)/1e6) }
