package drive_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/gqlbench/gqlbench/drive"
	"github.com/gqlbench/gqlbench/drive/wire"
	"github.com/gqlbench/gqlbench/queryfile"
)

// timedREST is restAPI answering every call with a Server-Timing header as
// gqlbench's REST server sends it: the department's list 1 ms (0.5 in the
// database, one statement), each professor 2 ms (1.25, two statements).
type timedREST struct{ restAPI }

func (a *timedREST) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	st := "total;dur=2.000, db;dur=1.250, db-sum;dur=1.250, app;dur=0.750, sql;count=2"
	if r.URL.Path == "/rest/departments/3/graduateStudents" {
		st = "total;dur=1.000, db;dur=0.500, db-sum;dur=0.500, app;dur=0.500, sql;count=1"
	}
	w.Header().Set("Server-Timing", st)
	a.restAPI.ServeHTTP(w, r)
}

// TestRESTLayers: --layers on a REST target reads every call's
// Server-Timing and adds the phases up per task (a list, then two of its
// three students' advisors: 1 + 2 × 2 ms, 3 ms of it in the database, 5
// statements), over HTTP/1.1 and HTTP/2 alike, every task with figures.
func TestRESTLayers(t *testing.T) {
	for _, h2 := range []bool{false, true} {
		url := serveH2C(t, &timedREST{}, nil)
		var out bytes.Buffer
		job := drive.Job{
			Config: drive.Config{Mode: drive.Closed, Layers: true,
				Settings: drive.ClosedSettings{Clients: 2, Repeat: drive.Repeat{Duration: 200 * time.Millisecond, Runs: 1}}},
			Target:  url,
			API:     drive.APIREST,
			HTTP:    wire.Options{Timeout: 10 * time.Second, HTTP2: h2},
			Queries: &queryfile.File{Path: "tasks.jsonl", Entries: []queryfile.Entry{studentsTask(t, "s1", "/rest/departments/3/graduateStudents")}},
			Check:   true,
			Out:     func() (io.Writer, error) { return &out, nil },
		}
		sum, err := job.Run(context.Background())
		if err != nil {
			t.Fatalf("http2 %v: %v", h2, err)
		}
		l := sum.Layers
		if l == nil || l.Source != "server-timing" || l.Without != 0 || len(l.Templates) != 1 {
			t.Fatalf("http2 %v: layers %+v", h2, l)
		}
		tm := l.Templates[0]
		n := sum.Total.Count
		if n == 0 || tm.N != n || sum.Total.Calls != 3*n {
			t.Errorf("http2 %v: %d tasks with figures, %d measured, %d calls", h2, tm.N, n, sum.Total.Calls)
		}
		if tm.TotalNS != 5*int64(time.Millisecond)*n || tm.DatabaseNS != 3*int64(time.Millisecond)*n ||
			tm.DatabaseN != n || tm.Statements != 5*n || tm.DatabaseSumNS != tm.DatabaseNS {
			t.Errorf("http2 %v: per task total %v, db %v, %d statements; want 5ms, 3ms, 5: %+v", h2,
				time.Duration(tm.TotalNS/n), time.Duration(tm.DatabaseNS/n), tm.Statements/n, tm)
		}
		for i, r := range tm.Requests {
			if r.TotalNS != int64(5*time.Millisecond) || r.DatabaseNS != int64(3*time.Millisecond) {
				t.Errorf("http2 %v: task %d: %+v", h2, i, r)
			}
		}
	}
}
