// Package report compares runs: it reads run files (package runfile),
// recomputes every figure from their interval lines, groups the runs into
// series (servers) and conditions (mode, scale factor, clients, pool,
// workload), and renders one report — a self-contained HTML page with
// charts, Markdown, CSV or JSON (Formats) — with a terminal summary and
// thresholds for CI gates. docs/report.md documents every metric and
// statistic.
//
// A report opens on its answer, for any set of series and templates: a
// headline read from a matrix of speed-ups over the reference series
// (Report.Headline, with its Caveats), correctness in one line
// (Report.Verdict) and a heat map of that matrix; then charts of at most
// 40 bars each, small multiples per template, and the tables. A run
// labelled role=ceiling (the load generator's ceiling) is drawn as a
// reference line, never compared. A caller adds what the run files alone
// do not say as sections of its own after the first screen
// (Options.Sections: paragraphs, tables, box plots).
//
//	runs, err := report.ReadRuns("naive.jsonl", "batch.jsonl") // or NewRun for a run file read elsewhere
//	rep, err := report.Build(runs, report.Options{Title: "naive vs batch"})
//	err = rep.Write(w, "html")
//	rep.Summary(os.Stderr)
//	violations := rep.Check(thresholds) // from ParseThresholds("wrong>0,regression>5%")
//
// ExampleBuild runs it on two real run files in testdata. `gqlbench report`
// is this with flags.
//
// The package holds the analysis (run.go, stats.go, metrics.go, compare.go,
// identity.go, matrix.go, headline.go, threshold.go, report.go's Build),
// the views that lay it out (page.go's sections and tables, view.go,
// overview.go, sections.go, pertemplate.go, and the charts: charts.go,
// bars.go, lines.go, heatmap.go, from the rows grouped in rows.go)
// and the formats (format.go, html.go, markdown.go, csv.go, text.go). The
// charts are drawn by report/plot, which knows no Report. It reads run
// files through package runfile alone: it must not import the packages
// that make them (drive, measure, experiment, the servers) nor the CLI.
package report
