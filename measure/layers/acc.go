package layers

import (
	"cmp"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Defaults of an Acc.
const (
	// DefaultKeep is how many requests' own figures an Acc keeps per
	// template: the first ones, seed 002's iterations.
	DefaultKeep = 100
	// SlowestFields is how many fields a template's report names.
	SlowestFields = 10
)

// Acc adds up the splits of the responses per template. It is not safe
// for concurrent use: give each worker its own and Merge them.
type Acc struct {
	names []string
	keep  int
	t     []*agg
}

// agg is one template's sums.
type agg struct {
	Template
	fields map[fieldKey]*Field
}

type fieldKey struct{ parent, field string }

// NewAcc returns an empty Acc for the templates named (indexes as in
// Add), keeping the figures of the first keep requests of each (0:
// DefaultKeep; < 0: none).
func NewAcc(templates []string, keep int) *Acc {
	if keep == 0 {
		keep = DefaultKeep
	}
	a := &Acc{names: templates, keep: max(keep, 0), t: make([]*agg, len(templates))}
	for i, n := range templates {
		a.t[i] = &agg{Template: Template{Template: n}}
	}
	return a
}

// Add reads one response of template tmpl, whose round trip the client
// measured: the Server-Timing header's value (nil: none) first, else the
// body's Apollo tracing. It returns the source found (None: the response
// carried neither, which is counted too).
func (a *Acc) Add(tmpl int, roundTrip time.Duration, serverTiming, body []byte) Source {
	if tmpl < 0 || tmpl >= len(a.t) {
		return None
	}
	g := a.t[tmpl]
	if len(serverTiming) > 0 {
		if s, ok := ParseServerTiming(serverTiming); ok {
			g.add(s, roundTrip, a.keep)
			return ServerTiming
		}
	}
	if len(body) > 0 {
		if tr, ok := ParseApolloTracing(body); ok {
			g.add(tr.Split(), roundTrip, a.keep)
			g.addFields(tr)
			return ApolloTracing
		}
	}
	g.Without++
	if len(g.WithoutRoundTrips) < a.keep {
		g.WithoutRoundTrips = append(g.WithoutRoundTrips, int64(roundTrip))
	}
	return None
}

// AddSplit adds a split read elsewhere (a test, another reader).
func (a *Acc) AddSplit(tmpl int, roundTrip time.Duration, s Split) {
	if tmpl >= 0 && tmpl < len(a.t) {
		a.t[tmpl].add(s, roundTrip, a.keep)
	}
}

func (g *agg) add(s Split, rt time.Duration, keep int) {
	g.N++
	if s.Source == ServerTiming {
		g.ServerTiming++
	} else {
		g.Apollo++
	}
	g.RoundTripNS += int64(rt)
	g.TotalNS += int64(s.Total)
	g.ReadNS += int64(s.Read)
	g.ParseNS += int64(s.Parse)
	g.ValidateNS += int64(s.Validate)
	g.ExecuteNS += int64(s.Execute)
	g.WriteNS += int64(s.Write)
	g.DispatchNS += int64(s.Dispatch)
	if s.Has&HasDB != 0 {
		g.DatabaseN++
		g.DatabaseNS += int64(s.DB)
	}
	if s.Has&HasStatements != 0 {
		g.Statements += s.Statements
	}
	if s.Has&HasDBSum != 0 {
		g.DatabaseSumNS += int64(s.DBSum)
	}
	g.RemoteNS += int64(s.Remote)
	g.RemoteCalls += s.RemoteCalls
	if len(g.Requests) < keep {
		r := Request{RoundTripNS: int64(rt), TotalNS: int64(s.Total), ParseNS: int64(s.Parse),
			ValidateNS: int64(s.Validate), ExecuteNS: int64(s.Execute), DatabaseNS: -1}
		if s.Has&HasDB != 0 {
			r.DatabaseNS = int64(s.DB)
		}
		g.Requests = append(g.Requests, r)
	}
}

func (g *agg) addFields(t *Tracing) {
	if t.Execution == nil {
		return
	}
	if g.fields == nil {
		g.fields = map[fieldKey]*Field{}
	}
	for _, r := range t.Execution.Resolvers {
		k := fieldKey{r.ParentType, r.FieldName}
		f := g.fields[k]
		if f == nil {
			if len(g.fields) >= maxFields {
				continue // a schema this large is not one to list
			}
			f = &Field{Field: r.ParentType + "." + r.FieldName, ReturnType: r.ReturnType, Path: pathOf(r.Path)}
			g.fields[k] = f
		}
		f.Count++
		f.TotalNS += max(r.Duration, 0)
		f.MaxNS = max(f.MaxNS, r.Duration)
	}
}

// maxFields bounds the distinct fields an Acc tracks per template.
const maxFields = 4096

// pathOf is a resolver path with list indexes as [] (one example path
// per field: "university.graduateStudents[].name").
func pathOf(p []json.RawMessage) string {
	var b strings.Builder
	for _, e := range p {
		s := string(e)
		if len(s) > 0 && s[0] == '"' {
			if u, err := strconv.Unquote(s); err == nil {
				s = u
			}
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(s)
		} else {
			b.WriteString("[]")
		}
	}
	return b.String()
}

// Merge adds b's figures to a's; both must have been made for the same
// templates. The kept requests are a's, then b's while there is room.
func (a *Acc) Merge(b *Acc) {
	for i, g := range a.t {
		if i >= len(b.t) {
			break
		}
		h := b.t[i]
		g.N += h.N
		g.Without += h.Without
		g.ServerTiming += h.ServerTiming
		g.Apollo += h.Apollo
		g.RoundTripNS += h.RoundTripNS
		g.TotalNS += h.TotalNS
		g.ReadNS += h.ReadNS
		g.ParseNS += h.ParseNS
		g.ValidateNS += h.ValidateNS
		g.ExecuteNS += h.ExecuteNS
		g.WriteNS += h.WriteNS
		g.DispatchNS += h.DispatchNS
		g.DatabaseNS += h.DatabaseNS
		g.DatabaseN += h.DatabaseN
		g.Statements += h.Statements
		g.DatabaseSumNS += h.DatabaseSumNS
		g.RemoteNS += h.RemoteNS
		g.RemoteCalls += h.RemoteCalls
		for _, r := range h.Requests {
			if len(g.Requests) >= a.keep {
				break
			}
			g.Requests = append(g.Requests, r)
		}
		g.WithoutRoundTrips = append(g.WithoutRoundTrips, h.WithoutRoundTrips[:min(len(h.WithoutRoundTrips), max(a.keep-len(g.WithoutRoundTrips), 0))]...)
		for k, f := range h.fields {
			if g.fields == nil {
				g.fields = map[fieldKey]*Field{}
			}
			if e := g.fields[k]; e != nil {
				e.Count += f.Count
				e.TotalNS += f.TotalNS
				e.MaxNS = max(e.MaxNS, f.MaxNS)
			} else if len(g.fields) < maxFields {
				c := *f
				g.fields[k] = &c
			}
		}
	}
}

// Report is the account of every template, in the order of the names
// given to NewAcc, templates without a response left out.
func (a *Acc) Report() *Report {
	r := &Report{}
	var st, ap, without int64
	for _, g := range a.t {
		if g.N == 0 && g.Without == 0 {
			continue
		}
		t := g.Template
		t.Requests = slices.Clone(g.Requests)
		t.WithoutRoundTrips = slices.Clone(g.WithoutRoundTrips)
		t.Fields = slowest(g.fields, SlowestFields)
		r.Templates = append(r.Templates, t)
		st, ap, without = st+g.ServerTiming, ap+g.Apollo, without+g.Without
	}
	r.Source = sourceName(st, ap)
	r.Without = without
	return r
}

func sourceName(st, ap int64) string {
	switch {
	case st > 0 && ap > 0:
		return "server-timing+apollo-tracing"
	case st > 0:
		return ServerTiming.String()
	case ap > 0:
		return ApolloTracing.String()
	}
	return None.String()
}

// slowest lists the n fields of the most time in all, slowest first.
func slowest(m map[fieldKey]*Field, n int) []Field {
	if len(m) == 0 {
		return nil
	}
	out := make([]Field, 0, len(m))
	for _, f := range m {
		out = append(out, *f)
	}
	slices.SortFunc(out, func(a, b Field) int {
		return cmp.Or(cmp.Compare(b.TotalNS, a.TotalNS), strings.Compare(a.Field, b.Field))
	})
	return out[:min(n, len(out))]
}
