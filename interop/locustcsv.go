package interop

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// locustColumns are the columns of the samples file a locustfile from
// Locust writes.
var locustColumns = []string{"end_s", "template", "id", "response_ms", "bytes", "status", "outcome", "reason", "users", "ttfb_ms"}

// ReadLocust reads the samples file of a locustfile from Locust
// (--gqlbench-samples, written by the master): one row per request.
// Locust's own --csv files hold aggregates only; given as stats, the
// _stats.csv file's request and failure counts per name must equal the
// samples' (a worker's lost report shows there).
func ReadLocust(name string, r io.Reader, partial bool) ([]Sample, error) {
	t, err := newTable(name, r, ',', partial)
	if err != nil {
		return nil, err
	}
	if _, ok := t.cols["Request Count"]; ok {
		return nil, fmt.Errorf("%s is Locust's aggregate statistics (--csv PREFIX_stats.csv), without per-request samples: import the samples file the exported locustfile writes (--gqlbench-samples, default gqlbench-samples.csv), and give this one as --stats to check the counts", name)
	}
	if err := t.require(locustColumns...); err != nil {
		return nil, fmt.Errorf("%w: is it the samples file of a locustfile from gqlbench export locust?", err)
	}
	var out []Sample
	for {
		row, line, err := t.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		end, err1 := strconv.ParseFloat(row("end_s"), 64)
		ms, err2 := strconv.ParseFloat(row("response_ms"), 64)
		if err1 != nil || err2 != nil || ms < 0 || math.IsNaN(end) || math.IsNaN(ms) {
			return nil, fmt.Errorf("%s, line %d: end_s %q or response_ms %q is not a number", name, line, row("end_s"), row("response_ms"))
		}
		s := Sample{Label: row("template"), ID: row("id"), End: time.Unix(0, int64(end*1e9)),
			QET: time.Duration(ms * float64(time.Millisecond))}
		if v, err := strconv.ParseFloat(row("ttfb_ms"), 64); err == nil && v > 0 {
			s.QRT = time.Duration(v * float64(time.Millisecond))
		}
		s.Recv, _ = strconv.ParseInt(row("bytes"), 10, 64)
		s.Status, _ = strconv.Atoi(row("status"))
		s.Users, _ = strconv.Atoi(row("users"))
		switch o := row("outcome"); {
		case o == OK:
			s.Outcome = OK
		case o == Wrong:
			s.Outcome, s.Reason = Wrong, row("reason")
		case slices.Contains(errorKinds, o):
			s.Outcome, s.Reason = o, strings.TrimSpace(strings.TrimPrefix(row("reason"), o+":"))
		default:
			return nil, fmt.Errorf("%s, line %d: outcome %q is none of ok, wrong, %s", name, line, o, strings.Join(errorKinds, ", "))
		}
		out = append(out, s)
	}
	return out, nil
}

// CheckLocustStats compares the samples' requests and failures per name
// with Locust's own _stats.csv.
func CheckLocustStats(name string, r io.Reader, samples []Sample) error {
	t, err := newTable(name, r, ',', false)
	if err != nil {
		return err
	}
	if err := t.require("Name", "Request Count", "Failure Count"); err != nil {
		return fmt.Errorf("%w: is it Locust's PREFIX_stats.csv?", err)
	}
	type counts struct{ n, fail int64 }
	got := map[string]*counts{}
	for _, s := range samples {
		c := got[s.Label]
		if c == nil {
			c = &counts{}
			got[s.Label] = c
		}
		c.n++
		if s.Outcome != OK {
			c.fail++
		}
	}
	var diffs []string
	for {
		row, _, err := t.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if row("Name") == "Aggregated" {
			continue
		}
		n, _ := strconv.ParseInt(row("Request Count"), 10, 64)
		f, _ := strconv.ParseInt(row("Failure Count"), 10, 64)
		c := got[row("Name")]
		if c == nil {
			c = &counts{}
		}
		if c.n != n || c.fail != f {
			diffs = append(diffs, fmt.Sprintf("%s: Locust counted %d requests (%d failures), the samples %d (%d)", row("Name"), n, f, c.n, c.fail))
		}
	}
	if len(diffs) > 0 {
		return fmt.Errorf("the samples do not add up to Locust's statistics in %s (a worker's report lost?): %s", name, strings.Join(diffs, "; "))
	}
	return nil
}
