package report

import (
	"strings"
	"testing"
)

// TestReconnectsCalledOut: a run whose server closed its connections says
// so on the first screen, as the server's cost; a keep-alive run does not.
func TestReconnectsCalledOut(t *testing.T) {
	closing := synthRun(t, synth{series: "closing", workload: "Book", templates: []string{"Book"}, perRun: []int64{100, 101, 99}})
	closing.File.Summary.ConnectsPerRequest = 1
	kept := synthRun(t, synth{series: "kept", workload: "Book", templates: []string{"Book"}, perRun: []int64{100, 101, 99}})
	kept.File.Summary.ConnectsPerRequest = 0.001
	r, err := Build([]*Run{closing, kept}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	md := string(render(t, r, "md"))
	if !strings.Contains(md, closing.Path+": 1.00 connections per request: the server closed its connections") {
		t.Error("the closing server's reconnects are not called out")
	}
	if strings.Contains(md, kept.Path+": 0.00 connections") {
		t.Error("a keep-alive run is called out")
	}
}
