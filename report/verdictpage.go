package report

import (
	"bufio"
	"fmt"
	"io"
)

// VerdictPage is a page of a caller's verdict and sections, without run
// files: gqlbench suite's table of pass/fail lines over its parts' own
// reports. The verdict opens it, then the sections' paragraphs and tables
// (their box plots and line charts are not drawn), in HTML, as the
// reports' pages look, or Markdown. Its JSON is the caller's own model.
type VerdictPage struct {
	Title   string
	Lead    []string // the answer, first of all (the first line in bold)
	Verdict string
	Bad     bool // the verdict is a failure
	// Sections follow the verdict; a Table's Flagged rows are marked as
	// failures.
	Sections []Section
}

// Write renders the page as "html" or "md".
func (p VerdictPage) Write(w io.Writer, format string) error {
	secs := []section{{ID: "overview", Title: p.Title, Lead: p.Lead, Verdict: p.Verdict, VerdictBad: p.Bad}}
	for _, s := range p.Sections {
		v := section{ID: s.ID, Title: s.Title, Paras: s.Paras}
		for _, t := range s.Tables {
			v.Tables = append(v.Tables, tableOf(t))
		}
		secs = append(secs, v)
	}
	bw := bufio.NewWriter(w)
	var err error
	switch format {
	case "html":
		var views []sectionView
		for _, s := range secs {
			views = append(views, viewOf(s))
		}
		err = pageTemplate.Execute(bw, struct {
			Title    string
			Sections []sectionView
		}{p.Title, views})
	case "md":
		ew := &errWriter{w: bw}
		ew.printf("# %s\n", p.Title)
		for i, l := range p.Lead {
			if i == 0 {
				l = "**" + mdText(l) + "**"
			} else {
				l = mdText(l)
			}
			ew.printf("\n%s\n", l)
		}
		if p.Verdict != "" {
			mark := "✓"
			if p.Bad {
				mark = "✗"
			}
			ew.printf("\n%s %s\n", mark, mdText(p.Verdict))
		}
		for _, s := range secs[1:] {
			ew.printf("\n## %s\n", s.Title)
			mdBody(ew, s)
		}
		err = ew.err
	default:
		return fmt.Errorf("a verdict page is written as html or md, not %q", format)
	}
	if err != nil {
		return err
	}
	return bw.Flush()
}

// tableOf is a caller's Table as the renderers take it.
func tableOf(t Table) table {
	vt := table{Title: t.Title, Note: t.Note, Head: t.Head}
	for i, row := range t.Rows {
		vt.add(i < len(t.Flagged) && t.Flagged[i], row...)
	}
	return vt
}
