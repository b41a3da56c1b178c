package report

import (
	"encoding/csv"
	"io"
	"strconv"
)

// CSVColumns are the columns of the CSV format, one row per series,
// conditions and template (template "all": a whole mixed workload). Empty
// cells do not apply (docs/report.md defines each).
var CSVColumns = []string{
	"series", "mode", "sf", "clients", "pool", "workload", "template", "flagged",
	"requests", "ok", "errors", "wrong", "verified", "throughput_per_s", "goodput_per_s",
	"atp_runs", "atp_warmup_runs", "atp_mean_per_s", "atp_sd_per_s", "atp_ci95_low_per_s", "atp_ci95_high_per_s", "atp_cv",
	"atp_ratio", "atp_rank",
	"qet_n", "qet_min_ns", "qet_p25_ns", "qet_p50_ns", "qet_p75_ns", "qet_p90_ns", "qet_p99_ns", "qet_max_ns", "qet_mean_ns", "qet_sd_ns",
	"latency_p50_ns", "latency_p99_ns", "bytes_sent_per_request", "bytes_received_per_request",
	"db_statements_per_request",
	"layers_source", "layers_round_trip_ms", "layers_server_total_ms", "layers_database_ms", "layers_graphql_ms",
	"layers_graphql_pct", "layers_overhead_ms",
}

func (r *Report) writeCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write(CSVColumns)
	tp := map[string]Throughput{}
	for _, t := range append(append([]Throughput(nil), r.Throughput...), r.Workloads...) {
		tp[rowID(t.Key, t.Template)] = t
	}
	lat := map[string]Latency{}
	for _, l := range r.Latency {
		lat[rowID(l.Key, l.Template)] = l
	}
	lay := map[string]Layer{}
	for _, l := range r.Layers {
		lay[rowID(l.Key, l.Template)] = l
	}
	for _, c := range r.Correctness {
		row := keyCells(c.Key, c.Template, r.flagged(c.Series))
		row = append(row, itoa(c.Requests), itoa(c.OK), itoa(c.Errors), itoa(c.Wrong), itoa(c.Verified), ftoa(c.Throughput), ftoa(c.Goodput))
		row = append(row, atpCells(tp, c.Key, c.Template)...)
		row = append(row, latencyCells(lat, c.Key, c.Template)...)
		row = append(row, ftoa(c.SentPerRequest), ftoa(c.RecvPerRequest), stmtsCSV(c.Statements))
		row = append(row, layerCells(lay, c.Key, c.Template)...)
		cw.Write(row)
	}
	for _, t := range r.Workloads {
		row := keyCells(t.Key, "all", t.Flagged)
		row = append(row, "", "", "", "", "", "", ftoa(t.Goodput))
		row = append(row, atpCells(tp, t.Key, "")...)
		row = append(row, make([]string, 15+layerColumns)...)
		cw.Write(row)
	}
	cw.Flush()
	return cw.Error()
}

// layerColumns are the layers' columns, at the end.
const layerColumns = 7

// layerCells are a row's layers (load --layers), empty without.
func layerCells(lay map[string]Layer, k Key, template string) []string {
	l, ok := lay[rowID(k, template)]
	if !ok {
		return make([]string, layerColumns)
	}
	db := ""
	if l.DatabaseMS != nil {
		db = ftoa(*l.DatabaseMS)
	}
	return []string{l.Source, ftoa(l.RoundTripMS), ftoa(l.TotalMS), db, ftoa(l.GraphQLMS), ftoa(l.GraphQLPct), ftoa(l.OverheadMS)}
}

// stmtsCSV is "" when statements were not counted.
func stmtsCSV(v float64) string {
	if v == 0 {
		return ""
	}
	return ftoa(v)
}

func keyCells(k Key, template string, flagged bool) []string {
	clients := ""
	if k.Clients > 0 {
		clients = strconv.Itoa(k.Clients)
	}
	return []string{k.Series, k.Mode, k.SF, clients, k.Pool, k.Workload, template, strconv.FormatBool(flagged)}
}

func atpCells(tp map[string]Throughput, k Key, template string) []string {
	t, ok := tp[rowID(k, template)]
	if !ok {
		return make([]string, 9)
	}
	ratio := ""
	if t.Ratio > 0 {
		ratio = ftoa(t.Ratio)
	}
	lo, hi := "", "" // no interval under MinCIRuns runs
	if t.HasCI {
		lo, hi = ftoa(t.CILow), ftoa(t.CIHigh)
	}
	return []string{strconv.Itoa(t.N), strconv.Itoa(t.Warmups), ftoa(t.Mean), ftoa(t.SD), lo, hi, ftoa(t.CV),
		ratio, strconv.Itoa(t.Rank)}
}

func latencyCells(lat map[string]Latency, k Key, template string) []string {
	l, ok := lat[rowID(k, template)]
	if !ok {
		return make([]string, 12)
	}
	q := l.QET
	out := []string{itoa(q.N), itoa(q.Min), itoa(q.P25), itoa(q.P50), itoa(q.P75), itoa(q.P90), itoa(q.P99), itoa(q.Max), ftoa(q.Mean), ftoa(q.SD), "", ""}
	if c := l.Corrected; c != nil {
		out[10], out[11] = itoa(c.P50), itoa(c.P99)
	}
	return out
}

func itoa(n int64) string   { return strconv.FormatInt(n, 10) }
func ftoa(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
