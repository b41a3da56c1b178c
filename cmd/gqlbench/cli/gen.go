package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/gqlbench/gqlbench/dataset"
	"github.com/gqlbench/gqlbench/dbloc"
	"github.com/gqlbench/gqlbench/experiment"
	"github.com/gqlbench/gqlbench/internal/outfile"
	"github.com/gqlbench/gqlbench/store"
)

func init() {
	register("gen", "generate the LinGBM dataset into a database (--db) or a file (--format, -o)", runGen)
}

func runGen(ctx context.Context, env Env, args []string) error {
	fs := newFlags(env, "gen", "gen --sf N [--seed S] (--db URL | --format F -o PATH) [flags]")
	sf := experiment.Scale(1)
	fs.Var(&sf, "sf", "scale factor: the number of universities (positive integer)")
	seed := fs.Uint64("seed", 0, "random seed: the same seed gives the same data")
	db := fs.String("db", "", "target database: postgres://USER:PASS@HOST:PORT/DB, a keyword/value DSN ('host=H user=U password=P dbname=D') or sqlite:PATH")
	format := fs.String("format", "", "file format instead of a database: sql-postgres, sql-mysql, ntriples, csv (a directory)")
	out := fs.String("o", "", "output path for --format")
	metaPath := fs.String("meta", "", "also write the metadata JSON here (default for --format: PATH.meta.json)")
	values := fs.String("values", "", "also write the values directory LinGBM's dataset generator writes (<entity>.txt, title.txt, abstract.txt, interest.txt, statistics.csv; its byte layout) into this directory, for LinGBM's query generator")
	workers := fs.Int("workers", 0, "generator goroutines (0: one per CPU)")
	noIndexes := fs.Bool("no-indexes", false, "skip the indexes on foreign-key columns (LinGBM creates none)")
	noFKs := fs.Bool("no-foreign-keys", false, "skip the foreign-key constraints")
	trigram := fs.Bool("trigram", false, "also build pg_trgm GIN indexes on publication title and abstract, for substring search (PostgreSQL only; LinGBM creates none)")
	force := fs.Bool("force", false, "replace tables of the same names that gqlbench did not create")
	quiet := fs.Bool("quiet", false, "no progress on stderr")
	var wire wireFlags
	wire.register(fs)
	resetWrites := fs.Bool("reset-writes", false, "generate nothing: remove from --db every row the servers' write APIs made (ids from 10^15 up, the sandbox included), leaving the generated dataset")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *resetWrites {
		return runResetWrites(ctx, env, *db, *format)
	}
	opts := store.Options{NoIndexes: *noIndexes, NoForeignKeys: *noFKs, Trigram: *trigram}
	wo, err := wire.options(setFlags(fs), *db, *format)
	if err != nil {
		return err
	}
	opts.Wire = wo
	target, where, err := genTarget(*db, *format, *out, metaPath, opts, *force)
	if err != nil {
		return err
	}
	cfg := dataset.Config{Seed: *seed, Scale: int(sf)}
	lo := store.FillOptions{Workers: *workers}
	if !*quiet {
		lo.Progress = progressPrinter(env.Stderr)
	}
	start := time.Now()
	m, err := fillWithValues(ctx, env, target, cfg, lo, *values)
	if err != nil {
		return err
	}
	elapsed := time.Since(start)
	if *metaPath != "" {
		if err := writeFileAtomic(*metaPath, m.WriteJSON); err != nil {
			return err
		}
	}
	rows := m.TotalRows()
	fmt.Fprintf(env.Stderr, "gen: sf=%d seed=%d: %d rows into %s in %.2fs (%.0f rows/s)\n",
		cfg.Scale, cfg.Seed, rows, where, elapsed.Seconds(), float64(rows)/elapsed.Seconds())
	return nil
}

// genTarget is where gen writes the dataset, --db or --format with -o,
// and its name for the summary; for a file, *metaPath defaults to
// PATH.meta.json.
func genTarget(db, format, out string, metaPath *string, opts store.Options, force bool) (store.Target, string, error) {
	switch {
	case db != "" && format != "":
		return nil, "", usagef("give either --db or --format, not both")
	case db != "":
		loc, err := dbloc.Parse(db)
		if err != nil {
			return nil, "", usagef("--db: %v", err)
		}
		if err := opts.Check(loc.Kind()); err != nil {
			return nil, "", usagef("--trigram: %v", err)
		}
		return openTarget(loc, opts, force), loc.String(), nil
	case format != "":
		if out == "" {
			return nil, "", usagef("--format needs -o PATH")
		}
		t, err := store.NewFile(format, out, opts)
		if err != nil {
			return nil, "", usagef("%v", err)
		}
		if *metaPath == "" { // beside a file, never beside a device (/dev/null.meta.json)
			*metaPath, _ = outfile.Beside(strings.TrimSuffix(out, "/"), ".meta.json")
		}
		return t, out, nil
	}
	return nil, "", usagef("say where the dataset goes: --db postgres://... or --db sqlite:PATH, or --format F -o PATH")
}

// fillWithValues fills target with dataset cfg and, when valuesDir is
// not "", writes LinGBM's values layout there from the same batches.
func fillWithValues(ctx context.Context, env Env, target store.Target, cfg dataset.Config, lo store.FillOptions, valuesDir string) (*dataset.Meta, error) {
	if valuesDir == "" {
		return store.Fill(ctx, target, cfg, lo)
	}
	vw, err := store.NewValuesWriter(valuesDir)
	if err != nil {
		return nil, err
	}
	defer vw.Abort()
	lo.Observe = vw.Observe
	m, err := store.Fill(ctx, target, cfg, lo)
	if err != nil {
		return nil, err
	}
	if err := vw.Close(); err != nil {
		return m, err
	}
	if !vw.FitsInt32() {
		fmt.Fprintf(env.Stderr, "gen: warning: %s/publicationID.txt holds ids above 2^31-1 (sf > %d): LinGBM's query generator parses every values file as 32-bit ints and stops there; gqlbench's own `queries` has no such limit\n",
			strings.TrimSuffix(valuesDir, "/"), store.MaxInt32ValuesScale)
	}
	return m, nil
}

// runResetWrites is gen --reset-writes.
func runResetWrites(ctx context.Context, env Env, db, format string) error {
	switch {
	case format != "":
		return usagef("--reset-writes works on a database (--db), not on a file")
	case db == "":
		return usagef("--reset-writes needs --db URL: the database to remove the written rows from")
	}
	loc, err := dbloc.Parse(db)
	if err != nil {
		return usagef("--db: %v", err)
	}
	removed, err := store.ResetWrites(ctx, db)
	if err != nil {
		return err
	}
	var total int64
	var parts []string
	for _, t := range dataset.Tables {
		if n := removed[t.Name]; n > 0 {
			total += n
			parts = append(parts, fmt.Sprintf("%s %d", t.Name, n))
		}
	}
	detail := ""
	if len(parts) > 0 {
		detail = " (" + strings.Join(parts, ", ") + ")"
	}
	fmt.Fprintf(env.Stderr, "gen: removed %d written rows from %s%s; the generated dataset is as it was loaded\n", total, loc, detail)
	return nil
}

// openTarget is the target of a --db location.
func openTarget(loc dbloc.Location, o store.Options, force bool) store.Target {
	if loc.Kind() == dbloc.SQLite {
		return &store.SQLiteTarget{Path: loc.SQLitePath(), Options: o, Force: force}
	}
	return &store.PostgresTarget{URL: loc.ConnString(), Options: o, Force: force}
}

// progressPrinter shows a load's progress on w: one updating line on a
// terminal, a line every few seconds otherwise.
func progressPrinter(w io.Writer) func(store.Progress) {
	tty := false
	if f, ok := w.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			tty = true
		}
	}
	var last time.Duration
	return func(p store.Progress) {
		every := 5 * time.Second
		if tty {
			every = 200 * time.Millisecond
		}
		if p.Phase == "data" && p.Elapsed-last < every && p.Units != p.TotalUnits {
			return
		}
		last = p.Elapsed
		line := fmt.Sprintf("gen: %s %d/%d units, %d rows, %.2fs", p.Phase, p.Units, p.TotalUnits, p.Rows, p.Elapsed.Seconds())
		if tty {
			fmt.Fprintf(w, "\r\033[K%s", line)
			if p.Phase == "done" {
				fmt.Fprintln(w)
			}
		} else if p.Phase != "done" {
			fmt.Fprintln(w, line)
		}
	}
}

// writeFileAtomic writes an output file whole (outfile.WriteFile): a
// regular file through a temporary file renamed into place, a device or a
// pipe straight.
func writeFileAtomic(path string, write func(io.Writer) error) error {
	return outfile.WriteFile(path, 0o644, write)
}

// writeFileMode is writeFileAtomic with permissions mode from the first
// byte: a secret file is never readable by others, not even for a moment.
func writeFileMode(path string, mode os.FileMode, write func(io.Writer) error) error {
	return outfile.WriteFile(path, mode, write)
}

func dirOf(path string) string {
	if i := strings.LastIndex(path, "/"); i >= 0 {
		return path[:i+1]
	}
	return "."
}
