package cli

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gqlbench/gqlbench/exitcode"
	"github.com/gqlbench/gqlbench/report"
)

func init() {
	register("report", "compare run files: correctness, aTPt/aTPw/aTPm, QETt, t-tests, charts (html, md, csv, json); CI gates", runReport)
}

const reportSynopsis = `report RUN.jsonl... [-o report.html] [--format html|md|csv|json] [--baseline RUN.jsonl]... [--title T] [--fail-if SPEC]

Recomputes every figure from the run files (written by gqlbench load) and compares
them: runs are grouped into series by their server label (else variant, else the
target's host:port) and compared under equal conditions (mode, sf, clients, pool,
workload). See docs/report.md for every metric, the statistics and the CSV columns.
A run file named - is read from standard input, once: gqlbench load ... | gqlbench report -.
Engine files (gqlbench bench engine) render as the engine's table and charts; given
two or more (or --baseline OLD NEW), each later one is compared with the first,
benchstat-style: the change of the mean ns/op and Welch's t-test over the samples.

The format comes from --format, else from -o's extension (.html, .md, .csv, .json);
without -o, Markdown goes to stdout. A one-line-per-template summary goes to stderr.

--fail-if makes the command a CI gate, e.g. --fail-if 'wrong>0,errors>1%,p99>200ms,regression>5%':
  wrong>N[%]      more than N wrong answers (or N % of the requests) in a series
  errors>N[%]     more than N failed requests (or N %) in a series
  goodput<N       a run file's goodput below N correct answers per second
  pNN>DURATION    a template's latency quantile above DURATION (corrected latency where recorded, else QET)
  regression>X%   a throughput X % below the --baseline runs' and significant by Welch's t-test at 0.05
The report is written either way. Exit codes: 0 ok; 1 failure (a run file missing or
corrupt); 2 wrong usage; 3 a --fail-if threshold was crossed (each violation on stderr).`

func runReport(ctx context.Context, env Env, args []string) error {
	fs := newFlags(env, "report", reportSynopsis)
	out := fs.String("o", "", "write the report to `FILE` (default: Markdown on stdout)")
	format := fs.String("format", "", "html, md, csv or json (default: from -o's extension, else md)")
	title := fs.String("title", "", "the report's `TITLE`")
	failIf := fs.String("fail-if", "", "exit 3 when a threshold is crossed, e.g. `wrong>0,regression>5%`")
	quiet := fs.Bool("quiet", false, "no summary on stderr")
	var baseline stringList
	fs.Var(&baseline, "baseline", "a baseline run `FILE` to compare with (repeatable): regressions")
	flags, files := splitArgs(fs, args)
	if err := parse(fs, flags); err != nil {
		return err
	}
	if len(files) == 0 {
		return usagef("name the run files to report on (from gqlbench load)")
	}
	f, err := reportFormat(*format, *out)
	if err != nil {
		return err
	}
	if done, err := reportEngines(env, append(slices.Clone(baseline), files...), *out, f, *title, *failIf, *quiet); done {
		return err
	}
	var thresholds []report.Threshold
	if *failIf != "" {
		if thresholds, err = report.ParseThresholds(*failIf); err != nil {
			return usagef("--fail-if: %v", err)
		}
	}
	if err := stdinOnce(append(files, baseline...)...); err != nil {
		return err
	}
	rep, err := buildReport(env, files, baseline, *title)
	if err != nil {
		return err
	}
	if err := writeOut(env, *out, func(w io.Writer) error { return rep.Write(w, f) }); err != nil {
		return err
	}
	if !*quiet {
		rep.Summary(env.Stderr)
		if *out != "" {
			fmt.Fprintf(env.Stderr, "report: %s (%s)\n", *out, f)
		}
	}
	if violations := rep.Check(thresholds); len(violations) > 0 {
		for _, v := range violations {
			fmt.Fprintf(env.Stderr, "report: FAIL %s\n", v)
		}
		return exitcode.With(exitcode.Check, fmt.Errorf("%d threshold violation(s) (--fail-if %s)", len(violations), *failIf))
	}
	return nil
}

// buildReport reads the run files and the baseline's and computes the report.
func buildReport(env Env, files, baseline []string, title string) (*report.Report, error) {
	runs, err := loadRuns(env, files)
	if err != nil {
		return nil, err
	}
	var base []*report.Run
	if len(baseline) > 0 {
		if base, err = loadRuns(env, baseline); err != nil {
			return nil, fmt.Errorf("baseline: %w", err)
		}
	}
	return report.Build(runs, report.Options{Title: title, Baseline: base})
}

// loadRuns reads the run files named, - from standard input, in their order.
func loadRuns(env Env, names []string) ([]*report.Run, error) {
	runs := make([]*report.Run, 0, len(names))
	for _, name := range names {
		if name != stdinArg {
			rs, err := report.ReadRuns(name)
			if err != nil {
				return nil, err
			}
			runs = append(runs, rs...)
			continue
		}
		f, err := readRunFile(env, name)
		if err != nil {
			return nil, err
		}
		r, err := report.NewRun(stdinName, f)
		if err != nil {
			return nil, err
		}
		runs = append(runs, r)
	}
	return runs, nil
}

// reportFormat picks the format: --format, else -o's extension, else md.
func reportFormat(format, out string) (string, error) {
	if format != "" {
		if !slices.Contains(report.Formats, format) {
			return "", usagef("unknown --format %q: want %s", format, strings.Join(report.Formats, ", "))
		}
		return format, nil
	}
	if out == "" {
		return "md", nil
	}
	ext := strings.TrimPrefix(strings.ToLower(filepath.Ext(out)), ".")
	switch ext {
	case "htm":
		ext = "html"
	case "markdown":
		ext = "md"
	}
	if !slices.Contains(report.Formats, ext) {
		return "", usagef("cannot tell the format from %q: give --format %s", out, strings.Join(report.Formats, "|"))
	}
	return ext, nil
}
