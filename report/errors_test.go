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
	html := string(render(t, r, "html"))
	for _, want := range []string{"Errors by kind and reason", "HTTP 401 Unauthorized", "<td>–</td><td>–</td>"} {
		if !strings.Contains(html, want) {
			t.Errorf("the HTML report does not say %q", want)
		}
	}
}
