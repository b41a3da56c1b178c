package report

import (
	"strings"
	"testing"
)

// TestReconnectsCalledOut: a run whose server closed its connections says
// so on the first screen, as the server's cost; a keep-alive run does not.
func TestReconnectsCalledOut(t *testing.T) {
	closing := synthRun(t, synth{series: "closing", workload: "Book", templates: []string{"Book"}, perRun: []int64{100, 101, 99}})
	closing.File.Summary.Connects, closing.File.Summary.ConnectsPerRequest = 300, 1
	kept := synthRun(t, synth{series: "kept", workload: "Book", templates: []string{"Book"}, perRun: []int64{100, 101, 99}})
	kept.File.Summary.Connects, kept.File.Summary.ConnectsPerRequest = 1, 0.001
	// Ten requests on one connection opened in the measured window (no
	// warm-up, as experiment layers' sequential iterations): 0.1 connections
	// per request, none of them a reconnect.
	first := synthRun(t, synth{series: "first", workload: "Book", templates: []string{"Book"}, perRun: []int64{10, 10, 10}})
	first.File.Header.Params.Clients = 1
	first.File.Summary.Connects, first.File.Summary.ConnectsPerRequest = 1, 0.1
	r, err := Build([]*Run{closing, kept, first}, Options{})
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
	if strings.Contains(md, first.Path+": 0.10 connections") {
		t.Error("a run's own first connection is called out as the server closing it")
	}
}
