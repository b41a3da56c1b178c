package report

import (
	"fmt"
	"io"
	"strings"
)

// writeMarkdown writes the report's sections as Markdown (GitHub tables).
// Charts are named, not drawn: the HTML report has them.
func (r *Report) writeMarkdown(w io.Writer) error {
	ew := &errWriter{w: w}
	ew.printf("# %s\n", r.Title)
	for _, s := range r.sections() {
		ew.printf("\n## %s\n", s.Title)
		for _, a := range s.Alerts {
			ew.printf("\n> **⚠ %s**\n", mdText(a))
		}
		for _, p := range s.Paras {
			ew.printf("\n%s\n", mdText(p))
		}
		for _, t := range s.Tables {
			ew.printf("\n### %s\n", mdText(t.Title))
			if t.Note != "" {
				ew.printf("\n%s\n", mdText(t.Note))
			}
			ew.printf("\n|%s|\n|%s\n", mdRow(t.Head), strings.Repeat("---|", len(t.Head)))
			for _, row := range t.Rows {
				ew.printf("|%s|\n", mdRow(row))
			}
		}
		if len(s.Charts) > 0 {
			ew.printf("\nCharts (in the HTML report):\n\n")
			for _, c := range s.Charts {
				ew.printf("- %s\n", mdText(c.Title))
			}
		}
	}
	return ew.err
}

func mdRow(cells []string) string {
	out := make([]string, len(cells))
	for i, c := range cells {
		out[i] = " " + strings.ReplaceAll(mdText(c), "|", `\|`) + " "
	}
	return strings.Join(out, "|")
}

// mdText keeps text from starting Markdown constructs it does not mean.
func mdText(s string) string {
	return strings.NewReplacer("\n", " ", "<", "&lt;", ">", "&gt;", "*", `\*`, "_", `\_`).Replace(s)
}

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
