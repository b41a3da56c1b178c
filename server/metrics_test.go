package server

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"runtime"
	"testing"
)

func TestMetricsServesTheRuntime(t *testing.T) {
	next := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusTeapot) })
	h := Metrics(next)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", MetricsPath, nil))
	if rec.Code != 200 || rec.Header().Get("Content-Type") != "application/json" {
		t.Fatalf("GET %s: %d %q", MetricsPath, rec.Code, rec.Header().Get("Content-Type"))
	}
	var snap RuntimeSnapshot
	if err := json.Unmarshal(rec.Body.Bytes(), &snap); err != nil {
		t.Fatal(err)
	}
	if len(snap.Missing) > 0 {
		t.Errorf("this runtime lacks %v", snap.Missing)
	}
	for _, n := range RuntimeMetricNames {
		if _, ok := snap.Metrics[n]; !ok {
			t.Errorf("%s missing", n)
		}
	}
	if snap.Metrics["/sched/goroutines:goroutines"] < 1 || snap.Metrics["/memory/classes/total:bytes"] <= 0 {
		t.Errorf("implausible readings: %v", snap.Metrics)
	}
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", MetricsPath+"?gc=1", nil))
	var after RuntimeSnapshot
	if err := json.Unmarshal(rec.Body.Bytes(), &after); err != nil {
		t.Fatal(err)
	}
	if after.Metrics["/gc/cycles/total:gc-cycles"] <= snap.Metrics["/gc/cycles/total:gc-cycles"] {
		t.Errorf("?gc=1 ran no GC cycle: %v then %v", snap.Metrics["/gc/cycles/total:gc-cycles"], after.Metrics["/gc/cycles/total:gc-cycles"])
	}
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("POST", MetricsPath, nil))
	if rec.Code != http.StatusMethodNotAllowed {
		t.Errorf("POST: %d", rec.Code)
	}
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/graphql", nil))
	if rec.Code != http.StatusTeapot {
		t.Errorf("other paths must go to the API: %d", rec.Code)
	}
}

func TestRESTControlRoutes(t *testing.T) {
	mark := func(name string) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Header().Set("Who", name) })
	}
	h := WithRESTControl(mark("graphql"), mark("rest"))
	for path, want := range map[string]string{"/graphql": "graphql", "/healthz": "graphql", "/rest": "rest",
		"/rest/faculty/1": "rest", "/restless": "graphql", "/": "graphql"} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		if got := rec.Header().Get("Who"); got != want {
			t.Errorf("%s went to %s, want %s", path, got, want)
		}
	}
}

func TestLeakKeepsWhatItTakes(t *testing.T) {
	ok := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {})
	if h := Leak(ok, 0); h == nil {
		t.Fatal("no handler")
	}
	const per, n = 64 << 10, 200 // 12.5 MiB
	h := Leak(ok, per)
	live := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	before := live()
	for range n {
		h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/graphql", nil))
	}
	for range n { // not counted: health and metrics
		h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/healthz", nil))
	}
	after := live()
	if grew := int64(after) - int64(before); grew < per*n*9/10 || grew > per*n*3/2 {
		t.Errorf("the heap grew by %d bytes over %d requests of %d: want about %d", grew, n, per, per*n)
	}
	runtime.KeepAlive(h)
}
