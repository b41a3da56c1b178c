package runfile

import (
	"bytes"
	"encoding/base64"
	"flag"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/gqlbench/gqlbench/measure"
	"github.com/gqlbench/gqlbench/runfile/schema"
)

func hist(values ...int64) *hdrhistogram.Histogram {
	h := measure.NewHist()
	for _, v := range values {
		h.RecordValue(v)
	}
	return h
}

// TestHistRoundTrip: EncodeHist and DecodeHist agree with each other and
// with hdrhistogram-go's own decoder, exactly.
func TestHistRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	h := measure.NewHist()
	for range 10000 {
		h.RecordValue(int64(r.ExpFloat64() * 1e6))
	}
	h.RecordValue(0)
	h.RecordValue(measure.HistHighest)
	s, err := EncodeHist(h)
	if err != nil {
		t.Fatal(err)
	}
	got, err := DecodeHist(s)
	if err != nil {
		t.Fatal(err)
	}
	lib, err := hdrhistogram.Decode([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	if !got.Equals(h) || !lib.Equals(h) || got.TotalCount() != 10002 {
		t.Errorf("round trip differs: n=%d", got.TotalCount())
	}
	if s, _ := EncodeHist(measure.NewHist()); s != "" {
		t.Errorf("empty histogram encodes as %q", s)
	}
	if h, err := DecodeHist(""); h != nil || err != nil {
		t.Errorf("\"\" decodes to %v, %v", h, err)
	}
}

// TestDecodeHistRejects: what a corrupt or foreign histogram gets.
func TestDecodeHistRejects(t *testing.T) {
	other, _ := hdrhistogram.New(1, 1000, 2).Encode(hdrhistogram.V2CompressedEncodingCookieBase)
	good, _ := EncodeHist(hist(1, 2, 3))
	raw, _ := base64.StdEncoding.DecodeString(good)
	for _, c := range []struct {
		name, in, want string
	}{
		{"not base64", "!!!", "base64"},
		{"too short", base64.StdEncoding.EncodeToString([]byte{1, 2}), "too short"},
		{"wrong cookie", base64.StdEncoding.EncodeToString(append([]byte{0, 0, 0, 0}, raw[4:]...)), "not a V2"},
		{"truncated", base64.StdEncoding.EncodeToString(raw[:len(raw)-3]), "truncated"},
		{"another configuration", string(other), "configuration"},
	} {
		if _, err := DecodeHist(c.in); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

// sampleFile writes a small run file: header, two intervals, a summary.
func sampleFile(t testing.TB, gen string, qet []int64) []byte {
	var b bytes.Buffer
	w := NewWriter(&b)
	w.Write(&Header{Generator: gen, Mode: "closed", Hist: StandardHist, Start: time.Unix(0, 0).UTC(), Queries: Queries{SHA256: "x"}})
	s := NewSummarizer()
	for i := range 2 {
		h := hist(qet...)
		enc, _ := EncodeHist(h)
		iv := &Interval{Run: 1, Index: i, StartNS: int64(i) * 1e9, EndNS: int64(i+1) * 1e9, Users: 1,
			Templates: map[string]*TemplateInterval{"QT1": {Count: int64(len(qet)), OK: int64(len(qet)), QET: enc, QRT: enc, QETHist: measure.HistOf(h), QRTHist: measure.HistOf(h)}}}
		w.Write(iv)
		s.Add(iv)
	}
	sum := s.Summary()
	sum.Status = "ok"
	w.Write(sum)
	if w.Err() != nil {
		t.Fatal(w.Err())
	}
	schema.Check(t, b.Bytes())
	return b.Bytes()
}

func TestReadWrite(t *testing.T) {
	data := sampleFile(t, "a", []int64{1000, 2000, 3000})
	f, err := Read(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if f.Header.Format != Format || len(f.Intervals) != 2 || f.Summary == nil || f.Truncated {
		t.Fatalf("read %+v", f)
	}
	if h, err := DecodeHist(f.Intervals[1].Templates["QT1"].QET); err != nil || h.TotalCount() != 3 {
		t.Errorf("interval histogram: %v, %v", h, err)
	}
	s, err := Summarize(f)
	if err != nil {
		t.Fatal(err)
	}
	if s.Total.Count != 6 || s.Runs[0].Throughput != 3 || s.Total.QET.N != 6 || s.Status != "ok" {
		t.Errorf("summary %+v", s)
	}
}

// TestReadCutShort: a file cut anywhere is still read up to its last
// complete line, never an error (the writer may be killed at any moment).
func TestReadCutShort(t *testing.T) {
	data := sampleFile(t, "a", []int64{1000, 2000})
	first := bytes.IndexByte(data, '\n') + 1
	for cut := first; cut < len(data); cut += 7 {
		f, err := Read(bytes.NewReader(data[:cut]))
		if err != nil {
			t.Fatalf("cut at %d of %d: %v", cut, len(data), err)
		}
		complete := bytes.Count(data[:cut], []byte("\n")) - 1
		if data[cut] == '\n' {
			complete++ // cut just before a newline: the line itself is whole
		}
		if got := len(f.Intervals) + len(f.Steps) + btoi(f.Summary != nil); got != complete {
			t.Fatalf("cut at %d: %d lines after the header, want %d", cut, got, complete)
		}
		if s, err := Summarize(f); err != nil || f.Summary == nil && s.Status != "incomplete" {
			t.Errorf("cut at %d: a file without summary is not incomplete", cut)
		}
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestReadRejects: malformed files get an error that names the line.
func TestReadRejects(t *testing.T) {
	good := string(sampleFile(t, "a", []int64{5}))
	lines := strings.SplitAfter(good, "\n")
	header, interval, summary := lines[0], lines[1], lines[3]
	for _, c := range []struct {
		name, in, want string
	}{
		{"empty", "", "no header"}, // nothing at all
		{"no header", interval, "line 1: the first line must be the header"},                            // intervals first
		{"two headers", header + header, "line 2: a second header"},                                     // repeated
		{"foreign format", strings.Replace(header, Format, "other/1", 1), "not a gqlbench run file"},    // someone else's JSON lines
		{"newer format", strings.Replace(header, Format, "gqlbench-run/9", 1), "this build reads"},      // from the future
		{"unknown type", header + `{"type":"bogus"}` + "\n", "line 2: unknown line type"},               // typo
		{"line after summary", header + summary + interval, "after the summary"},                        // order
		{"garbage mid-file", header + "{oops\n" + interval, "line 2: not a JSON object"},                // corrupt, not cut
		{"bad histogram", header + strings.Replace(interval, `"qet":"`, `"qet":"AAAA`, 1), "histogram"}, // corrupt histogram
		{"negative run", header + strings.Replace(interval, `"run":1`, `"run":0`, 1), "out of range"},   // impossible
	} {
		_, err := Read(strings.NewReader(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

// TestMerge: two generators' files merge into the file one generator would
// have written: histograms exactly, counts added.
func TestMerge(t *testing.T) {
	a, _ := Read(bytes.NewReader(sampleFile(t, "a", []int64{1000, 2000, 3000})))
	b, _ := Read(bytes.NewReader(sampleFile(t, "b", []int64{5000, 7_000_000})))
	a.Summary.Connects, b.Summary.Connects = 3, 2 // connections made inside requests' time
	m, err := Merge([]*File{a, b})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Intervals) != 2 || strings.Join(m.Header.Sources, ",") != "a,b" {
		t.Fatalf("merged %d intervals from %v", len(m.Intervals), m.Header.Sources)
	}
	want := hist(1000, 2000, 3000, 5000, 7_000_000)
	for _, iv := range m.Intervals {
		tm := iv.Templates["QT1"]
		h, err := DecodeHist(tm.QET)
		if err != nil || tm.Count != 5 || iv.Generators != 2 || iv.Users != 2 || !h.Equals(want) {
			t.Errorf("interval %d: count %d, generators %d, users %d", iv.Index, tm.Count, iv.Generators, iv.Users)
		}
	}
	if m.Summary.Total.Count != 10 || m.Summary.Total.QET.Max != want.Max() || m.Summary.Generators != 2 {
		t.Errorf("summary %+v", m.Summary.Total)
	}
	if m.Summary.Connects != 5 || m.Summary.ConnectsPerRequest != 0.5 {
		t.Errorf("merged connects %d, %.2f per request; want the files' 3 + 2 over their 10 requests", m.Summary.Connects, m.Summary.ConnectsPerRequest)
	}
	// The merged file reads back as it was written.
	var buf bytes.Buffer
	if err := WriteFile(&buf, m); err != nil {
		t.Fatal(err)
	}
	back, err := Read(&buf)
	if err != nil {
		t.Fatalf("merged file does not read back: %v", err)
	}
	if h, _ := DecodeHist(back.Intervals[0].Templates["QT1"].QET); !h.Equals(want) {
		t.Fatal("merged histogram differs once read back")
	}
	// Files of different modes do not merge.
	b.Header.Mode = "open"
	if _, err := Merge([]*File{a, b}); err == nil {
		t.Error("a closed and an open run merged")
	}
}

func TestPool(t *testing.T) {
	xs := []float64{1, 2, 3, 4, 10, 20}
	all := meanSD(xs)
	a, b := meanSD(xs[:2]), meanSD(xs[2:])
	m, sd := pool(2, a.Mean, a.SD, 4, b.Mean, b.SD)
	if d := m - all.Mean; d > 1e-9 || d < -1e-9 {
		t.Errorf("pooled mean %v, want %v", m, all.Mean)
	}
	if d := sd - all.SD; d > 1e-9 || d < -1e-9 {
		t.Errorf("pooled sd %v, want %v", sd, all.SD)
	}
}

// FuzzRead: no input makes Read panic or take unbounded memory; what it
// accepts, it accepts again after being written back.
func FuzzRead(f *testing.F) {
	f.Add(sampleFile(f, "a", []int64{1, 1000, 1e9}))
	f.Add([]byte(`{"type":"header","format":"gqlbench-run/1","histogram":{"unit":"ns","lowest":1,"highest":3600000000000,"digits":3}}` + "\n" +
		`{"type":"interval","run":1,"index":0,"start_ns":0,"end_ns":1,"templates":{"QT1":{"count":1,"qet":"HISTFAAAACB42pNpmSzMwMDAxAABzFCaEUwz2X+AsQA/AQ"}}}`))
	f.Add([]byte(`{"type":"header"`))
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := Read(bytes.NewReader(data))
		if err != nil {
			return
		}
		var buf bytes.Buffer
		if err := WriteFile(&buf, got); err != nil {
			t.Fatal(err)
		}
		again, err := Read(&buf)
		if err != nil {
			t.Fatalf("a file Read accepted does not read back once written: %v\n%s", err, buf.Bytes())
		}
		if len(again.Intervals) != len(got.Intervals) {
			t.Fatalf("intervals %d, then %d", len(got.Intervals), len(again.Intervals))
		}
		if _, err := Summarize(got); err != nil {
			t.Fatalf("a file Read accepted does not summarize: %v", err)
		}
		if _, err := Merge([]*File{got, again}); err != nil && got.Header.Mode == again.Header.Mode {
			t.Fatalf("a file Read accepted does not merge with itself: %v", err)
		}
	})
}

var update = flag.Bool("update", false, "rewrite the golden files")

// TestWriteText: the text summary of a fixed run file, against its golden file.
func TestWriteText(t *testing.T) {
	f, err := Read(bytes.NewReader(sampleFile(t, "a", []int64{1_000_000, 2_000_000, 30_000_000})))
	if err != nil {
		t.Fatal(err)
	}
	s, err := Summarize(f)
	if err != nil {
		t.Fatal(err)
	}
	s.Ramp = &Ramp{MaxUsers: 40, MaxThroughput: 123.4, UsersAtMax: 35, Stop: "12 errors in 500 requests at 40 users"}
	// the verdict's parts, whatever the mode would have
	onTime, cv, hw := 0.987, 0.072, 0.061
	s.OnTime, s.CV = &onTime, &cv
	s.RunsAuto = &RunsAuto{Target: 0.05, HalfWidth: &hw, Runs: 19, MaxRuns: 20}
	s.DriverLimit, s.DriverWhy = true, "the generator used 190% CPU of 2 core(s)"
	var b bytes.Buffer
	WriteText(&b, s)
	golden := filepath.Join("testdata", "summary.golden")
	if *update {
		os.MkdirAll("testdata", 0o755)
		if err := os.WriteFile(golden, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if b.String() != string(want) {
		t.Errorf("text summary differs from %s (-update rewrites it):\n%s", golden, b.String())
	}
}

func TestDriverLimit(t *testing.T) {
	iv := func(count, driverLate int64, cpu float64, tail bool, lengthNS int64) *Interval {
		return &Interval{Run: 1, Tail: tail, EndNS: lengthNS, Driver: &ProcSample{CPUPercent: cpu},
			Templates: map[string]*TemplateInterval{"QT1": {Count: count, DriverLate: driverLate}}}
	}
	for _, c := range []struct {
		name string
		ivs  []*Interval
		want bool
	}{
		{"quiet", []*Interval{iv(1000, 0, 30, false, 1e9)}, false},
		{"a few late wake-ups", []*Interval{iv(100, 5, 30, false, 1e9)}, false}, // 5 % but only 5
		{"late sends", []*Interval{iv(1000, 20, 30, false, 1e9)}, true},         // 2 %, 20
		{"late but rare", []*Interval{iv(100000, 50, 30, false, 1e9)}, false},   // 0.05 %
		{"CPU saturated", []*Interval{iv(1000, 0, 30, false, 1e9), iv(1000, 0, 95, false, 1e9)}, true},
		{"CPU high in the tail only", []*Interval{iv(1000, 0, 30, false, 1e9), iv(5, 0, 150, true, 1e9)}, false},
		{"CPU high in a sliver of an interval", []*Interval{iv(1000, 0, 150, false, 5e6)}, false},
	} {
		if got, why := DriverLimit(c.ivs, 1); got != c.want {
			t.Errorf("%s: %v (%s), want %v", c.name, got, why, c.want)
		}
	}
	// The reason names the loop: in open loop (an offered rate) a late send
	// missed its schedule; in closed loop it waited on the generator after
	// its client's answer.
	closed := iv(1000, 20, 30, false, 1e9)
	open := iv(1000, 20, 30, false, 1e9)
	open.Rate = 1000
	if _, why := DriverLimit([]*Interval{closed}, 1); !strings.Contains(why, "after their client had its answer") {
		t.Errorf("closed loop: %s", why)
	}
	if _, why := DriverLimit([]*Interval{open}, 1); !strings.Contains(why, "while a connection was free") {
		t.Errorf("open loop: %s", why)
	}
}

// TestEncodeHistIsHDRs: EncodeHist writes hdrhistogram-go's own Encode,
// to the byte once inflated, for histograms of every shape (histShapes).
func TestEncodeHistIsHDRs(t *testing.T) {
	for i, h := range histShapes(rand.New(rand.NewPCG(5, 6))) {
		want, err := h.Encode(hdrhistogram.V2CompressedEncodingCookieBase)
		if err != nil {
			t.Fatal(err)
		}
		got, err := EncodeHist(h)
		if err != nil {
			t.Fatal(err)
		}
		if msg := sameEncoding(got, string(want)); msg != "" {
			t.Fatalf("case %d: EncodeHist differs from hdrhistogram-go's Encode: %s\n got %s\nwant %s", i, msg, got, want)
		}
	}
}

func BenchmarkEncodeHist(b *testing.B) {
	h := measure.NewHist()
	r := rand.New(rand.NewPCG(1, 2))
	for range 10000 {
		h.RecordValue(int64(r.ExpFloat64() * 1e6))
	}
	for b.Loop() {
		if _, err := EncodeHist(h); err != nil {
			b.Fatal(err)
		}
	}
}

// TestLateIntervals: intervals collected late are counted in the summary
// and called out in its text; on-time ones are not.
func TestLateIntervals(t *testing.T) {
	s := NewSummarizer()
	for i, late := range []int64{0, 2 * LateIntervalNS, 0, 5 * LateIntervalNS} {
		iv := &Interval{Type: TypeInterval, Run: 1, Index: i, StartNS: int64(i) * 1e9, EndNS: int64(i+1) * 1e9,
			CollectedLateNS: late, Templates: map[string]*TemplateInterval{"QT1": {Count: 1, OK: 1}}}
		if err := s.Add(iv); err != nil {
			t.Fatal(err)
		}
	}
	sum := s.Summary()
	if sum.LateIntervals != 2 {
		t.Errorf("%d late intervals, want 2", sum.LateIntervals)
	}
	var b bytes.Buffer
	WriteText(&b, sum)
	if !strings.Contains(b.String(), "2 interval line(s) collected more than 10ms late") {
		t.Errorf("the summary text does not warn:\n%s", b.String())
	}
}
