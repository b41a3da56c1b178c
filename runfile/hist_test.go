package runfile

import (
	"bytes"
	"compress/zlib"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"io"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/gqlbench/gqlbench/measure"
)

// assertEncodesAsHDR fails unless EncodeCounts(got) is hdrhistogram-go's
// Encode of want, to the byte once inflated (sameEncoding).
func assertEncodesAsHDR(t *testing.T, name string, got *measure.Hist, want *hdrhistogram.Histogram) {
	t.Helper()
	enc, err := EncodeCounts(got)
	if err != nil {
		t.Fatal(err)
	}
	lib, err := want.Encode(hdrhistogram.V2CompressedEncodingCookieBase)
	if err != nil {
		t.Fatal(err)
	}
	if msg := sameEncoding(enc, string(lib)); msg != "" {
		t.Fatalf("%s: EncodeCounts differs from hdrhistogram-go's Encode: %s\n got %s\nwant %s", name, msg, enc, lib)
	}
}

// sameEncoding says how the compressed V2 encodings got and want differ
// ("" when they do not): their cookies, or their payloads once inflated —
// the compression may differ (EncodeHist codes Huffman only, hdrhistogram-go
// at its best), what is compressed may not. hdrhistogram-go's Decode reads
// got, too, to the same counts as want.
func sameEncoding(got, want string) string {
	inflate := func(s string) (cookie uint32, payload []byte, err error) {
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return 0, nil, err
		}
		if len(b) < 8 || int(binary.BigEndian.Uint32(b[4:])) != len(b)-8 {
			return 0, nil, fmt.Errorf("bad length field")
		}
		z, err := zlib.NewReader(bytes.NewReader(b[8:]))
		if err != nil {
			return 0, nil, err
		}
		payload, err = io.ReadAll(z)
		return binary.BigEndian.Uint32(b), payload, err
	}
	if got == "" || want == "" {
		if got != want {
			return "one is empty"
		}
		return ""
	}
	gc, gp, err := inflate(got)
	if err != nil {
		return "got: " + err.Error()
	}
	wc, wp, err := inflate(want)
	if err != nil {
		return "want: " + err.Error()
	}
	if gc != wc {
		return fmt.Sprintf("cookie %#x, want %#x", gc, wc)
	}
	if !bytes.Equal(gp, wp) {
		return fmt.Sprintf("payload (%d bytes) differs from hdrhistogram-go's (%d)", len(gp), len(wp))
	}
	gh, err := hdrhistogram.Decode([]byte(got))
	if err != nil {
		return "hdrhistogram-go does not decode got: " + err.Error()
	}
	wh, _ := hdrhistogram.Decode([]byte(want))
	if !reflect.DeepEqual(gh.Export(), wh.Export()) {
		return "hdrhistogram-go decodes got to other counts"
	}
	return ""
}

// histShapes returns histograms of every shape: one value, both ends of
// the range, runs of zeros of every length, huge counts (at hugeShape),
// and 50 random ones drawn from r.
func histShapes(r *rand.Rand) []*hdrhistogram.Histogram {
	cases := []*hdrhistogram.Histogram{hist(0), hist(1), hist(2), hist(0, 2), hist(measure.HistHighest), hist(0, measure.HistHighest),
		hist(1, 2, 4, 8, 16, 1000, 2047, 2048, 2049), hist(measure.HistHighest-1, measure.HistHighest)}
	huge := measure.NewHist()
	huge.RecordValues(12345, 1<<40)
	huge.RecordValues(7, 3)
	huge.RecordValues(measure.HistHighest, 1<<62)
	cases = append(cases, huge)
	for range 50 {
		h := measure.NewHist()
		for range r.IntN(10000) + 1 {
			h.RecordValue(min(int64(r.ExpFloat64()*float64(r.Int64N(1e9)+1)), measure.HistHighest))
		}
		cases = append(cases, h)
	}
	return cases
}

// hugeShape is the index of histShapes' histogram of huge counts.
const hugeShape = 8

// TestEncodeCountsIsHDRs: EncodeCounts writes hdrhistogram-go's own
// Encode, to the byte once inflated, for histograms of every shape (one value,
// both ends of the range, runs of zeros of every length, huge counts,
// random ones), whether the Hist was converted, added up, or drained from
// a recorder interval after interval; an empty one encodes as "".
func TestEncodeCountsIsHDRs(t *testing.T) {
	if s, err := EncodeCounts(nil); s != "" || err != nil {
		t.Errorf("nil encodes as %q, %v", s, err)
	}
	if s, err := EncodeCounts(measure.HistOf(nil)); s != "" || err != nil {
		t.Errorf("an empty Hist encodes as %q, %v", s, err)
	}
	r := rand.New(rand.NewPCG(9, 10))
	cases := histShapes(r)
	var sum *measure.Hist
	want := measure.NewHist()
	for i, h := range cases {
		assertEncodesAsHDR(t, fmt.Sprintf("case %d", i), measure.HistOf(h), h)
		if i != hugeShape { // not the huge counts: their sum overflows
			measure.AddHist(&sum, measure.HistOf(h))
			want.Merge(h)
			assertEncodesAsHDR(t, "a sum", sum, want)
		}
	}

	// drained from a recorder, interval after interval: each interval's
	// counts alone, the span of the last one's forgotten
	c := measure.NewCollector(measure.Options{Templates: 1, Shards: 2})
	recs := []*measure.Recorder{c.NewRecorder(), c.NewRecorder()}
	snap := c.NewSnapshot()
	for iv, spread := range []float64{1e9, 1e3, 3e6, 1, 1e5} {
		want := measure.NewHist()
		for k := range 3000 {
			v := min(int64(r.ExpFloat64()*spread), measure.HistHighest)
			want.RecordValue(v)
			recs[k%2].Record(&measure.Sample{Start: time.Second, FirstByte: time.Second + time.Duration(v), End: time.Second + time.Duration(v)})
		}
		snap.Reset()
		c.Collect(snap)
		assertEncodesAsHDR(t, fmt.Sprintf("interval %d", iv), snap.T[0].QET, want)
	}
}

// TestSummarizerAddsCounts: a Summarizer given the intervals with their
// histograms in memory sums up exactly what one given only their
// encodings does (as from a file read back), and decodes nothing: it
// allocates nothing once its sums exist.
func TestSummarizerAddsCounts(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	mem, file := NewSummarizer(), NewSummarizer()
	for i := range 20 {
		iv := &Interval{Run: 1, Index: i, Warmup: i < 2, StartNS: int64(i) * 1e9, EndNS: int64(i+1) * 1e9, Templates: map[string]*TemplateInterval{}}
		for _, name := range []string{"QT1", "QT2", "QT3"} {
			if r.IntN(4) == 0 {
				continue // absent from this interval
			}
			ti := &TemplateInterval{}
			for k, h := range []**measure.Hist{&ti.QETHist, &ti.QRTHist, &ti.LatencyHist} {
				if k == 2 && name == "QT3" {
					break // no latency
				}
				lib := measure.NewHist()
				for range r.IntN(3000) + 1 {
					lib.RecordValue(min(int64(r.ExpFloat64()*float64(r.Int64N(1e8)+1)), measure.HistHighest))
				}
				*h = measure.HistOf(lib)
			}
			var err error
			ti.Count = ti.QETHist.TotalCount()
			ti.OK = ti.Count
			if ti.QET, err = EncodeCounts(ti.QETHist); err != nil {
				t.Fatal(err)
			}
			ti.QRT, _ = EncodeCounts(ti.QRTHist)
			ti.Latency, _ = EncodeCounts(ti.LatencyHist)
			iv.Templates[name] = ti
		}
		if err := mem.Add(iv); err != nil {
			t.Fatal(err)
		}
		read := *iv
		read.Templates = map[string]*TemplateInterval{}
		for name, ti := range iv.Templates {
			c := *ti
			c.QETHist, c.QRTHist, c.LatencyHist = nil, nil, nil
			read.Templates[name] = &c
		}
		if err := file.Add(&read); err != nil {
			t.Fatal(err)
		}
		if i == 19 {
			if n := testing.AllocsPerRun(10, func() { _ = mem.Add(iv) }); n != 0 {
				t.Errorf("adding an interval with its histograms in memory allocates %v times", n)
			}
			_ = file.Add(&read) // what the runs above added to mem
			for range 10 {
				_ = file.Add(&read)
			}
		}
	}
	got, want := mem.Summary(), file.Summary()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("summaries differ:\n got %+v\nwant %+v", got.Total, want.Total)
	}
	if want.Total.Latency == nil || want.Total.QET.N == 0 {
		t.Fatalf("no histograms summed: %+v", want.Total)
	}
}
