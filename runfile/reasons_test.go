package runfile

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"
)

// reasonsFile is a one-run file whose two intervals carry errors by
// reason, checked as check says.
func reasonsFile(t *testing.T, gen, check string, reasons ...ErrorReason) *File {
	t.Helper()
	var b bytes.Buffer
	w := NewWriter(&b)
	w.Write(&Header{Generator: gen, Mode: "closed", Hist: StandardHist, Start: time.Unix(0, 0).UTC(), Queries: Queries{SHA256: "x"},
		Params: Params{Check: check}})
	s := NewSummarizer()
	var errs int64
	for _, r := range reasons {
		errs += r.Count
	}
	for i := range 2 {
		iv := &Interval{Run: 1, Index: i, StartNS: int64(i) * 1e9, EndNS: int64(i+1) * 1e9, Users: 1, ErrorReasons: reasons,
			Templates: map[string]*TemplateInterval{"QT1": {Count: 10 + errs, OK: 10, Errors: errs}}}
		w.Write(iv)
		s.Add(iv)
	}
	sum := s.Summary()
	sum.Status, sum.Check = "ok", check
	w.Write(sum)
	f, err := Read(&b)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestErrorReasonsMerge: reasons add up across intervals and files (load
// merge), the same reason once; beyond MaxErrorReasons distinct reasons the
// rest count under their kind's "other"; the counts never get lost.
func TestErrorReasonsMerge(t *testing.T) {
	a := reasonsFile(t, "a", "", ErrorReason{Kind: "http_status", Status: 500, Reason: "HTTP 500 Internal Server Error", Count: 3, Sample: "down"})
	var many []ErrorReason
	for i := range MaxErrorReasons + 2 {
		many = append(many, ErrorReason{Kind: "bad_response", Reason: fmt.Sprintf("reason %d", i), Count: 1})
	}
	b := reasonsFile(t, "b", "", append(many, ErrorReason{Kind: "http_status", Status: 500, Reason: "HTTP 500 Internal Server Error", Count: 2})...)
	sa, _ := Summarize(a)
	if len(sa.ErrorReasons) != 1 || sa.ErrorReasons[0].Count != 6 || sa.ErrorReasons[0].Sample != "down" {
		t.Fatalf("one file's reasons: %+v", sa.ErrorReasons)
	}
	m, err := Merge([]*File{a, b})
	if err != nil {
		t.Fatal(err)
	}
	rs := m.Summary.ErrorReasons
	var n int64
	other := false
	for _, r := range rs {
		n += r.Count
		other = other || r.Kind == "bad_response" && r.Reason == OtherReason
	}
	if n != m.Summary.Total.Errors || rs[0].Status != 500 || rs[0].Count != 10 || !other || len(rs) > MaxErrorReasons+1 {
		t.Errorf("merged reasons (%d errors): %+v", m.Summary.Total.Errors, rs)
	}
}

// TestUncheckedSummary: a run that checked the status of its answers only
// shows no goodput and no wrong count — in the text (the terminal, load
// show) and in its JSON summary line — and says that the answers were not
// checked; a checked run keeps both. One run has no spread: "n/a", not
// "± 0.0".
func TestUncheckedSummary(t *testing.T) {
	f := reasonsFile(t, "a", "status", ErrorReason{Kind: "http_status", Status: 401, Reason: "HTTP 401 Unauthorized", Count: 2, Sample: `{"errors":[]}`})
	s, err := Summarize(f)
	if err != nil {
		t.Fatal(err)
	}
	var text bytes.Buffer
	WriteText(&text, s)
	out := text.String()
	for _, bad := range []string{"correct/s", "goodput", "wrong", "± 0.0"} {
		if strings.Contains(out, bad) {
			t.Errorf("the text says %q:\n%s", bad, out)
		}
	}
	for _, want := range []string{"answers not checked", "4 × http_status: HTTP 401 Unauthorized; body", "spread n/a"} {
		if !strings.Contains(out, want) {
			t.Errorf("the text does not say %q:\n%s", want, out)
		}
	}
	var line bytes.Buffer
	NewWriter(&line).Write(s)
	if l := line.String(); strings.Contains(l, `"goodput"`) || strings.Contains(l, `"wrong"`) || !strings.Contains(l, `"check":"status"`) {
		t.Errorf("the JSON summary: %s", l)
	}
	back, err := Read(strings.NewReader(sampleHeaderLine(t) + line.String()))
	if err != nil || back.Summary == nil || back.Summary.Total.Count != s.Total.Count {
		t.Fatalf("the summary line does not read back: %v", err)
	}

	checked := reasonsFile(t, "b", "golden")
	cs, _ := Summarize(checked)
	var cl bytes.Buffer
	NewWriter(&cl).Write(cs)
	if !strings.Contains(cl.String(), `"goodput"`) || !strings.Contains(cl.String(), `"wrong"`) {
		t.Errorf("a checked run lost its goodput or wrong count: %s", cl.String())
	}
}

// sampleHeaderLine is a header line, for a file made of one summary line.
func sampleHeaderLine(t *testing.T) string {
	var b bytes.Buffer
	NewWriter(&b).Write(&Header{Mode: "closed", Hist: StandardHist, Queries: Queries{SHA256: "x"}})
	return b.String()
}
