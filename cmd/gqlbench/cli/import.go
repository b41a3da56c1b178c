package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gqlbench/gqlbench/internal/outfile"
	"github.com/gqlbench/gqlbench/interop"
	"github.com/gqlbench/gqlbench/queryfile"
	"github.com/gqlbench/gqlbench/runfile"
)

func init() {
	register("import", "read another load tool's results into a run file: import jmeter results.jtl | k6 results.csv | locust samples.csv (docs/interop.md)", runImport)
}

const importSynopsis = `import jmeter|k6|locust RESULTS... -o run.jsonl [--queries FILE] [--target URL] [--rate R] [--stats FILE] [--partial]

Reads the results of a test that gqlbench export wrote — JMeter's CSV JTL
(-l FILE), k6's CSV output (--out csv=FILE), or the locustfile's samples file
(--gqlbench-samples) — and writes a run file: one run of one-second
intervals with HDR histograms of the tool's own per-request times, counted as
the exported checks said (right, wrong answer, or an error of a kind), and the
summary. gqlbench report reads it like any run file. --queries names the
queries file exported (its hash and templates go into the header); --rate
marks an arrival-rate run; --stats checks the samples against Locust's
PREFIX_stats.csv. A results file cut short is an error; --partial imports its
complete rows. An unknown JTL column is an error. Several results files (the
runners of one distributed test, e.g. k6-operator's, each writing its own)
make one run: their samples together on the wall clock, their users added.`

func runImport(ctx context.Context, env Env, args []string) error {
	fs := newFlags(env, "import", importSynopsis)
	out := fs.String("o", "", "the run `FILE` to write (default: stdout)")
	queries := fs.String("queries", "", "the queries `FILE` that was exported (optional)")
	target := fs.String("target", "", "the endpoint `URL` the tool drove, when its results do not say")
	rate := fs.Float64("rate", 0, "the arrival rate of an arrival-rate export, requests/s")
	stats := fs.String("stats", "", "locust: Locust's `PREFIX_stats.csv`, whose counts the samples must equal")
	partial := fs.Bool("partial", false, "import the complete rows of a results file cut short")
	var labels stringList
	fs.Var(&labels, "label", "a run label `KEY=VALUE` (repeatable), e.g. server=batch: the report's series name")
	flags, pos := splitArgs(fs, args)
	if err := parse(fs, flags); err != nil {
		return err
	}
	if len(pos) < 2 {
		return usagef("say which tool and which results: gqlbench import jmeter|k6|locust RESULTS... -o run.jsonl")
	}
	tool, paths := pos[0], pos[1:]
	if tool != "jmeter" && tool != "k6" && tool != "locust" {
		return usagef("unknown tool %q: jmeter, k6 or locust", tool)
	}
	if *stats != "" && tool != "locust" {
		return usagef("--stats is Locust's statistics file")
	}
	lm := map[string]string{}
	for _, kv := range labels {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return usagef("--label %q: want KEY=VALUE", kv)
		}
		lm[k] = v
	}
	src := interop.Source{Labels: lm, Tool: tool, File: strings.Join(paths, " "), Target: *target, Rate: *rate,
		Command: append([]string{"gqlbench", "import"}, args...)}
	if *queries != "" {
		q, err := queryfile.ReadFile(*queries)
		if err != nil {
			return err
		}
		src.Queries = q
	}
	var samples []interop.Sample
	for _, path := range paths {
		got, url, err := importFile(tool, path, *partial)
		if err != nil {
			return err
		}
		if src.Target == "" {
			src.Target = url
		}
		users := 0
		for _, s := range got {
			users = max(users, s.Users)
		}
		src.Users += users
		samples = append(samples, got...)
	}
	if *stats != "" {
		sf, err := os.Open(*stats)
		if err != nil {
			return fmt.Errorf("cannot read Locust's statistics: %w", err)
		}
		defer sf.Close()
		if err := interop.CheckLocustStats(*stats, sf, samples); err != nil {
			return err
		}
	}
	run, err := interop.RunFile(src, samples)
	if err != nil {
		return err
	}
	path := *out
	if path == "" {
		path = "-"
	}
	if err := outfile.WriteFile(path, 0o644, func(w io.Writer) error { return runfile.WriteFile(w, run) }); err != nil {
		return err
	}
	t := run.Summary.Total
	fmt.Fprintf(env.Stderr, "import: %d requests from %s (%d right, %d wrong answers, %d errors) in %d intervals\n",
		t.Count, tool, t.OK, t.Wrong, t.Errors, len(run.Intervals))
	return nil
}

// importFile reads one results file of tool into samples, and the
// endpoint when the file names it.
func importFile(tool, path string, partial bool) ([]interop.Sample, string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, "", fmt.Errorf("cannot read the results: %w", err)
	}
	defer f.Close()
	switch tool {
	case "jmeter":
		return interop.ReadJTL(path, f, partial)
	case "k6":
		s, err := interop.ReadK6CSV(path, f, partial)
		return s, "", err
	default:
		s, err := interop.ReadLocust(path, f, partial)
		return s, "", err
	}
}
