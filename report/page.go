package report

import (
	"strings"

	"github.com/gqlbench/gqlbench/report/plot"
)

// table is a table of formatted cells, shared by the HTML and Markdown
// renderers.
type table struct {
	Title string
	Note  string
	Head  []string
	Rows  [][]string
	Flag  []bool // the row is a series with wrong answers
	Long  bool   // folded away in HTML (a detail most readers skip)
	Text  []bool // per column: words, aligned left (set when rendered)
}

func (t *table) add(flag bool, cells ...string) {
	t.Rows = append(t.Rows, cells)
	t.Flag = append(t.Flag, flag)
}

// section is one part of a report.
type section struct {
	ID     string
	Title  string
	Paras  []string
	Alerts []string // shown prominently
	Tables []table
	Charts []plot.Chart
	Links  []link    // a table of contents of its subsections
	Subs   []section // subsections, after its charts and tables
	// The overview's parts: the answer first, then correctness, then the
	// chart; cautions and notes after it.
	Lead       []string
	Caveats    []string // under the lead, smaller
	Verdict    string
	VerdictBad bool
	Cautions   []string
	Notes      []string
}

// link is a link to an anchor in the page.
type link struct{ ID, Text string }

// keyCols are the key columns of a table: the series, and the conditions
// that vary between runs.
func (r *Report) keyCols(withWorkload bool) (head []string, cells func(Key) []string) {
	show := map[string]bool{}
	for _, v := range r.Varying {
		show[v] = v != "workload" || withWorkload && !r.oneTemplate
	}
	head = []string{"series"}
	for _, c := range keyColumns {
		if show[c.name] {
			head = append(head, c.name)
		}
	}
	return head, func(k Key) []string {
		out := []string{r.seriesCell(k.Series)}
		for _, c := range keyColumns {
			if show[c.name] {
				out = append(out, c.get(k))
			}
		}
		return out
	}
}

// seriesCell is a series' name, marked when it gave wrong answers.
func (r *Report) seriesCell(s string) string {
	if r.flagged(s) {
		return s + " ✗"
	}
	return s
}

func (r *Report) chartsWith(prefixes ...string) []plot.Chart {
	var out []plot.Chart
	for _, c := range r.charts {
		for _, p := range prefixes {
			if strings.HasPrefix(c.ID, p+"-") || c.ID == p {
				out = append(out, c)
				break
			}
		}
	}
	return out
}
