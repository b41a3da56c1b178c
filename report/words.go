package report

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// joinAnd joins words as "a, b and c".
func joinAnd(ws []string) string {
	switch len(ws) {
	case 0:
		return ""
	case 1:
		return ws[0]
	}
	return strings.Join(ws[:len(ws)-1], ", ") + " and " + ws[len(ws)-1]
}

// joinClauses joins clauses with semicolons.
func joinClauses(cs []string) string { return strings.Join(cs, "; ") }

// listSome lists at most n items, then how many more.
func listSome(items []string, n int) string {
	if len(items) > n {
		return strings.Join(items[:n], ", ") + fmt.Sprintf(" and %d more", len(items)-n)
	}
	return joinAnd(items)
}

// median of xs (not modified).
func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n == 0 {
		return 0
	}
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// timesCell formats a ratio: "1.99×", "12.3×".
func timesCell(x float64) string {
	if x >= 10 {
		return strconv.FormatFloat(x, 'f', 1, 64) + "×"
	}
	return strconv.FormatFloat(x, 'f', 2, 64) + "×"
}

// rateCell formats a rate for reading: "3,182", "12.3", "1.23".
func rateCell(x float64) string {
	switch {
	case x >= 100:
		return thousands(int64(math.Round(x)))
	case x >= 10:
		return strconv.FormatFloat(x, 'f', 1, 64)
	}
	return strconv.FormatFloat(x, 'f', 2, 64)
}

// msWord formats milliseconds for reading.
func msWord(x float64) string {
	if x >= 100 {
		return thousands(int64(math.Round(x)))
	}
	return strconv.FormatFloat(x, 'g', 3, 64)
}

// countCell formats a count: "334,512", "1.2 M".
func countCell(n int64) string {
	if n >= 1_000_000 {
		return strconv.FormatFloat(float64(n)/1e6, 'f', 1, 64) + " M"
	}
	return thousands(n)
}

// thousands formats n with commas between groups of three digits.
func thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		s = "-" + s
	}
	return s
}

// ms is nanoseconds in milliseconds.
func ms(ns int64) float64 { return float64(ns) / 1e6 }

// Number formats, fixed so that output is byte-for-byte reproducible.
func f1(x float64) string { return strconv.FormatFloat(x, 'f', 1, 64) }
func f2(x float64) string { return strconv.FormatFloat(x, 'f', 2, 64) }
func msCell(ns float64) string {
	return strconv.FormatFloat(ns/1e6, 'f', 3, 64)
}
func pCell(p float64) string {
	if p < 0.0001 {
		return "<0.0001"
	}
	return strconv.FormatFloat(p, 'f', 4, 64)
}
func pctCell(x float64) string { return strconv.FormatFloat(x, 'f', 1, 64) + " %" }
func ratioCell(x float64) string {
	if x == 0 {
		return "–"
	}
	return strconv.FormatFloat(x, 'f', 2, 64) + "×"
}
func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
func mib(b float64) string { return strconv.FormatFloat(b/(1<<20), 'f', 1, 64) }

// meanSD formats mean ± sd.
func meanSDCell(s Stat) string {
	if s.N < 2 {
		return f1(s.Mean)
	}
	return f1(s.Mean) + " ± " + f1(s.SD)
}

func ciCell(s Stat) string {
	if !s.HasCI {
		return "n/a"
	}
	return "[" + f1(s.CILow) + ", " + f1(s.CIHigh) + "]"
}

func cvCell(s Stat) string {
	if s.N < 2 {
		return "–"
	}
	return pctCell(s.CV * 100)
}

// noisyMark marks a run-to-run CV above runfile.NoisyCV.
const noisyMark = " ⚠"

func suffix(sep, s string) string {
	if s == "" {
		return ""
	}
	return sep + s
}

func orDash(s string) string {
	if s == "" {
		return "(all)"
	}
	return s
}

func signedPct(x float64) string {
	s := strconv.FormatFloat(x, 'f', 1, 64) + " %"
	if x > 0 {
		s = "+" + s
	}
	return s
}

func clientsCell(n int) string {
	if n == 0 {
		return "–"
	}
	return strconv.Itoa(n)
}
