package report

import (
	"fmt"
	"io"
	"regexp"
	"strings"
)

// writeMarkdown writes the report as Markdown (GitHub tables) in the
// page's order: the headline and the correctness verdict, the comparison
// matrix, then the details section by section. Charts are named, not
// drawn: the HTML report has them.
func (r *Report) writeMarkdown(w io.Writer) error {
	ew := &errWriter{w: w}
	ew.printf("# %s\n", r.Title)
	for _, s := range r.sections() {
		if s.ID == "overview" {
			r.mdOverview(ew, s)
			continue
		}
		ew.printf("\n## %s\n", s.Title)
		mdBody(ew, s)
	}
	return ew.err
}

// mdOverview writes the overview: headline, verdict, alerts, matrices,
// cautions and notes.
func (r *Report) mdOverview(ew *errWriter, s section) {
	for i, l := range s.Lead {
		if i == 0 {
			ew.printf("\n**%s**\n", mdText(l))
			continue
		}
		ew.printf("\n%s\n", mdText(l))
	}
	if len(s.Caveats) > 0 {
		ew.printf("\n%s\n", mdText(strings.Join(s.Caveats, " ")))
	}
	if s.Verdict != "" {
		mark := "✓"
		if s.VerdictBad {
			mark = "✗"
		}
		ew.printf("\n%s %s\n", mark, mdText(s.Verdict))
	}
	for _, a := range s.Alerts {
		ew.printf("\n> **⚠ %s**\n", mdText(a))
	}
	for _, m := range r.comparing() {
		r.mdMatrix(ew, m)
	}
	for _, a := range s.Cautions {
		ew.printf("\n> **⚠ %s**\n", mdText(a))
	}
	for _, p := range append(s.Paras, s.Notes...) {
		ew.printf("\n%s\n", mdText(p))
	}
	for _, t := range s.Tables {
		mdTable(ew, t)
	}
}

// mdMatrix writes a matrix as a table: a row per template or workload, a
// column per series, the reference's figures and the others' speed-ups,
// the winner (significantly the fastest) in bold.
func (r *Report) mdMatrix(ew *errWriter, m matrix) {
	ew.printf("\n### Speed-up over %s (%s)\n", mdText(m.reference), mdText(condLabel(m.cond)))
	head := []string{"template"}
	for _, s := range m.series {
		if s == m.reference {
			s += " (" + map[string]string{metricThroughput: "queries/s", metricQET: "mean QET"}[m.metric] + ")"
		}
		head = append(head, r.seriesCell(s))
	}
	ew.printf("\n|%s|\n|%s\n", mdRow(head), strings.Repeat("---|", len(head)))
	for _, row := range m.rows {
		cells := []string{" " + mdText(row.label) + " "}
		for i, c := range row.cells {
			text := "–"
			switch {
			case !c.ok:
			case m.series[i] == m.reference || c.speedup == 0:
				text = figureCell(m, c)
			case c.flagged:
				text = "✗ " + timesCell(c.speedup)
			default:
				text = timesCell(c.speedup)
			}
			if c.ok && c.same {
				text = "≈" + text
			}
			if c.limited {
				text += "*"
			}
			text = strings.ReplaceAll(mdText(text), "|", `\|`)
			if i == row.best && row.clear {
				text = "**" + text + "**"
			}
			cells = append(cells, " "+text+" ")
		}
		ew.printf("|%s|\n", strings.Join(cells, "|"))
	}
	ew.printf("\n%s\n", mdText(r.heatmapCaption(m)))
}

// mdBody writes a section's alerts, paragraphs, tables, charts' names and
// subsections.
func mdBody(ew *errWriter, s section) {
	for _, a := range append(s.Alerts, s.Cautions...) {
		ew.printf("\n> **⚠ %s**\n", mdText(a))
	}
	for _, p := range append(s.Paras, s.Notes...) {
		ew.printf("\n%s\n", mdText(p))
	}
	for _, t := range s.Tables {
		mdTable(ew, t)
	}
	if len(s.Charts) > 0 {
		ew.printf("\nCharts (in the HTML report):\n\n")
		for _, c := range s.Charts {
			ew.printf("- %s\n", mdText(c.Title))
		}
	}
	if len(s.Subs) > 0 {
		ew.printf("\n")
	}
	for _, sub := range s.Subs {
		ew.printf("- **%s**: %s\n", mdText(sub.Title), mdText(strings.Join(sub.Paras, " ")))
	}
}

// mdTable writes a table with its title and note.
func mdTable(ew *errWriter, t table) {
	ew.printf("\n### %s\n", mdText(t.Title))
	if t.Note != "" {
		ew.printf("\n%s\n", mdText(t.Note))
	}
	ew.printf("\n|%s|\n|%s\n", mdRow(t.Head), strings.Repeat("---|", len(t.Head)))
	for _, row := range t.Rows {
		ew.printf("|%s|\n", mdRow(row))
	}
}

func mdRow(cells []string) string {
	out := make([]string, len(cells))
	for i, c := range cells {
		out[i] = " " + strings.ReplaceAll(mdText(c), "|", `\|`) + " "
	}
	return strings.Join(out, "|")
}

// mdText keeps text from starting Markdown constructs it does not mean:
// emphasis, and a < that could open an HTML tag (a letter, /, ! or ?
// after it) — "p < 0.001" stays as written, readable in the raw file.
func mdText(s string) string {
	s = strings.NewReplacer("\n", " ", "*", `\*`, "_", `\_`).Replace(s)
	return tagStart.ReplaceAllString(s, "&lt;$1")
}

// tagStart is a < that CommonMark could read as the start of HTML.
var tagStart = regexp.MustCompile(`<([A-Za-z/!?])`)

// errWriter keeps the first write error.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) printf(format string, a ...any) {
	if e.err == nil {
		_, e.err = fmt.Fprintf(e.w, format, a...)
	}
}
