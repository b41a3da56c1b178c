package runfile

import (
	"strings"
	"testing"
	"time"
)

// part is shard i of n of one run, ended with status.
func part(i, n int, start time.Time, status string) *File {
	h := &Header{Type: TypeHeader, Format: Format, Mode: "open", Hist: StandardHist, Start: start.Add(time.Duration(i) * time.Millisecond),
		Shard: &Shard{Index: i, Count: n, StartAt: &start, Rate: 30}, Params: Params{Rate: 30 / float64(n)}}
	f := &File{Header: h}
	if status != "" {
		f.Summary = &Summary{Type: TypeSummary, Status: status}
	}
	return f
}

// TestMergeShards: the parts of one run merge, a missing part is named and
// makes the run incomplete, and parts of several runs, a part twice or a
// part with a whole run are refused.
func TestMergeShards(t *testing.T) {
	start := time.Date(2026, 11, 27, 8, 0, 0, 0, time.UTC)
	m, err := Merge([]*File{part(2, 3, start, "ok"), part(0, 3, start, "ok"), part(1, 3, start, "ok")})
	if err != nil {
		t.Fatal(err)
	}
	a := m.Summary.Shards
	if m.Summary.Status != "ok" || a == nil || !a.Complete() || len(a.Merged) != 3 || a.Merged[0] != 0 || a.StartSkewNS != int64(2*time.Millisecond) || m.Header.Shard != nil || m.Header.Params.Rate != 30 {
		t.Errorf("whole run: %s, %+v, rate %v", m.Summary.Status, a, m.Header.Params.Rate)
	}
	m, err = Merge([]*File{part(0, 4, start, "ok"), part(3, 4, start, "aborted")})
	if err != nil {
		t.Fatal(err)
	}
	a = m.Summary.Shards
	if m.Summary.Status != "aborted" || len(a.Missing) != 2 || a.Missing[0] != 1 || a.Missing[1] != 2 || len(a.Failed) != 1 ||
		!strings.Contains(m.Summary.Reason, "shards 1, 2 of 4 missing") || !strings.HasPrefix(a.Failed[0], "shard 3: aborted") {
		t.Errorf("two parts missing, one aborted: %s (%s), %+v", m.Summary.Status, m.Summary.Reason, a)
	}
	if m, _ := Merge([]*File{part(0, 2, start, "ok"), part(1, 2, start, "")}); m.Summary.Shards.Complete() || !strings.Contains(m.Summary.Shards.Failed[0], "died") {
		t.Errorf("a part without its summary: %+v", m.Summary.Shards)
	}
	other := part(1, 3, start.Add(time.Minute), "ok")
	whole := part(1, 3, start, "ok")
	whole.Header.Shard = nil
	for name, files := range map[string][]*File{
		"another run": {part(0, 3, start, "ok"), other},
		"both shard":  {part(0, 3, start, "ok"), part(0, 3, start, "ok")},
		"not a shard": {part(0, 3, start, "ok"), whole},
	} {
		if _, err := Merge(files); err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("%s: %v", name, err)
		}
	}
}
