package interop

import (
	"fmt"
	"io"
	"math"
	"net/url"
	"strconv"
	"time"
)

// ReadK6CSV reads k6's CSV output (k6 run --out csv=FILE) of a script
// from K6: each gqlbench_req row is a request (its duration, template and
// outcome in its tags), each gqlbench_qrt row its time to the first byte,
// and the vus rows the users active. Timestamps may be in any of k6's
// formats (K6_CSV_TIME_FORMAT: unix seconds, the default, is exact to the
// second only; unix_micro or rfc3339_nano keep the intervals exact).
func ReadK6CSV(name string, r io.Reader, partial bool) ([]Sample, error) {
	t, err := newTable(name, r, ',', partial)
	if err != nil {
		return nil, err
	}
	if err := t.require("metric_name", "timestamp", "metric_value", "extra_tags"); err != nil {
		return nil, fmt.Errorf("%w: is it k6's CSV output (k6 run --out csv=FILE)?", err)
	}
	var out []Sample
	users, http := 0, 0
	for {
		row, line, err := t.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		metric := row("metric_name")
		switch metric {
		case "gqlbench_req", "gqlbench_qrt", "vus":
		case "http_reqs":
			http++
			continue
		default:
			continue
		}
		at, err := k6Time(row("timestamp"))
		if err != nil {
			return nil, fmt.Errorf("%s, line %d: %w", name, line, err)
		}
		v, err := strconv.ParseFloat(row("metric_value"), 64)
		if err != nil || v < 0 || math.IsInf(v, 0) || math.IsNaN(v) {
			return nil, fmt.Errorf("%s, line %d: metric_value %q is not a number", name, line, row("metric_value"))
		}
		if metric == "vus" {
			users = int(v)
			continue
		}
		tags, err := url.ParseQuery(row("extra_tags"))
		if err != nil || tags.Get("template") == "" || tags.Get("outcome") == "" {
			return nil, fmt.Errorf("%s, line %d: %s without its template and outcome tags (extra_tags %q)", name, line, metric, row("extra_tags"))
		}
		d := time.Duration(v * float64(time.Millisecond))
		s := Sample{Label: tags.Get("template"), End: at, Users: users}
		s.Status, _ = strconv.Atoi(row("status"))
		if metric == "gqlbench_qrt" {
			s.QRT, s.QRTOnly = d, true
		} else {
			s.QET = d
			switch o := tags.Get("outcome"); o {
			case OK, Wrong:
				s.Outcome = o
			default:
				s.Outcome, _ = outcomeOf(o + ":")
			}
		}
		out = append(out, s)
	}
	if len(out) == 0 && http > 0 {
		return nil, fmt.Errorf("%s has %d HTTP requests but no gqlbench_req samples: import the results of a script from gqlbench export k6, which checks every answer and writes them", name, http)
	}
	return out, nil
}

// k6Time reads a timestamp of k6's CSV output in any of its formats.
func k6Time(s string) (time.Time, error) {
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		switch {
		case n < 1e11:
			return time.Unix(n, 0), nil
		case n < 1e14:
			return time.UnixMilli(n), nil
		case n < 1e17:
			return time.UnixMicro(n), nil
		default:
			return time.Unix(0, n), nil
		}
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, nil
	}
	return time.Time{}, fmt.Errorf("timestamp %q is in none of k6's time formats", s)
}
