package cli

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/gqlbench/gqlbench/dbloc"
	"github.com/gqlbench/gqlbench/drive"
	"github.com/gqlbench/gqlbench/queryfile"
)

func init() {
	register("record", "send every query once to a server you trust and write its answers: a golden queries file", runRecord)
}

const recordSynopsis = `record --target URL --queries FILE [-o golden.jsonl] [--connections N] [request flags]

Sends every entry of the queries file once (each distinct request once, over
--connections connections) to a server whose answers you trust, and writes the
queries file again with each entry's answer ("answer": its canonical JSON) and
hash ("expect"). gqlbench load --queries golden.jsonl then checks every response
against them and shows a wrong answer field by field. Every entry must be
answered: an HTTP status other than 200, GraphQL errors or a response without
data stop the recording with the entries concerned named (exit 1). The request
flags (--header, --header-file, --method, --apq, ...) are load's. When the file
holds mutations, every entry is sent one at a time in file order, none skipped
as a duplicate: the answers are those of the API's state at the start.`

// mutations counts the entries that run mutations and lists their labels.
func mutations(entries []queryfile.Entry) (n int, labels []string) {
	for i := range entries {
		if entries[i].Mutation() {
			n++
			if !slices.Contains(labels, entries[i].Label) {
				labels = append(labels, entries[i].Label)
			}
		}
	}
	return n, labels
}

func runRecord(ctx context.Context, env Env, args []string) error {
	fs := newFlags(env, "record", recordSynopsis)
	var req requestFlags
	req.register(fs)
	target := fs.String("target", "", "the GraphQL endpoint `URL` of the server whose answers are right")
	queries := fs.String("queries", "", "the queries `FILE` (JSON lines)")
	out := fs.String("o", "", "the golden queries `FILE` (default: stdout)")
	conns := fs.Int("connections", 8, "requests in flight")
	quiet := fs.Bool("quiet", false, "no summary on stderr")
	if err := parse(fs, args); err != nil {
		return err
	}
	switch {
	case *target == "":
		return usagef("say which server to record: --target http://HOST:PORT/graphql")
	case *queries == "":
		return usagef("say what to record: --queries FILE")
	case *conns < 1:
		return usagef("--connections must be at least 1")
	}
	o, err := req.options(env)
	if err != nil {
		return err
	}
	q, err := queryfile.ReadFile(*queries)
	if err != nil {
		return err
	}
	if n, labels := mutations(q.Entries); n > 0 {
		fmt.Fprintf(env.Stderr, "record: %d of %d entries run mutations (%s): every entry is sent one at a time, in file order, none skipped as a duplicate; "+
			"the answers recorded depend on the API's state when the recording starts: start every load from that same state (docs/any-api.md, Writes)\n",
			n, len(q.Entries), strings.Join(labels, ", "))
		if strings.EqualFold(o.Method, "GET") {
			fmt.Fprintf(env.Stderr, "record: --method GET sends queries by GET and the %d mutations by POST (GraphQL over HTTP runs no mutation sent by GET)\n", n)
		}
	}
	start := time.Now()
	r := drive.Golden{Target: *target, Client: req.client, HTTP: o, Connections: *conns}
	golden, err := r.Record(ctx, q.Entries)
	if err != nil {
		return err
	}
	if err := writeOut(env, *out, func(w io.Writer) error { return queryfile.Write(w, golden) }); err != nil {
		return err
	}
	if !*quiet {
		el := time.Since(start)
		fmt.Fprintf(env.Stderr, "record: %d answers from %s in %.2fs (%.0f entries/s)\n", len(golden), dbloc.Redact(*target), el.Seconds(), float64(len(golden))/el.Seconds())
	}
	return nil
}
