package drive

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gqlbench/gqlbench/drive/wire"
	"github.com/gqlbench/gqlbench/verify"
)

// TestClosedLoopOnOneGoroutine: the closed loop's clients carried by the
// event loop (the own client's default) send the same requests, in the
// same order per client, as a goroutine per client does, every answer
// verified; one in ten answers is wrong and is counted wrong; the loop
// runs without a goroutine per client.
func TestClosedLoopOnOneGoroutine(t *testing.T) {
	row := regexp.MustCompile(`"row":(\d+)`)
	var peak atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		m := row.FindSubmatch(body)
		if n := int64(runtime.NumGoroutine()); n > peak.Load() {
			peak.Store(n)
		}
		n, _ := strconv.Atoi(string(m[1]))
		if n%10 == 9 {
			n++ // wrong
		}
		fmt.Fprintf(w, `{"data":{"row":%d}}`, n)
	}))
	defer srv.Close()
	reqs := make([]wire.Request, 50)
	for k := range reqs {
		expect, err := verify.Hash(fmt.Appendf(nil, `{"row":%d}`, k))
		if err != nil {
			t.Fatal(err)
		}
		reqs[k] = wire.Request{ID: "q" + strconv.Itoa(k), Template: "QT" + strconv.Itoa(k%3+1), Expect: expect,
			Body: fmt.Appendf(nil, `{"query":"{row}","variables":{"row":%d}}`, k)}
	}
	const clients = 24
	run := func(perConn bool) (result, int64) {
		tr, err := wire.NewHTTP(srv.URL, reqs, wire.Options{Timeout: 5 * time.Second, PerConn: perConn})
		if err != nil {
			t.Fatal(err)
		}
		peak.Store(0)
		r := runLoad(t, t.Context(), Config{Mode: Closed, Transport: tr, Requests: reqs, Interval: 100 * time.Millisecond,
			Settings: ClosedSettings{Clients: clients, Repeat: Repeat{Duration: 400 * time.Millisecond, Runs: 1}}})
		var wrong *CheckError // (the wrong answers')
		if r.err != nil && !errors.As(r.err, &wrong) {
			t.Fatal(r.err)
		}
		return r, peak.Load()
	}
	loop, loopPeak := run(false)
	each, eachPeak := run(true)
	t.Logf("peak goroutines: %d with the loop, %d with a goroutine per client", loopPeak, eachPeak)
	for _, c := range []struct {
		name string
		r    result
	}{{"loop", loop}, {"goroutines", each}} {
		count, ok, errs := total(c.r.file)
		wrong := int64(0)
		for _, iv := range c.r.file.Intervals {
			for _, tm := range iv.Templates {
				wrong += tm.Wrong
			}
		}
		if count < clients || errs != 0 || wrong == 0 || ok+wrong != count {
			t.Errorf("%s: %d requests, %d ok, %d errors, %d wrong", c.name, count, ok, errs, wrong)
		}
		// Exactly the requests with row%10 == 9 are wrong.
		bad := 0
		for _, rec := range c.r.records {
			k, _ := strconv.Atoi(rec.query[1:])
			if (rec.err == "wrong") != (k%10 == 9) {
				bad++
			}
		}
		if bad > 0 || int64(len(c.r.records)) != count {
			t.Errorf("%s: %d records misjudged, %d records for %d requests", c.name, bad, len(c.r.records), count)
		}
	}
	// Each client walks its share from the start: the first requests of
	// every client are the same in both runs.
	seqs := func(r result) map[int][]string {
		recs := append([]record(nil), r.records...)
		sort.SliceStable(recs, func(a, b int) bool { return recs[a].start < recs[b].start })
		out := map[int][]string{}
		for _, rec := range recs {
			out[rec.client] = append(out[rec.client], rec.query)
		}
		return out
	}
	a, b := seqs(loop), seqs(each)
	for c := range clients {
		n := min(len(a[c]), len(b[c]), 3)
		if n == 0 || !bytes.Equal(fmt.Append(nil, a[c][:n]), fmt.Append(nil, b[c][:n])) {
			t.Errorf("client %d: %v by the loop, %v by its goroutine", c, a[c][:min(len(a[c]), 3)], b[c][:min(len(b[c]), 3)])
		}
	}
	// The loop's clients have no goroutines of their own (the server's
	// are counted in both).
	if loopPeak > eachPeak-clients/2 {
		t.Errorf("%d goroutines at the peak with the loop, %d with a goroutine per client", loopPeak, eachPeak)
	}
}
