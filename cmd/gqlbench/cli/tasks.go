package cli

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gqlbench/gqlbench/queryfile"
	"github.com/gqlbench/gqlbench/server/inmem"
	"github.com/gqlbench/gqlbench/task"
)

func init() {
	register("tasks", "make the REST-vs-GraphQL tasks: each a GraphQL query and a REST plan with the same right answer (seed 004's displays, LinGBM templates, seed 001's CRUD)", runTasks)
}

const tasksSynopsis = `tasks (--meta FILE | --db URL) [--sets display,lingbm,crud] [--per-template N] [--records 5,50,100] [--seed S] [--writes] [-o FILE]

Writes the REST-vs-GraphQL tasks as a queries file (JSON lines): each entry holds the
task's GraphQL query and variables, its REST plan (the calls a REST client makes and how
their answers assemble into the query's data) and the hash of the right answer, from the
in-memory oracle over the dataset of the metadata. The same file drives both APIs, and
runs of the two pair up by id and label:

  gqlbench load --target http://127.0.0.1:4000/graphql --queries tasks.jsonl -o graphql.jsonl
  gqlbench load --api rest --target http://127.0.0.1:4001 --queries tasks.jsonl -o rest.jsonl
  gqlbench load --mode paired --target http://127.0.0.1:4000/graphql \
                --paired-target http://127.0.0.1:4001 --queries tasks.jsonl -o paired.jsonl

Sets: display (seed 004: the first N graduate students, N from --records, REST's one
endpoint against GraphQL's exact fields, both fetching everything, several REST endpoints
against one query), lingbm (QT1, QT2, QT3, QT7, QT11 with --per-template instances each),
crud (seed 001: crud-read; with --writes also crud-create, which writes publications into
the servers' reserved range — gqlbench gen --reset-writes removes them — and crud-cycle,
which creates, reads, changes and deletes one). docs/tasks.md
documents the tasks and the plan format.`

func runTasks(ctx context.Context, env Env, args []string) error {
	fs := newFlags(env, "tasks", tasksSynopsis)
	meta := fs.String("meta", "", "the metadata JSON `FILE` written by gqlbench gen")
	db := fs.String("db", "", "read the metadata stored with a dataset at `URL`")
	sets := fs.String("sets", strings.Join(task.Sets, ","), "comma-separated `SETS` of tasks: "+strings.Join(task.Sets, ", "))
	var per positiveInt = 10
	fs.Var(&per, "per-template", "`N` instances of each lingbm task and of crud-read (and crud-create)")
	records := fs.String("records", "5,50,100", "the display cases' numbers of records, comma-separated")
	seed := fs.Uint64("seed", 0, "random `SEED` of the instances")
	writes := fs.Bool("writes", false, "also the write tasks (crud-create, crud-cycle): for servers that take writes")
	out := fs.String("o", "", "output `FILE` (default: stdout)")
	if err := parse(fs, args); err != nil {
		return err
	}
	o := task.Options{PerTemplate: int(per), Seed: *seed, Writes: *writes}
	for _, s := range strings.Split(*sets, ",") {
		s = strings.TrimSpace(s)
		if !slices.Contains(task.Sets, s) {
			return usagef("--sets: unknown set %q: want %s", s, strings.Join(task.Sets, ", "))
		}
		o.Sets = append(o.Sets, s)
	}
	for _, r := range strings.Split(*records, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(r))
		if err != nil || n < 1 {
			return usagef("--records: want positive numbers, got %q", r)
		}
		o.Records = append(o.Records, n)
	}
	m, err := readQueriesMeta(ctx, *meta, *db)
	if err != nil {
		return err
	}
	start := time.Now()
	fmt.Fprintf(env.Stderr, "tasks: generating the dataset (sf=%d, seed %d) in memory for the expected answers\n", m.Scale, m.Seed)
	data, err := inmem.ForMeta(ctx, m)
	if err != nil {
		return fmt.Errorf("the oracle: %w", err)
	}
	entries, err := task.Generate(ctx, m, o, inmem.Answerer(data))
	if err != nil {
		return err
	}
	if err := writeOut(env, *out, func(w io.Writer) error { return queryfile.Write(w, entries) }); err != nil {
		return err
	}
	where := *out
	if where == "" {
		where = "stdout"
	}
	fmt.Fprintf(env.Stderr, "tasks: %d tasks of %d labels (dataset sf=%d seed %d) in %v to %s\n", len(entries),
		len(queryfile.Labels(entries)), m.Scale, m.Seed, time.Since(start).Round(time.Millisecond), where)
	return nil
}
