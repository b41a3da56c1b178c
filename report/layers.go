package report

import (
	"fmt"
	"image/color"
	"slices"
	"strconv"
	"strings"

	"github.com/gqlbench/gqlbench/measure/layers"
	"github.com/gqlbench/gqlbench/report/plot"
)

// Layer is where one run's requests of one template spent their time, as
// the server said (load --layers), in mean milliseconds per request: seed
// 002's split of a request into the database, the GraphQL layer (the
// server's total less the database) and the rest of the round trip
// (network, HTTP and serialisation outside the server's own account).
type Layer struct {
	Key
	Template string `json:"template"`
	Source   string `json:"source"` // server-timing, apollo-tracing, or both joined by +
	N        int64  `json:"n"`      // responses with figures
	Without  int64  `json:"without,omitempty"`
	// RoundTripMS is the client's; TotalMS the server's; DatabaseMS is
	// absent when the server reported none (Apollo tracing).
	RoundTripMS float64  `json:"round_trip_ms"`
	TotalMS     float64  `json:"server_total_ms"`
	DatabaseMS  *float64 `json:"database_ms,omitempty"`
	GraphQLMS   float64  `json:"graphql_ms"`
	GraphQLPct  float64  `json:"graphql_pct"` // of the server's total
	OverheadMS  float64  `json:"overhead_ms"` // round trip − server total
	ParseMS     float64  `json:"parse_ms"`
	ValidateMS  float64  `json:"validate_ms"`
	ExecuteMS   float64  `json:"execute_ms"`
	DispatchMS  float64  `json:"dispatch_ms,omitempty"` // a gqlbench server's hand-off to its executor and back
	// CoveredPct is the share of the server's total its named phases
	// (read, parse, validate, execute, write) account for; absent when it
	// names none but a total.
	CoveredPct *float64 `json:"covered_pct,omitempty"`
	Statements float64  `json:"sql_statements_per_request,omitempty"`
	// RemoteMS and RemoteCalls are the calls to the remote custom fields'
	// service, within the GraphQL layer: mean ms and calls per request.
	RemoteMS      float64        `json:"remote_ms,omitempty"`
	RemoteCalls   float64        `json:"remote_calls_per_request,omitempty"`
	SlowestFields []layers.Field `json:"slowest_fields,omitempty"`
}

// layerRows collects the runs' layers, in run and template order, and
// the runs whose server emitted neither Server-Timing nor Apollo tracing.
func (r *Report) layerRows() {
	for _, run := range r.runs {
		fs := run.File.Summary
		if fs == nil || fs.Layers == nil {
			continue
		}
		if fs.Layers.Source == layers.None.String() {
			r.NoLayers = append(r.NoLayers, run.Path)
			continue
		}
		for _, t := range fs.Layers.Templates {
			if t.N == 0 {
				continue
			}
			l := Layer{Key: run.key, Template: t.Template, Source: sourceOf(t), N: t.N, Without: t.Without,
				RoundTripMS: t.Mean(t.RoundTripNS) / 1e6, TotalMS: t.Mean(t.TotalNS) / 1e6, GraphQLMS: t.GraphQL() / 1e6,
				OverheadMS: t.Overhead() / 1e6, ParseMS: t.Mean(t.ParseNS) / 1e6, ValidateMS: t.Mean(t.ValidateNS) / 1e6,
				ExecuteMS: t.Mean(t.ExecuteNS) / 1e6, DispatchMS: t.Mean(t.DispatchNS) / 1e6, Statements: t.Mean(t.Statements), SlowestFields: t.Fields,
				RemoteMS: t.Mean(t.RemoteNS) / 1e6, RemoteCalls: t.Mean(t.RemoteCalls)}
			if db, ok := t.Database(); ok {
				v := db / 1e6
				l.DatabaseMS = &v
			}
			if l.TotalMS > 0 {
				l.GraphQLPct = 100 * l.GraphQLMS / l.TotalMS
			}
			if t.ReadNS+t.WriteNS > 0 { // the phases of a gqlbench server: all of its time named
				v := 100 * t.Covered()
				l.CoveredPct = &v
			}
			r.Layers = append(r.Layers, l)
		}
	}
}

func sourceOf(t layers.Template) string {
	switch {
	case t.ServerTiming > 0 && t.Apollo > 0:
		return "server-timing+apollo-tracing"
	case t.Apollo > 0:
		return layers.ApolloTracing.String()
	}
	return layers.ServerTiming.String()
}

// layersSection shows the layers: a table of the split per series and
// template, the stacked bars of it, and the slowest fields.
func (r *Report) layersSection() section {
	s := section{ID: "layers", Title: "Inside the server: where the time went"}
	if len(r.NoLayers) > 0 {
		s.Paras = append(s.Paras, fmt.Sprintf("%s: %s", strings.Join(r.NoLayers, ", "), layers.NoneLine))
	}
	if len(r.Layers) == 0 {
		return s
	}
	s.Paras = append(s.Paras, "What the server said of each measured request (a Server-Timing header, or Apollo tracing in extensions.tracing), beside the round trip the load generator measured, as seed 002's split: the database (wall time with a SQL statement running), the GraphQL layer (the server's total less the database) and the network, HTTP and serialisation outside the server (round trip − server total). Means per request, in ms.")
	head, cells := r.keyCols(true)
	t := table{Title: "Where a request's time went, per template",
		Note: "Source: what the figures were read from. Parse, validate, execute: the engine's phases; dispatch: a gqlbench server's hand-off of the request to its executor's goroutine and back. Phases cover: the share of the server's total its named phases (read, parse, validate, execute, dispatch, write) account for; – for a server that names no phases but a total. Database – : the server reported no database time (Apollo tracing has none).",
		Head: append(head, "template", "source", "n", "round trip", "server total", "database", "GraphQL layer", "GraphQL %", "network+HTTP+serialisation", "parse", "validate", "execute", "dispatch", "phases cover", "SQL stmts/req")}
	for _, l := range r.Layers {
		db, cov := "–", "–"
		if l.DatabaseMS != nil {
			db = f3(*l.DatabaseMS)
		}
		if l.CoveredPct != nil {
			cov = f1(*l.CoveredPct) + " %"
		}
		stmts := "–"
		if l.Statements > 0 {
			stmts = f1(l.Statements)
		}
		t.add(r.flagged(l.Series), append(cells(l.Key), l.Template, l.Source, strconv.FormatInt(l.N, 10), f3(l.RoundTripMS), f3(l.TotalMS),
			db, f3(l.GraphQLMS), f1(l.GraphQLPct)+" %", f3(l.OverheadMS), f3(l.ParseMS), f3(l.ValidateMS), f3(l.ExecuteMS), f3(l.DispatchMS), cov, stmts)...)
	}
	if slices.ContainsFunc(r.Layers, func(l Layer) bool { return l.RemoteCalls > 0 }) {
		t.Head = append(t.Head, "remote calls/req", "remote")
		t.Note += " Remote: the calls to the remote custom fields' service, within the GraphQL layer (their wall time, concurrent calls once)."
		for i, l := range r.Layers {
			t.Rows[i] = append(t.Rows[i], f1(l.RemoteCalls), f3(l.RemoteMS))
		}
	}
	s.Tables = append(s.Tables, t)
	ft := table{Title: "The slowest fields per template (Apollo tracing)", Long: true,
		Note: "The fields whose resolvers took the most time in all, per series and template: calls, total and slowest call, in ms.",
		Head: append(head, "template", "field", "returns", "path", "calls", "total", "slowest")}
	for _, l := range r.Layers {
		for _, f := range l.SlowestFields {
			ft.add(false, append(cells(l.Key), l.Template, f.Field, f.ReturnType, f.Path, strconv.FormatInt(f.Count, 10),
				f3(float64(f.TotalNS)/1e6), f3(float64(f.MaxNS)/1e6))...)
		}
	}
	if len(ft.Rows) > 0 {
		s.Tables = append(s.Tables, ft)
	}
	s.Charts = r.layerCharts()
	return s
}

func f3(x float64) string { return strconv.FormatFloat(x, 'f', 3, 64) }

// OverheadColor is the network, HTTP and serialisation in the layers'
// stacked bars: lighter than the database's grey.
var OverheadColor = color.RGBA{0xDD, 0xDD, 0xDD, 0xff}

// layerCharts draws the split as stacked bars per template and series:
// the database at the foot (grey), the GraphQL layer on it (the series'
// colour), the rest of the round trip on top (light grey).
func (r *Report) layerCharts() []plot.Chart {
	all := newLayout(r, r.Layers, func(l Layer) string { return l.Template }, func(l Layer) string { return l.Series })
	return splitCharts(all, func(l plot.Layout, idSuffix, titleSuffix string, _ int) plot.Chart {
		return plot.Chart{ID: chartID("layers", "split") + idSuffix, Title: "Where a request's time went" + titleSuffix,
			Caption: "Mean per request, in ms, stacked: the database (grey, as the server measured it), the GraphQL layer (the server's total less the database, in the series' colour) and the network, HTTP and serialisation outside the server (round trip − server total, light grey). A bar's height is the round trip.",
			Size:    l.Size()}
	}, func(c plot.Chart, l plot.Layout) (plot.Chart, error) {
		p := plot.New("template", "ms / request")
		db := &plot.Bars{Width: l.Slot() * 0.9, Color: plot.DatabaseColor}
		over := &plot.Bars{Width: l.Slot() * 0.9, Color: OverheadColor}
		for _, s := range l.Series {
			b := r.seriesBars(s, l.Slot()*0.9)
			for _, x := range r.Layers {
				at, ok := l.X(x.Template, x.Series)
				if x.Series != s || !ok {
					continue
				}
				base := 0.0
				if x.DatabaseMS != nil {
					db.Add(at, *x.DatabaseMS, 0, 0)
					db.Bottoms = append(db.Bottoms, 0)
					base = *x.DatabaseMS
				}
				b.Add(at, base+x.GraphQLMS, 0, 0)
				b.Bottoms = append(b.Bottoms, base)
				over.Add(at, base+x.GraphQLMS+x.OverheadMS, 0, 0)
				over.Bottoms = append(over.Bottoms, base+x.GraphQLMS)
			}
			c.Bars += len(b.Xs)
			p.Add(b)
			c.Legend = append(c.Legend, r.boxEntry(s))
		}
		if len(db.Xs) > 0 {
			p.Add(db)
			c.Legend = append(c.Legend, plot.Legend{Name: "database", Color: plot.HexColor(plot.DatabaseColor), Mark: "box"})
		}
		p.Add(over)
		c.Legend = append(c.Legend, plot.Legend{Name: "network + HTTP + serialisation", Color: plot.HexColor(OverheadColor), Mark: "box"})
		l.Axis(p)
		plot.Headroom(p, false)
		err := c.Render(p)
		return c, err
	})
}
