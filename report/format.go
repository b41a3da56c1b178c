package report

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// Formats are the formats Write writes.
var Formats = []string{"html", "md", "csv", "json"}

// Write renders the report in a format: "html" (one self-contained page
// with inline SVG charts), "md" (Markdown tables), "csv" (one tidy table,
// a row per series, conditions and template) or "json" (the whole model).
// The same report always renders to the same bytes.
func (r *Report) Write(w io.Writer, format string) error {
	bw := bufio.NewWriter(w)
	var err error
	switch format {
	case "html":
		err = r.writeHTML(bw)
	case "md":
		err = r.writeMarkdown(bw)
	case "csv":
		err = r.writeCSV(bw)
	case "json":
		err = r.writeJSON(bw)
	default:
		return fmt.Errorf("unknown report format %q: want one of %s", format, strings.Join(Formats, ", "))
	}
	if err != nil {
		return err
	}
	return bw.Flush()
}

func (r *Report) writeJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}
