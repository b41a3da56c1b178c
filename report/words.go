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
