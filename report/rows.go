package report

import (
	"strconv"
	"strings"
)

// maxChartsPerKind bounds the charts of one kind (one per condition or
// template); the tables hold everything.
const maxChartsPerKind = 8

// comparedOnly keeps the rows of the series that are compared.
func (r *Report) comparedOnly(rows []Throughput) []Throughput {
	var out []Throughput
	for _, t := range rows {
		if !r.apart(t.Series) {
			out = append(out, t)
		}
	}
	return out
}

// keyed is a row with a key.
type keyed interface{ key() Key }

func (t Throughput) key() Key { return t.Key }

func (l Latency) key() Key { return l.Key }

// group is rows under one label.
type group[T any] struct {
	label string
	rows  []T
}

// groupBy groups rows by label(key), in order of first appearance.
func groupBy[T keyed](rows []T, label func(Key) string) []group[T] {
	var out []group[T]
	idx := map[string]int{}
	for _, row := range rows {
		l := label(row.key())
		i, ok := idx[l]
		if !ok {
			i = len(out)
			idx[l] = i
			out = append(out, group[T]{label: l})
		}
		out[i].rows = append(out[i].rows, row)
	}
	return out
}

func limit[T any](gs []group[T]) []group[T] { return gs[:min(len(gs), maxChartsPerKind)] }

func nonMixed(rows []Throughput) []Throughput {
	var out []Throughput
	for _, t := range rows {
		if !t.Mixed {
			out = append(out, t)
		}
	}
	return out
}

// condLabel names a key's conditions (without series and workload).
func condLabel(k Key) string {
	var parts []string
	if k.Mode != "" {
		parts = append(parts, k.Mode)
	}
	if k.SF != "" {
		parts = append(parts, "sf="+k.SF)
	}
	if k.Clients > 0 {
		parts = append(parts, "clients="+strconv.Itoa(k.Clients))
	}
	if k.Pool != "" {
		parts = append(parts, "pool="+k.Pool)
	}
	return strings.Join(parts, ", ")
}

// seriesOf lists the series of rows in report order.
func (r *Report) seriesOf(has func(string) bool) []string {
	var out []string
	for _, s := range r.Series {
		if has(s.Name) {
			out = append(out, s.Name)
		}
	}
	return out
}

// colorIndex is a series' colour in every chart: its place among the
// series that are not a ceiling (a ceiling is a grey reference line).
func (r *Report) colorIndex(series string) int {
	i := 0
	for _, s := range r.Series {
		if s.Name == series {
			return i
		}
		if !s.Ceiling {
			i++
		}
	}
	return i
}

func chartID(kind, label string) string {
	id := strings.Map(func(c rune) rune {
		if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '.' {
			return c
		}
		if c >= 'A' && c <= 'Z' {
			return c + 'a' - 'A'
		}
		return '-'
	}, label)
	for strings.Contains(id, "--") {
		id = strings.ReplaceAll(id, "--", "-")
	}
	return strings.Trim(kind+"-"+strings.Trim(id, "-"), "-")
}
