package interop

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/gqlbench/gqlbench/measure"
	"github.com/gqlbench/gqlbench/queryfile"
	"github.com/gqlbench/gqlbench/runfile"
)

// Sample is one request as a load tool reported it.
type Sample struct {
	Label   string
	ID      string        // the entry's id, when the tool reports it
	End     time.Time     // when the answer was complete
	QET     time.Duration // send start → last byte
	QRT     time.Duration // send start → first byte; 0: unknown
	Outcome string        // OK, Wrong or an error kind (http_status, graphql_errors, bad_response, timeout, transport)
	Status  int           // the HTTP status; 0 without an answer
	Reason  string        // why it failed, as the check said
	Recv    int64         // bytes received
	Sent    int64         // bytes sent
	Users   int           // users active when it was made (0: unknown)
	// QRTOnly marks a sample that carries only a time to the first byte
	// (k6 writes it as a metric of its own): it adds to the QRT histogram
	// and to no counter.
	QRTOnly bool
}

// The outcomes that are not errors.
const (
	OK    = "ok"
	Wrong = "wrong"
)

// errorKinds are the error kinds a run file counts.
var errorKinds = []string{"http_status", "graphql_errors", "bad_response", "timeout", "transport"}

// outcomeOf returns the outcome of a check's reason: "" is OK, "wrong
// answer…" is Wrong, else the kind it starts with (bad_response when it
// names none: another check failed the answer).
func outcomeOf(why string) (outcome, reason string) {
	if why == "" {
		return OK, ""
	}
	if strings.HasPrefix(why, "wrong answer") {
		return Wrong, why
	}
	kind, rest, _ := strings.Cut(why, ":")
	if slices.Contains(errorKinds, kind) {
		return kind, strings.TrimSpace(rest)
	}
	return "bad_response", why
}

// Source says what an import read: the tool, its results file, and
// optionally the queries file that was exported (its hash and entries go
// into the header) and the command line of the import.
type Source struct {
	Tool    string
	File    string
	Queries *queryfile.File
	Command []string
	Target  string // the endpoint, when the results do not say
	Rate    float64
	Labels  map[string]string // the run's labels (server, sf, …), beside tool
	Users   int               // the users of the run, when the samples' own count is not it (several runners)
}

// IntervalNS is the length of an imported run's interval lines.
const IntervalNS = int64(time.Second)

// RunFile builds a run file of the samples: one run of one-second
// intervals from the first request's start, each with per-template
// counters and HDR histograms of the samples completed in it, and the
// summary recomputed from them, as `gqlbench load` writes them.
func RunFile(src Source, samples []Sample) (*runfile.File, error) {
	var first, last time.Time
	var n int64
	users := 0
	for _, s := range samples {
		if s.QRTOnly {
			continue
		}
		n++
		if st := s.End.Add(-s.QET); first.IsZero() || st.Before(first) {
			first = st
		}
		if s.End.After(last) {
			last = s.End
		}
		users = max(users, s.Users)
	}
	if n == 0 {
		return nil, errors.New("no request samples in the results: nothing to import")
	}
	ivs := map[int]*runfile.Interval{}
	hists := map[[2]string]*hdrhistogram.Histogram{} // (index:template, kind)
	var firstWrong, lastError string
	for _, s := range samples {
		at := s.End.Sub(first)
		if at < 0 {
			at = 0
		}
		idx := int(int64(at) / IntervalNS)
		iv := ivs[idx]
		if iv == nil {
			iv = &runfile.Interval{Run: 1, Index: idx, StartNS: int64(idx) * IntervalNS, EndNS: int64(idx+1) * IntervalNS,
				Templates: map[string]*runfile.TemplateInterval{}}
			ivs[idx] = iv
		}
		iv.Users = max(iv.Users, s.Users)
		t := iv.Templates[s.Label]
		if t == nil {
			t = &runfile.TemplateInterval{}
			iv.Templates[s.Label] = t
		}
		key := fmt.Sprint(idx, "\x00", s.Label)
		if s.QRTOnly {
			record(hists, key, "qrt", s.QRT, t)
			continue
		}
		t.Count++
		t.SentBytes += s.Sent
		t.RecvBytes += s.Recv
		switch s.Outcome {
		case OK:
			t.OK++
			t.Verified++
		case Wrong:
			t.Wrong++
			t.Verified++
			if firstWrong == "" {
				firstWrong = strings.TrimSpace(s.ID + " " + s.Label + ": " + s.Reason)
			}
		default:
			t.Errors++
			if t.ErrorKinds == nil {
				t.ErrorKinds = map[string]int64{}
			}
			t.ErrorKinds[s.Outcome]++
			r := runfile.ErrorReason{Kind: s.Outcome, Reason: s.Reason, Count: 1}
			if s.Outcome == "http_status" {
				r.Status, r.Reason = s.Status, ""
			}
			iv.ErrorReasons = runfile.AddErrorReasons(iv.ErrorReasons, []runfile.ErrorReason{r})
			lastError = r.String()
		}
		record(hists, key, "qet", s.QET, t)
		if s.QRT > 0 {
			record(hists, key, "qrt", s.QRT, t)
		}
	}
	// The last interval ends with the last answer, not a second later.
	lastIdx := int(int64(last.Sub(first)) / IntervalNS)
	if iv := ivs[lastIdx]; iv != nil {
		iv.EndNS = max(int64(last.Sub(first)), iv.StartNS+1)
	}
	if src.Users > 0 {
		users = src.Users
	}
	f := &runfile.File{Header: header(src, first, users, n)}
	if len(f.Header.Queries.Templates) == 0 {
		f.Header.Queries.Templates = sampleLabels(samples)
	}
	keys := make([]int, 0, len(ivs))
	for k := range ivs {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		iv := ivs[k]
		for label, t := range iv.Templates {
			key := fmt.Sprint(k, "\x00", label)
			var err error
			if t.QET, err = runfile.EncodeHist(hists[[2]string{key, "qet"}]); err != nil {
				return nil, err
			}
			if t.QRT, err = runfile.EncodeHist(hists[[2]string{key, "qrt"}]); err != nil {
				return nil, err
			}
		}
		f.Intervals = append(f.Intervals, iv)
	}
	sum, err := runfile.Summarize(&runfile.File{Header: f.Header, Intervals: f.Intervals,
		Summary: &runfile.Summary{Status: "ok", End: last, ElapsedNS: int64(last.Sub(first)), FirstWrong: firstWrong, LastError: lastError}})
	if err != nil {
		return nil, err
	}
	if bad := sum.Total.Errors + sum.Total.Wrong; bad > 0 {
		sum.Status, sum.Reason = "failed", fmt.Sprintf("%d wrong answers and %d errors of %d requests (as %s's checks counted them)", sum.Total.Wrong, sum.Total.Errors, sum.Total.Count, src.Tool)
	}
	f.Summary = sum
	return f, nil
}

// record adds d to the histogram of key and kind, clamped to its range.
func record(hists map[[2]string]*hdrhistogram.Histogram, key, kind string, d time.Duration, t *runfile.TemplateInterval) {
	k := [2]string{key, kind}
	h := hists[k]
	if h == nil {
		h = measure.NewHist()
		hists[k] = h
	}
	v := int64(d)
	switch {
	case v < measure.HistLowest:
		v = measure.HistLowest
	case v > measure.HistHighest:
		v, t.Clamped = measure.HistHighest, t.Clamped+1
	}
	h.RecordValue(v)
}

// header is the imported run's header.
func header(src Source, start time.Time, users int, n int64) *runfile.Header {
	host, _ := os.Hostname()
	h := &runfile.Header{
		Tool:      runfile.Tool{Name: src.Tool, Go: runtime.Version()},
		Generator: src.Tool + " (imported)",
		Command:   src.Command,
		Flags:     map[string]string{},
		Labels:    map[string]string{"tool": src.Tool},
		Target:    src.Target,
		Mode:      "closed",
		Params: runfile.Params{Clients: users, Runs: 1, IntervalNS: IntervalNS, VerifySample: 1, Client: src.Tool,
			Check: "expect"},
		Machine:  runfile.Machine{Hostname: host, OS: runtime.GOOS, Arch: runtime.GOARCH, Cores: runtime.NumCPU(), Go: runtime.Version()},
		Hist:     runfile.StandardHist,
		Start:    start,
		Imported: &runfile.Imported{Tool: src.Tool, File: src.File, Samples: n},
		Traits:   &runfile.Traits{Order: 1, Throughput: true, SLOAtEnd: true},
	}
	if src.Rate > 0 {
		h.Mode, h.Params.Rate, h.Params.Arrival = "open", src.Rate, "constant"
		h.Params.Connections, h.Params.Clients = users, 0
		h.Traits = &runfile.Traits{Order: 3, Throughput: true, Curve: runfile.CurveRate, SLOAtEnd: true}
	}
	if src.Target == "" {
		h.Labels["variant"] = src.Tool
	}
	for k, v := range src.Labels {
		h.Labels[k] = v
	}
	if q := src.Queries; q != nil {
		expect := 0
		for _, e := range q.Entries {
			if e.Expect != "" || len(e.Answer) > 0 {
				expect++
			}
		}
		h.Queries = runfile.Queries{Path: q.Path, SHA256: sha256Hex(q.Data), Instances: len(q.Entries),
			Templates: queryfile.Labels(q.Entries), Expect: expect}
		if expect == 0 {
			h.Params.Check = "status"
		}
	}
	return h
}

// sampleLabels returns the samples' labels in order of first appearance.
func sampleLabels(samples []Sample) []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range samples {
		if !seen[s.Label] {
			seen[s.Label] = true
			out = append(out, s.Label)
		}
	}
	return out
}
