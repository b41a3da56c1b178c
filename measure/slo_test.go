package measure

import (
	"strings"
	"testing"
	"time"
)

func TestParseSLO(t *testing.T) {
	for _, c := range []struct {
		in   string
		want SLO
		err  string
	}{
		{"p99<200ms", SLO{{99, 200 * time.Millisecond}}, ""},                              // the usual
		{"p99.9<1s, p50<20ms", SLO{{99.9, time.Second}, {50, 20 * time.Millisecond}}, ""}, // several, spaces
		{"max<2s", SLO{{100, 2 * time.Second}}, ""},                                       // the maximum
		{"p99>200ms", nil, "want pNN<DURATION"},                                           // wrong comparison
		{"p0<1s", nil, "percentile"},                                                      // out of range
		{"p101<1s", nil, "percentile"},                                                    // out of range
		{"q99<1s", nil, "want pNN<DURATION"},                                              // not a percentile
		{"p99<fast", nil, "positive duration"},                                            // not a duration
		{"p99<-1s", nil, "positive duration"},                                             // negative
		{"", nil, "want pNN<DURATION"},                                                    // empty
	} {
		got, err := ParseSLO(c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: error %v, want %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil || len(got) != len(c.want) {
			t.Fatalf("%q: %v, %v", c.in, got, err)
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("%q: %v, want %v", c.in, got, c.want)
			}
		}
		if again, err := ParseSLO(got.String()); err != nil || again.String() != got.String() {
			t.Errorf("%q: String %q does not parse back", c.in, got.String())
		}
	}
}

func TestSLOCheck(t *testing.T) {
	h := NewHist()
	for i := 1; i <= 1000; i++ {
		h.RecordValue(int64(i) * int64(time.Millisecond)) // 1ms..1s
	}
	for _, c := range []struct {
		slo  string
		want bool
	}{
		{"p50<600ms", true},  // p50 ≈ 500ms
		{"p50<400ms", false}, // p50 ≈ 500ms
		{"p99<995ms", true},  // p99 ≈ 990ms
		{"p99<900ms", false}, // p99 ≈ 990ms
		{"max<1001ms", true}, // max 1s (within 0.1%)
		{"max<999ms", false}, // max 1s
		{"p50<600ms,p99<900ms", false},
	} {
		s, err := ParseSLO(c.slo)
		if err != nil {
			t.Fatal(err)
		}
		if ok, why := s.Check(h); ok != c.want {
			t.Errorf("%s: %v (%s), want %v", c.slo, ok, why, c.want)
		}
	}
	s, _ := ParseSLO("p99<1h")
	if ok, _ := s.Check(NewHist()); ok {
		t.Error("an empty histogram met an objective")
	}
}
