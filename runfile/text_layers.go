package runfile

import (
	"fmt"
	"io"

	"github.com/gqlbench/gqlbench/measure/layers"
)

// writeLayers writes the summary's layers and profiles (load --layers,
// --profile): per template the split of a request's time, and each
// profile's file and first functions.
func writeLayers(w io.Writer, s *Summary) {
	if l := s.Layers; l != nil {
		if l.Source == layers.None.String() {
			fmt.Fprintf(w, "  %s\n", layers.NoneLine)
		} else {
			fmt.Fprintf(w, "  layers (%s), mean ms per request: round trip = server total (database + GraphQL layer) + network/HTTP/serialisation\n", l.Source)
			for _, t := range l.Templates {
				if t.N == 0 {
					continue
				}
				db := "  –  "
				if v, ok := t.Database(); ok {
					db = fmt.Sprintf("%.3f", v/1e6)
				}
				pct := 0.0
				if tot := t.Mean(t.TotalNS); tot > 0 {
					pct = 100 * t.GraphQL() / tot
				}
				n := fmt.Sprint(t.N)
				if t.Without > 0 { // a sample (serve --trace-every): of all the responses
					n += fmt.Sprintf(" of %d", t.N+t.Without)
				}
				fmt.Fprintf(w, "    %-10s n=%-6s %.3f = %.3f (%s + %.3f, GraphQL %.1f %%) + %.3f\n", t.Template, n,
					t.Mean(t.RoundTripNS)/1e6, t.Mean(t.TotalNS)/1e6, db, t.GraphQL()/1e6, pct, t.Overhead()/1e6)
			}
		}
	}
	if p := s.Profiles; p != nil {
		for _, x := range []*Profile{p.CPU, p.Heap} {
			if x == nil {
				continue
			}
			fmt.Fprintf(w, "  profile %s (%s, %.1f s)", x.File, x.Sample, x.Seconds)
			for i, f := range x.Flat {
				if i == 3 {
					break
				}
				fmt.Fprintf(w, "; %s %.1f %%", f.Function, f.FlatPct)
			}
			fmt.Fprintln(w)
		}
		if p.Error != "" {
			fmt.Fprintf(w, "  profiles: %s\n", p.Error)
		}
	}
}
