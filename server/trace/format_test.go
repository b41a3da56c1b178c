package trace

import (
	"math"
	"strconv"
	"testing"
	"time"
)

// TestAppend: the integers and durations read as strconv writes them.
func TestAppend(t *testing.T) {
	for _, v := range []int64{0, 1, 9, 10, 99, 100, 101, 999, 1000, 12345, 987654321, math.MaxInt64} {
		if got, want := string(AppendUint(nil, v)), strconv.FormatInt(v, 10); got != want {
			t.Errorf("AppendUint(%d) = %s", v, got)
		}
	}
	for k := range 19 { // every number of digits, at its edges
		p := int64(math.Pow10(k))
		for _, v := range []int64{p - 1, p, p + 1, 7 * p} {
			if got, want := string(AppendUint([]byte("x"), v)), "x"+strconv.FormatInt(v, 10); got != want {
				t.Errorf("AppendUint(%d) = %s", v, got)
			}
		}
	}
	for v := int64(1); v < 1e12; v = v*3 + 1 { // the REST server's precision, as it was written
		d := time.Duration(v)
		if got, want := string(AppendMillis(nil, d, 6)), strconv.FormatFloat(float64(d)/1e6, 'f', 6, 64); got != want {
			t.Errorf("AppendMillis(%d, 6) = %s, want %s", v, got, want)
		}
	}
	if got := string(AppendUint([]byte("x="), -5)); got != "x=0" {
		t.Errorf("AppendUint(-5) = %s, want 0", got)
	}
	for _, c := range []struct {
		d        time.Duration
		decimals int
		want     string
	}{
		{0, 3, "0.000"}, {499, 3, "0.000"}, {500, 3, "0.001"}, {1234567, 3, "1.235"}, {-time.Second, 3, "0.000"},
		{12*time.Second + 34*time.Microsecond, 3, "12000.034"}, {999999, 3, "1.000"},
		{1234567, 6, "1.234567"}, {7, 6, "0.000007"}, {1500000, 0, "2"}, {1234567, 1, "1.2"},
	} {
		if got := string(AppendMillis(nil, c.d, c.decimals)); got != c.want {
			t.Errorf("AppendMillis(%d, %d) = %s, want %s", c.d, c.decimals, got, c.want)
		}
	}
}

// BenchmarkFormat formats what a traced response carries: ten durations
// and nineteen integers.
func BenchmarkFormat(b *testing.B) {
	buf := make([]byte, 0, 512)
	for b.Loop() {
		buf = buf[:0]
		for i := range 10 {
			buf = AppendMillis(buf, time.Duration(12345*(i+1)), 3)
		}
		for i := range 19 {
			buf = AppendUint(buf, int64(123456*(i+1)))
		}
	}
}
