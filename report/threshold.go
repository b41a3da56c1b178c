package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Threshold is one condition of a CI gate (--fail-if): the report fails it
// when Metric compares with Value by Op.
type Threshold struct {
	Text     string  // as written, e.g. "p99>200ms"
	Metric   string  // wrong, errors, goodput, regression, or a latency quantile such as p99
	Op       string  // ">" or "<"
	Value    float64 // a count, requests/s, nanoseconds or a percentage
	Percent  bool    // wrong and errors: Value is a percentage of the requests
	Quantile float64 // latency quantiles: the percentile, e.g. 99
}

// thresholdHelp lists what ParseThresholds accepts.
const thresholdHelp = "wrong>N[%], errors>N[%], goodput<N (correct answers/s), pNN>DURATION (e.g. p99>200ms), regression>X%"

// ParseThresholds parses a comma-separated list of thresholds, e.g.
// "wrong>0,errors>1%,goodput<100,p99>200ms,regression>5%".
func ParseThresholds(spec string) ([]Threshold, error) {
	var out []Threshold
	for _, part := range strings.Split(spec, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		t, err := parseThreshold(part)
		if err != nil {
			return nil, fmt.Errorf("threshold %q: %v (want %s)", part, err, thresholdHelp)
		}
		out = append(out, t)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no thresholds in %q (want %s)", spec, thresholdHelp)
	}
	return out, nil
}

func parseThreshold(s string) (Threshold, error) {
	i := strings.IndexAny(s, "<>")
	if i <= 0 {
		return Threshold{}, fmt.Errorf("no comparison: write METRIC>VALUE or METRIC<VALUE")
	}
	t := Threshold{Text: s, Metric: strings.ToLower(strings.TrimSpace(s[:i])), Op: s[i : i+1]}
	val := strings.TrimSpace(s[i+1:])
	if strings.HasPrefix(val, "=") {
		return t, fmt.Errorf("use > or <, not %s=", t.Op)
	}
	want := map[string]string{"wrong": ">", "errors": ">", "regression": ">", "goodput": "<"}
	op, known := want[t.Metric]
	if !known && strings.HasPrefix(t.Metric, "p") {
		q, err := strconv.ParseFloat(t.Metric[1:], 64)
		if err != nil || q <= 0 || q > 100 {
			return t, fmt.Errorf("unknown metric %q", t.Metric)
		}
		t.Quantile, op, known = q, ">", true
	}
	if !known {
		return t, fmt.Errorf("unknown metric %q", t.Metric)
	}
	if t.Op != op {
		return t, fmt.Errorf("%s fails when it is %s a value", t.Metric, map[string]string{">": "above", "<": "below"}[op])
	}
	var err error
	switch {
	case t.Quantile > 0:
		var d time.Duration
		if d, err = time.ParseDuration(val); err == nil && d <= 0 {
			err = fmt.Errorf("the duration must be positive")
		}
		t.Value = float64(d)
	case t.Metric == "regression":
		if !strings.HasSuffix(val, "%") {
			return t, fmt.Errorf("regression takes a percentage, e.g. regression>5%%")
		}
		t.Value, err = strconv.ParseFloat(strings.TrimSuffix(val, "%"), 64)
		t.Percent = true
	default:
		t.Percent = strings.HasSuffix(val, "%")
		if t.Percent && t.Metric == "goodput" {
			return t, fmt.Errorf("goodput takes correct answers per second, not a percentage")
		}
		t.Value, err = strconv.ParseFloat(strings.TrimSuffix(val, "%"), 64)
	}
	if err != nil || math.IsNaN(t.Value) || math.IsInf(t.Value, 0) || t.Value < 0 {
		return t, fmt.Errorf("bad value %q", val)
	}
	return t, nil
}

// Check returns every violation of the thresholds, one human-readable line
// each; none means the report passes. Counts are per series over all its
// runs; goodput per run file; latency quantiles per series, conditions and
// template (the corrected latency where recorded, else QET); regressions
// only where the drop is significant by Welch's test at 0.05.
func (r *Report) Check(ts []Threshold) []string {
	var out []string
	for _, t := range ts {
		switch {
		case t.Metric == "wrong" || t.Metric == "errors":
			out = append(out, r.checkCounts(t)...)
		case t.Metric == "goodput":
			for _, run := range r.runs {
				g := run.Summary.Goodput
				if unchecked(run.File.Header) {
					out = append(out, fmt.Sprintf("%s: %s has no goodput to compare with %g: its answers were not checked (%s)", run.Path, run.key.Series, t.Value, t.Text))
					continue
				}
				if g.N > 0 && g.Mean < t.Value {
					out = append(out, fmt.Sprintf("%s: %s goodput %s correct answers/s is below %g (%s)", run.Path, run.key.Series, f1(g.Mean), t.Value, t.Text))
				}
			}
		case t.Quantile > 0:
			out = append(out, r.checkLatency(t)...)
		case t.Metric == "regression":
			out = append(out, r.checkRegression(t)...)
		}
	}
	return out
}

func (r *Report) checkCounts(t Threshold) []string {
	var out []string
	for _, s := range r.Series {
		n := s.Wrong
		if t.Metric == "errors" {
			n = s.Errors
		}
		v, unit := float64(n), ""
		if t.Percent {
			if s.Requests == 0 {
				continue
			}
			v, unit = float64(n)/float64(s.Requests)*100, "%"
		}
		if v > t.Value {
			out = append(out, fmt.Sprintf("%s: %d %s answers of %d requests (%s%s) exceeds %g%s (%s)",
				s.Name, n, map[string]string{"wrong": "wrong", "errors": "error"}[t.Metric], s.Requests, strconv.FormatFloat(v, 'f', -1, 64), unit, t.Value, unit, t.Text))
		}
	}
	return out
}

func (r *Report) checkLatency(t Threshold) []string {
	var out []string
	for _, p := range r.points {
		for _, tmpl := range p.templates() {
			qet, _, lat := p.hists(tmpl)
			h, kind := lat, "latency"
			if h == nil {
				h, kind = qet, "QET"
			}
			if h == nil || h.TotalCount() == 0 {
				continue
			}
			if v := h.ValueAtQuantile(t.Quantile); float64(v) > t.Value {
				out = append(out, fmt.Sprintf("%s %s %s: %s p%g %v exceeds %v (%s)", p.key.Series, condLabel(p.key.cond()), tmpl, kind,
					t.Quantile, time.Duration(v), time.Duration(t.Value), t.Text))
			}
		}
	}
	return out
}

func (r *Report) checkRegression(t Threshold) []string {
	if len(r.Baseline) == 0 {
		return []string{fmt.Sprintf("%s: no baseline runs to compare with (give --baseline RUN.jsonl)", t.Text)}
	}
	if len(r.Regressions) == 0 {
		return []string{fmt.Sprintf("%s: no baseline run has the series and conditions of a run here: nothing compared", t.Text)}
	}
	var out []string
	for _, g := range r.Regressions {
		if -g.ChangePct > t.Value && g.Test.Significant {
			out = append(out, fmt.Sprintf("%s %s %s: throughput %s/s against %s/s in the baseline (%s, p %s by Welch's t-test) (%s)",
				g.Series, condLabel(g.Key.cond()), orDash(g.Template), f1(g.Current.Mean), f1(g.Baseline.Mean), signedPct(g.ChangePct), pCell(g.Test.P), t.Text))
		}
	}
	return out
}
