package measure

import (
	"bytes"
	"encoding/csv"
	"testing"
	"time"
)

func TestRecordWriter(t *testing.T) {
	var b bytes.Buffer
	w := NewRecordWriter(&b)
	samples := []Sample{
		{Client: 1, Query: 0, Template: 0, Start: 10, FirstByte: 30, End: 110, Intended: 5, Status: 200, SentBytes: 100, RecvBytes: 200},
		{Client: 2, Query: 1, Template: 1, Outcome: ErrTimeout, Start: 0, End: time.Second, Intended: 0},
	}
	if err := w.Write(3, samples, []string{"QT1-0001", `odd,"id"`}, []string{"QT1", "QT2"}); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		{"client", "query_id", "qet_ns", "error", "template", "run", "qrt_ns", "latency_ns", "intended_ns", "start_ns", "status", "bytes_sent", "bytes_received"},
		{"1", "QT1-0001", "100", "", "QT1", "3", "20", "105", "5", "10", "200", "100", "200"},
		{"2", `odd,"id"`, "1000000000", "timeout", "QT2", "3", "", "1000000000", "0", "0", "0", "0", "0"},
	}
	if len(rows) != len(want) {
		t.Fatalf("rows %q", rows)
	}
	for i := range want {
		for j := range want[i] {
			if rows[i][j] != want[i][j] {
				t.Errorf("row %d column %s: %q, want %q", i, want[0][j], rows[i][j], want[i][j])
			}
		}
	}
}
