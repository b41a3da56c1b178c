package experiment

import (
	"io"
	"path/filepath"

	"github.com/gqlbench/gqlbench/internal/outfile"
	"github.com/gqlbench/gqlbench/report"
)

// writeReport writes Dir/report.html, .md and .json over every run file
// written, and the report's summary table to Out.
func (s *session) writeReport() error {
	runs, err := report.ReadRuns(s.res.Runs...)
	if err != nil {
		return err
	}
	rep, err := report.Build(runs, report.Options{Title: "gqlbench " + s.name, Config: s.config, Notes: s.notes, Sections: s.sections})
	if err != nil {
		return err
	}
	for _, f := range []struct {
		format string
		path   *string
	}{{"html", &s.res.HTML}, {"md", &s.res.MD}, {"json", &s.res.JSON}} {
		path := filepath.Join(s.Dir, "report."+f.format)
		if err := writeFile(path, func(w io.Writer) error { return rep.Write(w, f.format) }); err != nil {
			return err
		}
		*f.path = path
	}
	for _, format := range s.formats {
		if format == "json" { // written above, as for every experiment
			s.res.Extra = append(s.res.Extra, s.res.JSON)
			continue
		}
		path := filepath.Join(s.Dir, "report."+format)
		if err := writeFile(path, func(w io.Writer) error { return rep.Write(w, format) }); err != nil {
			return err
		}
		s.res.Extra = append(s.res.Extra, path)
	}
	rep.Summary(s.Out)
	return nil
}

// writeFile writes path whole or not at all (outfile.WriteFile: a device
// or a pipe written straight, never replaced).
func writeFile(path string, write func(io.Writer) error) error {
	return outfile.WriteFile(path, 0o644, write)
}

// writeBytes writes b to path through writeFile.
func writeBytes(path string, b []byte) error {
	return writeFile(path, func(w io.Writer) error { _, err := w.Write(b); return err })
}
