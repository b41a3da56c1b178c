package report

import (
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/gqlbench/gqlbench/runfile"
)

// identity is what changes a measurement beyond the series' label and the
// conditions of Key: the API aimed at (host and path; the port aside, as
// servers restarted between runs take new ones), the HTTP method,
// persisted queries, values written as literals or sent as variables, how
// the answers were checked and the dialects of the queries. Two runs of
// one label whose identities differ are two series, never pooled; their
// names say how they differ (see disambiguate).
type identity struct {
	target, method, apq, values, check, dialect string
}

// identityOf reads a run's identity from its header.
func identityOf(h *runfile.Header) identity {
	id := identity{method: "POST", apq: "no APQ", values: "variables", check: h.Params.Check, dialect: "benchmark schema"}
	if u, err := url.Parse(h.Target); err == nil && u.Host != "" {
		id.target = u.Hostname() + u.Path
	} else {
		id.target = h.Target
	}
	if m := strings.ToUpper(h.Params.Method); m != "" {
		id.method = m
	}
	if h.Params.APQ {
		id.apq = "APQ"
	}
	if h.Queries.Literal {
		id.values = "literals"
	}
	if id.check == "" && h.Queries.Expect > 0 {
		id.check = "expect"
	}
	if len(h.Queries.Dialects) > 0 {
		id.dialect = "dialect " + strings.Join(h.Queries.Dialects, "+")
	}
	return id
}

// fields lists the identity's parts, each with how a series name shows it.
func (id identity) fields() []string {
	return []string{id.target, id.method, id.apq, id.values, "check " + id.check, id.dialect}
}

// disambiguate names each run's series: its label (Run.base), followed,
// when runs of that label differ in identity, by the parts in which they
// differ, e.g. "yoga (GET)" and "yoga (POST)".
func disambiguate(runs []*Run) {
	byName := map[string][]*Run{}
	var names []string
	for _, run := range runs {
		if byName[run.base] == nil {
			names = append(names, run.base)
		}
		byName[run.base] = append(byName[run.base], run)
	}
	for _, name := range names {
		group := byName[name]
		var differ []int // the parts in which some runs differ
		first := group[0].ident.fields()
		for i := range first {
			for _, run := range group[1:] {
				if run.ident.fields()[i] != first[i] {
					differ = append(differ, i)
					break
				}
			}
		}
		for _, run := range group {
			run.key.Series = name
			if len(differ) == 0 {
				continue
			}
			f := run.ident.fields()
			var parts []string
			for _, i := range differ {
				parts = append(parts, f[i])
			}
			run.key.Series = insertBeforeMark(name, " ("+strings.Join(parts, ", ")+")")
		}
	}
}

// insertBeforeMark adds s to a series name, before its uncheckedMark if it
// has one (the mark stays last).
func insertBeforeMark(name, s string) string {
	if base, ok := strings.CutSuffix(name, uncheckedMark); ok {
		return base + s + uncheckedMark
	}
	return name + s
}

// checkWords says how a run's answers were checked, in a user's terms; ""
// when the run file does not say.
func checkWords(h *runfile.Header) string {
	p := h.Params
	var s string
	switch identityOf(h).check {
	case "golden":
		s = "compared field by field with the expected answers recorded from a server you trust (gqlbench record)"
	case "reference":
		s = "compared with a reference server's answers"
		if p.Reference != "" {
			s += " (" + p.Reference + ")"
		}
	case "expect":
		s = "compared with the expected answers' hashes in the queries file"
		if h.Queries.Dataset != nil {
			s = "compared with the benchmark's expected answers, computed from its generated dataset"
		}
	case "status":
		return "not checked: status only (HTTP 200, no GraphQL errors, data present)"
	default:
		return "" // not recorded (a run file of an older gqlbench)
	}
	if p.VerifySample > 0 && p.VerifySample < 1 {
		s += fmt.Sprintf(" (the data of %s of the responses, the status of all)", pctCell(100*p.VerifySample))
	}
	if len(p.Ignore) > 0 {
		s += ", leaving out " + strings.Join(p.Ignore, ", ")
	}
	return s
}

// checksSentence says, per series, how the answers were checked: one
// clause per way, naming the series checked that way.
func (r *Report) checksSentence() string {
	byWay := map[string][]string{}
	var ways []string
	for _, s := range r.Series {
		for _, w := range s.Checks {
			if byWay[w] == nil {
				ways = append(ways, w)
			}
			if !slices.Contains(byWay[w], s.Name) {
				byWay[w] = append(byWay[w], s.Name)
			}
		}
	}
	if len(ways) == 0 {
		return ""
	}
	if len(ways) == 1 {
		return "How the answers were checked: " + ways[0] + "."
	}
	var parts []string
	for _, w := range ways {
		parts = append(parts, strings.ReplaceAll(joinAnd(byWay[w]), uncheckedMark, "")+" — "+w)
	}
	return "How the answers were checked: " + strings.Join(parts, "; ") + "."
}
