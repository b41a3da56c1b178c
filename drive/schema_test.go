package drive_test

import (
	"bytes"
	"context"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gqlbench/gqlbench/drive"
	"github.com/gqlbench/gqlbench/measure"
	"github.com/gqlbench/gqlbench/queryfile"
	"github.com/gqlbench/gqlbench/runfile"
	"github.com/gqlbench/gqlbench/runfile/schema"
)

// TestRunFilesMatchSchema: a job of every mode — closed (with a watched
// process and fine series), open, capacity, ramp, sequential, paired and
// a REST target's tasks — writes a run file whose every line matches the
// run file's JSON Schema, and that has the lines its mode promises.
func TestRunFilesMatchSchema(t *testing.T) {
	entry := profEntry(t)
	gql := serveH2C(t, &stepsAPI{rows: map[string]string{}}, nil) + "/graphql"
	rest := serveREST(t, &restAPI{})
	slo, err := measure.ParseSLO("p99<5s")
	if err != nil {
		t.Fatal(err)
	}
	const d = 100 * time.Millisecond
	const iv, sum = `{"type":"interval"`, `{"type":"summary"`
	for _, c := range []struct {
		name string
		job  drive.Job
		has  []string // the lines and fields the file must have
	}{
		{"closed", drive.Job{Config: drive.Config{Mode: drive.Closed, Settings: drive.ClosedSettings{Clients: 2, Repeat: drive.Repeat{Duration: d, Runs: 2}}, Interval: 50 * time.Millisecond,
			SampleInterval: 10 * time.Millisecond}, Watch: []int{os.Getpid()}}, []string{iv, sum, `"series":{`, `"procs":[`}},
		{"open", drive.Job{Config: drive.Config{Mode: drive.Open, Settings: drive.OpenSettings{Repeat: drive.Repeat{Duration: d, Runs: 1}, Arrivals: drive.Arrivals{Rate: 200}}, SLO: slo}}, []string{iv, sum, `"latency":"`, `"on_time":`}},
		{"capacity", drive.Job{Config: drive.Config{Mode: drive.Capacity, Settings: drive.CapacitySettings{Arrivals: drive.Arrivals{Connections: 2, Rate: 50}, Duration: d, MaxRate: 100, MaxSteps: 2}, SLO: slo}},
			[]string{iv, `{"type":"step"`, sum, `"capacity":{`}},
		{"ramp", drive.Job{Config: drive.Config{Mode: drive.Ramp, Settings: drive.RampSettings{Duration: 2 * d, RampRate: 40, MaxClients: 3}}}, []string{iv, sum, `"ramp":{`}},
		{"sequential", drive.Job{Config: drive.Config{Mode: drive.Sequential, Settings: drive.SequentialSettings{Passes: 2, WarmupPasses: 1}}}, []string{iv, `{"type":"query"`, sum}},
		{"paired", drive.Job{Config: drive.Config{Mode: drive.Paired, Settings: drive.PairedSettings{ClosedSettings: drive.ClosedSettings{Clients: 1, Repeat: drive.Repeat{Duration: d, Runs: 1}}}}, PairedTarget: rest},
			[]string{iv, sum, `"pairs":{`, `"paired":{`}},
		{"REST tasks", drive.Job{Config: drive.Config{Mode: drive.Closed, Settings: drive.ClosedSettings{Clients: 2, Repeat: drive.Repeat{Duration: d, Runs: 1}}}, API: drive.APIREST},
			[]string{iv, sum, `"api":"rest"`}},
	} {
		var out bytes.Buffer
		job := c.job
		job.Target = gql
		if job.API == drive.APIREST {
			job.Target = rest
		}
		job.HTTP.Timeout = 10 * time.Second
		job.Check = true
		job.Queries = &queryfile.File{Path: "q.jsonl", Entries: []queryfile.Entry{entry}}
		job.Out = func() (io.Writer, error) { return &out, nil }
		if _, err := job.Run(context.Background()); err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		schema.Check(t, out.Bytes())
		for _, s := range c.has {
			if !strings.Contains(out.String(), s) {
				t.Errorf("%s: no %s in the file", c.name, s)
			}
		}
		if _, err := runfile.Read(&out); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}
