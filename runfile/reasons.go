package runfile

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// ErrorReason counts the errors of one kind that said the same thing: a
// status (http_status), or a short, stable reason ("bad chunk size", "read:
// connection reset by peer", "no complete answer within the 2s timeout"),
// with the first bytes of one answer's body when there was one.
type ErrorReason struct {
	Kind   string `json:"kind"`             // an error kind: http_status, graphql_errors, bad_response, timeout, transport
	Status int    `json:"status,omitempty"` // the HTTP status of an answer that had one other than 200
	Reason string `json:"reason,omitempty"` // what was wrong; OtherReason for the reasons beyond MaxErrorReasons
	Count  int64  `json:"count"`
	// Sample is the start of one such answer's body (at most
	// SampleBodyBytes, secrets hidden); absent without a body.
	Sample string `json:"sample,omitempty"`
}

// MaxErrorReasons is how many distinct reasons a line keeps; the errors
// of any further reason are counted under their kind's OtherReason.
const MaxErrorReasons = 8

// OtherReason gathers a kind's errors beyond MaxErrorReasons.
const OtherReason = "other"

// SampleBodyBytes is the most of a body an ErrorReason keeps.
const SampleBodyBytes = 200

// Same reports whether r and o count the same reason.
func (r ErrorReason) Same(o ErrorReason) bool {
	return r.Kind == o.Kind && r.Status == o.Status && r.Reason == o.Reason
}

// String says the reason for people: "http_status 401: HTTP 401
// Unauthorized", "bad_response: bad chunk size".
func (r *ErrorReason) String() string {
	s := r.Kind
	if r.Reason != "" {
		s += ": " + r.Reason
	} else if r.Status != 0 {
		s += fmt.Sprintf(": HTTP %d", r.Status)
	}
	return s
}

// AddErrorReasons adds src's counts into dst and returns it, most
// frequent first: a reason already in dst adds to it, a new one is kept
// while dst holds fewer than MaxErrorReasons reasons, and goes to its
// kind's OtherReason beyond. Merging the reasons of intervals, runs and
// files alike, it keeps the first sample body met.
func AddErrorReasons(dst, src []ErrorReason) []ErrorReason {
	for _, r := range src {
		i := slices.IndexFunc(dst, r.Same)
		if i < 0 && r.Reason != OtherReason && DistinctReasons(dst) >= MaxErrorReasons {
			r = ErrorReason{Kind: r.Kind, Reason: OtherReason, Count: r.Count}
			i = slices.IndexFunc(dst, r.Same)
		}
		if i < 0 {
			dst = append(dst, r)
			continue
		}
		dst[i].Count += r.Count
		if dst[i].Sample == "" {
			dst[i].Sample = r.Sample
		}
	}
	SortErrorReasons(dst)
	return dst
}

// DistinctReasons counts the reasons of rs other than OtherReason: what
// MaxErrorReasons bounds.
func DistinctReasons(rs []ErrorReason) int {
	n := 0
	for _, r := range rs {
		if r.Reason != OtherReason {
			n++
		}
	}
	return n
}

// SortErrorReasons sorts rs most frequent first, OtherReason last, then by
// kind, status and reason.
func SortErrorReasons(rs []ErrorReason) {
	slices.SortStableFunc(rs, func(a, b ErrorReason) int {
		if ao, bo := a.Reason == OtherReason, b.Reason == OtherReason; ao != bo {
			if ao {
				return 1
			}
			return -1
		}
		return cmp.Or(cmp.Compare(b.Count, a.Count), strings.Compare(a.Kind, b.Kind),
			cmp.Compare(a.Status, b.Status), strings.Compare(a.Reason, b.Reason))
	})
}

// ErrorReasonsText says the reasons on one line for people, the most
// frequent first: `74 × http_status: HTTP 401 Unauthorized, 18 ×
// transport: read: connection reset by peer`.
func ErrorReasonsText(rs []ErrorReason) string {
	parts := make([]string, len(rs))
	for i := range rs {
		parts[i] = fmt.Sprintf("%d × %s", rs[i].Count, rs[i].String())
	}
	return strings.Join(parts, ", ")
}

// Unchecked reports whether the run checked the status of its answers
// only (load --check status): it knows no goodput and no wrong answers.
func (s *Summary) Unchecked() bool { return s.Check == "status" }

// MarshalJSON writes the summary line; a run that did not check its
// answers (Unchecked) has no goodput and no wrong count in it, at any
// level (the runs, the templates, the total), rather than a goodput equal
// to its throughput and a "wrong": 0 that no check stands behind.
func (s *Summary) MarshalJSON() ([]byte, error) {
	type plain Summary
	b, err := json.Marshal((*plain)(s))
	if err != nil || !s.Unchecked() {
		return b, err
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber() // counts and nanoseconds kept exact
	var m map[string]any
	if err := d.Decode(&m); err != nil {
		return nil, err
	}
	drop := func(v any) {
		if o, ok := v.(map[string]any); ok {
			delete(o, "goodput")
			delete(o, "wrong")
		}
	}
	drop(m)
	drop(m["total"])
	if ts, ok := m["templates"].(map[string]any); ok {
		for _, t := range ts {
			drop(t)
		}
	}
	if rs, ok := m["runs"].([]any); ok {
		for _, r := range rs {
			drop(r)
		}
	}
	return json.Marshal(m)
}
