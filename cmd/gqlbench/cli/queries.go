package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/gqlbench/gqlbench/benchdb"
	"github.com/gqlbench/gqlbench/dataset"
	"github.com/gqlbench/gqlbench/dbloc"
	"github.com/gqlbench/gqlbench/dialect"
	"github.com/gqlbench/gqlbench/internal/outfile"
	"github.com/gqlbench/gqlbench/queryfile"
	"github.com/gqlbench/gqlbench/server/inmem"
	"github.com/gqlbench/gqlbench/workload"
)

func init() {
	register("queries", "instantiate the 16 query templates from a dataset's metadata (JSON lines; --count; LinGBM files), or make a queries file of your own operations (--ops)", runQueries)
}

const queriesSynopsis = `queries (--meta FILE | --db URL) --per-template N [--templates 1,5,9] [--seed S] [--mix all|1:2,5:1] [--expect] [--dialect NAME | --lingbm-out DIR] [-o FILE]
       gqlbench queries (--meta FILE | --db URL) --count [--templates 1,5,9]
       gqlbench queries --import-lingbm DIR [--expect (--meta FILE | --db URL)] [--dialect NAME] [-o FILE]

Writes query instances as JSON lines {"id","template","query","variables"} to -o
(default stdout; with --lingbm-out and no -o, only the LinGBM files are written).
Instances are drawn uniformly without repetition from the metadata's values; a
template with fewer possible instances than asked gives all of them. --mix makes
one shuffled mixed workload with weight·N instances of each template it names.
--expect adds "expect": the hash of each instance's right answer (verify.Hash of
its data), computed in-process by the inmem oracle over the dataset of the
metadata's seed and scale factor (never read from the database).
--dialect writes the instances in a server's own schema (postgraphile: its
templates, docs/dialects.md) with the benchmark's expected answers: the load
maps each answer back to the benchmark's form before checking it.
--import-lingbm reads the query files of LinGBM's query generator (run on the
values directory of gqlbench gen --values); with --expect and the dataset's
metadata, every imported instance carries its right answer for the load to check.`

type queriesFlags struct {
	meta, db, templates, mix, lingbmOut, importDir, out, dialect string
	per                                                          int
	seed                                                         uint64
	count, expect                                                bool
	set                                                          map[string]bool
}

func runQueries(ctx context.Context, env Env, args []string) error {
	fs := newFlags(env, "queries", queriesSynopsis+opsSynopsis)
	var f queriesFlags
	fs.StringVar(&f.meta, "meta", "", "the metadata JSON `FILE` written by gqlbench gen (PATH.meta.json, or its --meta)")
	fs.StringVar(&f.db, "db", "", "read the metadata stored with a dataset at `URL`: postgres://..., a keyword/value DSN or sqlite:PATH")
	fs.Var((*positiveInt)(&f.per), "per-template", "`N` instances per template (per unit of weight with --mix); positive")
	fs.StringVar(&f.templates, "templates", "", "comma-separated `LIST` of templates (default all 16), e.g. 1,5,9 or QT1,QT5")
	fs.Uint64Var(&f.seed, "seed", 0, "random `SEED`: the same seed and metadata give the same instances")
	fs.StringVar(&f.mix, "mix", "", "a shuffled mixed workload `MIX`: all (every template, equal weight) or TEMPLATE:WEIGHT,... e.g. 1:2,5:1")
	fs.StringVar(&f.lingbmOut, "lingbm-out", "", "also write LinGBM's query files: `DIR`/actualQueries/QT<n>/query<i>.graphql")
	fs.StringVar(&f.importDir, "import-lingbm", "", "read LinGBM query files (`DIR`/actualQueries/QT<n>/query<i>.graphql) instead of generating")
	fs.BoolVar(&f.expect, "expect", false, "add \"expect\": the hash of every instance's right answer, from the in-memory oracle (generates the dataset in memory)")
	fs.BoolVar(&f.count, "count", false, "print the number of possible instances per template (with LinGBM's Table 4 figures)")
	fs.StringVar(&f.out, "o", "", "output `FILE` for the JSON lines (default: stdout)")
	fs.StringVar(&f.dialect, "dialect", "", "write the instances in the schema of `NAME`, a server that generates its own API ("+strings.Join(dialect.Names(), ", ")+"), with the benchmark's expected answers")
	var ops opsFlags
	ops.register(fs)
	if err := parse(fs, args); err != nil {
		return err
	}
	f.set = map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { f.set[fl.Name] = true })
	if outfile.IsStdout(f.out) {
		f.out = ""
	}
	if f.lingbmOut != "" {
		if err := outfile.CheckDir(f.lingbmOut); err != nil {
			return usagef("--lingbm-out: %v", err)
		}
	}
	if ops.chosen(f.set) {
		return runOps(ctx, env, f, ops)
	}
	switch {
	case f.importDir != "":
		if err := f.only("import-lingbm", "o", "expect", "meta", "db", "dialect"); err != nil {
			return err
		}
		if (f.meta != "" || f.db != "") && !f.expect {
			return usagef("--import-lingbm reads the values from the files: --meta or --db only serve --expect")
		}
		if f.expect && f.meta == "" && f.db == "" {
			return usagef("--expect needs the dataset the files were made for: --meta FILE (written by `gqlbench gen`) or --db URL")
		}
		if f.dialect != "" {
			if _, err := dialect.Lookup(f.dialect); err != nil {
				return usagef("--dialect: %v", err)
			}
		}
		return importLinGBM(ctx, env, f)
	case f.count:
		if err := f.only("count", "meta", "db", "templates"); err != nil {
			return err
		}
	default:
		if !f.set["per-template"] {
			return usagef("say how many instances: --per-template N (or --count, or --import-lingbm DIR)")
		}
		if f.mix != "" && f.templates != "" {
			return usagef("give either --templates or --mix (which names its templates), not both")
		}
		if f.dialect != "" && f.lingbmOut != "" {
			return usagef("--lingbm-out writes the benchmark schema's queries, not a dialect's: give one of --dialect and --lingbm-out")
		}
		if f.dialect != "" {
			if _, err := dialect.Lookup(f.dialect); err != nil {
				return usagef("--dialect: %v", err)
			}
		}
	}
	ids, err := templateList(f.templates)
	if err != nil {
		return err
	}
	var weights map[int]int
	if f.mix != "" {
		if weights, err = workload.ParseMix(f.mix); err != nil {
			return usagef("%v", err)
		}
	}
	meta, err := readQueriesMeta(ctx, f.meta, f.db)
	if err != nil {
		return err
	}
	if f.count {
		return printCounts(env.Stdout, meta, ids)
	}
	return generateQueries(ctx, env, meta, f, ids, weights)
}

// positiveInt is a flag that takes a positive integer.
type positiveInt int

func (p *positiveInt) String() string { return strconv.Itoa(int(*p)) }
func (p *positiveInt) Set(v string) error {
	n, err := strconv.Atoi(v)
	if err != nil || n <= 0 {
		return fmt.Errorf("want a positive integer, got %q", v)
	}
	*p = positiveInt(n)
	return nil
}

// only reports a usage error when a flag other than allowed was given.
func (f queriesFlags) only(allowed ...string) error {
	ok := map[string]bool{}
	for _, a := range allowed {
		ok[a] = true
	}
	for name := range f.set {
		if !ok[name] {
			return usagef("--%s cannot be combined with --%s", name, allowed[0])
		}
	}
	return nil
}

// templateList parses --templates: nil for all.
func templateList(s string) ([]int, error) {
	ids, err := workload.ParseTemplateList(s)
	if err != nil {
		return nil, usagef("--templates: %v", err)
	}
	return ids, nil
}

// readQueriesMeta reads the metadata from a file or from a dataset's database.
func readQueriesMeta(ctx context.Context, path, db string) (*dataset.Meta, error) {
	switch {
	case path != "" && db != "":
		return nil, usagef("give either --meta or --db, not both")
	case path != "":
		file, err := os.Open(path)
		if err != nil {
			return nil, fmt.Errorf("cannot read the metadata: %w", err)
		}
		defer file.Close()
		m, err := dataset.ReadMeta(file)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		return m, nil
	case db != "":
		loc, err := dbloc.Parse(db)
		if err != nil {
			return nil, usagef("--db: %v", err)
		}
		m, err := benchdb.ReadMeta(ctx, loc.ConnString())
		if err != nil {
			return nil, fmt.Errorf("metadata of %s: %w", loc, err)
		}
		return m, nil
	}
	return nil, usagef("say where the values come from: --meta FILE (written by `gqlbench gen`) or --db URL")
}

func generateQueries(ctx context.Context, env Env, meta *dataset.Meta, f queriesFlags, ids []int, weights map[int]int) error {
	var inst []workload.Instance
	var err error
	want := map[int]int{} // instances asked per template
	if weights != nil {
		for id, w := range weights {
			want[id] = w * f.per
		}
		inst, err = workload.GenerateMix(meta, weights, f.per, f.seed)
	} else {
		all := ids
		if all == nil {
			for _, t := range workload.Templates() {
				all = append(all, t.ID)
			}
		}
		for _, id := range all {
			want[id] = f.per
		}
		inst, err = workload.Generate(meta, workload.Options{PerTemplate: f.per, Templates: ids, Seed: f.seed})
	}
	if err != nil {
		return err
	}
	got := map[int]int{}
	for _, in := range inst {
		got[in.Template]++
	}
	for _, t := range workload.Templates() {
		if n, ok := want[t.ID]; ok && got[t.ID] < n {
			fmt.Fprintf(env.Stderr, "queries: %s has only %d possible instances at this dataset (sf=%d): all of them are used, not %d\n",
				t.Name, got[t.ID], meta.Scale, n)
		}
	}
	if f.expect {
		if err := addExpect(ctx, env, meta, inst); err != nil {
			return err
		}
	}
	entries, err := queryEntries(inst, f.dialect)
	if err != nil {
		return err
	}
	write := func(w io.Writer) error { return queryfile.Write(w, entries) }
	where := "stdout"
	switch {
	case f.out != "":
		if err := writeFileAtomic(f.out, write); err != nil {
			return err
		}
		where = f.out
	case f.lingbmOut == "":
		if err := write(env.Stdout); err != nil {
			return err
		}
	default:
		where = ""
	}
	if f.lingbmOut != "" {
		if err := workload.ExportLinGBM(f.lingbmOut, inst); err != nil {
			return err
		}
		where = strings.TrimPrefix(where+" and "+f.lingbmOut+"/actualQueries", " and ")
	}
	kind := "instances"
	if weights != nil {
		kind = "instances in a shuffled mix"
	}
	if f.dialect != "" {
		kind += " in dialect " + f.dialect
	}
	fmt.Fprintf(env.Stderr, "queries: %d %s of %d templates (seed %d; dataset sf=%d seed %d) to %s\n",
		len(inst), kind, len(want), f.seed, meta.Scale, meta.Seed, where)
	return nil
}

// queryEntries are the instances as queries-file entries, written in the
// named dialect unless it is "".
func queryEntries(inst []workload.Instance, name string) ([]queryfile.Entry, error) {
	entries, err := workload.Entries(inst)
	if err != nil || name == "" {
		return entries, err
	}
	d, err := dialect.Lookup(name)
	if err != nil {
		return nil, usagef("--dialect: %v", err)
	}
	for i, e := range entries {
		if entries[i], err = d.Rewrite(e); err != nil {
			return nil, err
		}
	}
	return entries, nil
}

// printCounts writes the number of possible instances per template.
func printCounts(w io.Writer, meta *dataset.Meta, ids []int) error {
	if ids == nil {
		for _, t := range workload.Templates() {
			ids = append(ids, t.ID)
		}
	}
	_, hasLinGBM := workload.LinGBMCount(1, meta.Scale)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	header := fmt.Sprintf("template\tinstances (sf=%d)", meta.Scale)
	if hasLinGBM {
		header += fmt.Sprintf("\tLinGBM Table 4 (sf=%d)", meta.Scale)
	}
	fmt.Fprintln(tw, header+"\tdomains")
	for _, id := range ids {
		t, err := workload.TemplateByID(id)
		if err != nil {
			return err
		}
		n, err := workload.Count(meta, id)
		if err != nil {
			return err
		}
		line := t.Name + "\t" + n.String()
		if hasLinGBM {
			l, _ := workload.LinGBMCount(id, meta.Scale)
			line += fmt.Sprintf("\t%d", l)
		}
		var doms []string
		for _, v := range t.Vars {
			doms = append(doms, "$"+v.Name+": "+v.Domain.String())
		}
		fmt.Fprintln(tw, line+"\t"+strings.Join(doms, " × "))
	}
	return tw.Flush()
}

// importLinGBM is queries --import-lingbm: LinGBM's query files as a
// queries file, with the expected answers of the dataset of --meta/--db
// when --expect is given.
func importLinGBM(ctx context.Context, env Env, f queriesFlags) error {
	inst, err := workload.ImportLinGBM(f.importDir)
	if err != nil {
		return err
	}
	if f.expect {
		meta, err := readQueriesMeta(ctx, f.meta, f.db)
		if err != nil {
			return err
		}
		if err := addExpect(ctx, env, meta, inst); err != nil {
			return err
		}
	}
	entries, err := queryEntries(inst, f.dialect)
	if err != nil {
		return err
	}
	write := func(w io.Writer) error { return queryfile.Write(w, entries) }
	where := "stdout"
	if f.out != "" {
		if err := writeFileAtomic(f.out, write); err != nil {
			return err
		}
		where = f.out
	} else if err := write(env.Stdout); err != nil {
		return err
	}
	what := "instances"
	if f.expect {
		what += " with expected answers"
	}
	if f.dialect != "" {
		what += " in dialect " + f.dialect
	}
	fmt.Fprintf(env.Stderr, "queries: %d %s imported from %s to %s\n", len(inst), what, f.importDir, where)
	return nil
}

// addExpect sets the Expect of every instance: the hash of the data the
// inmem oracle answers for the dataset of meta (inmem.Expect).
func addExpect(ctx context.Context, env Env, meta *dataset.Meta, inst []workload.Instance) error {
	start := time.Now()
	fmt.Fprintf(env.Stderr, "queries: generating the dataset (sf=%d, seed %d) in memory for the expected answers\n", meta.Scale, meta.Seed)
	data, err := inmem.ForMeta(ctx, meta)
	if err != nil {
		return fmt.Errorf("the oracle: %w", err)
	}
	if err := inmem.Expect(ctx, data, inst); err != nil {
		return err
	}
	fmt.Fprintf(env.Stderr, "queries: the oracle answered %d instances in %v\n", len(inst), time.Since(start).Round(time.Millisecond))
	return nil
}
