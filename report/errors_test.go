package report

import (
	"strings"
	"testing"

	"github.com/gqlbench/gqlbench/runfile"
)

// TestErrorReasonsAndUncheckedCounts: the report says what the errors were
// (per run file: kind, status, reason, one body's start), in Markdown and
// HTML alike; a series whose answers were not checked shows no wrong and
// no verified count, as it shows no goodput.
func TestErrorReasonsAndUncheckedCounts(t *testing.T) {
	checked := synthRun(t, synth{series: "mine", workload: "Book", templates: []string{"Book"}, perRun: []int64{100, 102}})
	status := synthRun(t, synth{series: "theirs", workload: "Book", templates: []string{"Book"}, perRun: []int64{200, 202}, errors: 3, check: "status"})
	status.Summary.ErrorReasons = []runfile.ErrorReason{{Kind: "http_status", Status: 401, Reason: "HTTP 401 Unauthorized", Count: 6,
		Sample: `{"errors":[{"message":"not authorized"}]}`}}
	r, err := Build([]*Run{checked, status}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	md := string(render(t, r, "md"))
	for _, want := range []string{"### Errors by kind and reason", "| 6 | http\\_status | HTTP 401 Unauthorized |", "not authorized", "| 9 | – | – |"} {
		if !strings.Contains(md, want) {
			t.Errorf("the Markdown report does not say %q:\n%s", want, md)
		}
	}
	// the JSON leaves out what a status-only run does not know, and says so
	js := string(render(t, r, "json"))
	var theirs, mine []string
	for _, obj := range strings.Split(js, "{") {
		switch {
		case strings.Contains(obj, `"series": "theirs`) && strings.Contains(obj, `"throughput"`):
			theirs = append(theirs, obj)
		case strings.Contains(obj, `"series": "mine"`) && strings.Contains(obj, `"throughput"`):
			mine = append(mine, obj)
		}
	}
	if len(theirs) == 0 || len(mine) == 0 {
		t.Fatalf("no correctness or throughput rows of both series in the JSON:\n%s", js)
	}
	for _, obj := range theirs {
		if strings.Contains(obj, `"goodput"`) || strings.Contains(obj, `"wrong"`) || !strings.Contains(obj, `"answers_checked": false`) {
			t.Errorf("a status-only series' row in the JSON: %s", obj)
		}
	}
	for _, obj := range mine {
		if !strings.Contains(obj, `"goodput"`) || strings.Contains(obj, `answers_checked`) {
			t.Errorf("a checked series' row in the JSON: %s", obj)
		}
	}
	html := string(render(t, r, "html"))
	for _, want := range []string{"Errors by kind and reason", "HTTP 401 Unauthorized", "<td>–</td><td>–</td>"} {
		if !strings.Contains(html, want) {
			t.Errorf("the HTML report does not say %q", want)
		}
	}
}
