package measure

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
)

const runtimeDoc = `{"pid":1,"go":"go1.26","metrics":{"/gc/heap/live:bytes":1000,"/memory/classes/heap/objects:bytes":1500,
"/memory/classes/heap/unused:bytes":500,"/gc/heap/objects:objects":12,"/gc/cycles/total:gc-cycles":7,
"/cpu/classes/gc/total:cpu-seconds":0.25,"/cpu/classes/total:cpu-seconds":10,"/sched/goroutines:goroutines":5}}`

func TestRuntimeScrape(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/debug/metrics" {
			http.NotFound(w, r)
			return
		}
		w.Write([]byte(runtimeDoc))
	}))
	defer srv.Close()
	s := NewRuntime(srv.URL + "/debug/metrics").Sample(context.Background())
	want := RuntimeSample{HeapLiveBytes: 1000, HeapInUseBytes: 2000, HeapObjects: 12, GCCycles: 7, GCCPUSeconds: 0.25, CPUSeconds: 10, Goroutines: 5}
	if s != want {
		t.Errorf("got %+v, want %+v", s, want)
	}
	bad := NewRuntime(srv.URL + "/nothing").Sample(context.Background())
	if bad.Error == "" || bad.HeapLiveBytes != 0 {
		t.Errorf("a 404 must be a sample with an error: %+v", bad)
	}
	if _, err := ParseRuntime([]byte(`{"metrics":{}}`)); err == nil {
		t.Error("a document without the live heap must be refused")
	}
}

func TestGCPercent(t *testing.T) {
	a := RuntimeSample{GCCycles: 10, GCCPUSeconds: 1, CPUSeconds: 100}
	b := RuntimeSample{GCCycles: 12, GCCPUSeconds: 1.5, CPUSeconds: 120}
	if p, ok := GCPercent(a, b); !ok || p != 2.5 {
		t.Errorf("GCPercent = %v %v, want 2.5", p, ok)
	}
	if _, ok := GCPercent(a, a); ok {
		t.Error("no GC cycle between the readings: no share")
	}
	if _, ok := GCPercent(a, RuntimeSample{Error: "down"}); ok {
		t.Error("a failed reading: no share")
	}
}
