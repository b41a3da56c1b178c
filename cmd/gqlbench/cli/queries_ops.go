package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/gqlbench/gqlbench/dbloc"
	"github.com/gqlbench/gqlbench/drive"
	"github.com/gqlbench/gqlbench/internal/outfile"
	"github.com/gqlbench/gqlbench/operation"
	"github.com/gqlbench/gqlbench/queryfile"
	"github.com/vektah/gqlparser/v2/ast"
)

const opsSynopsis = `

Your own operations (docs/any-api.md):
       gqlbench queries --ops FILE|DIR [--vars FILE] [--per-op N] [--shuffle] [--seed S]
                        [--weights OP:W,...] [--literal] [--schema FILE|URL] [-o FILE]
                        [--header "Name: value"] [--header-env NAME=VAR] [--header-file FILE]
       gqlbench queries --import-graphql-bench CONFIG.yaml -o FILE

--ops reads .graphql files of named operations (a directory recursively, in
lexical order) and --vars a CSV (header = variable names) or JSON lines file of
their variables, and writes one entry per row and operation, id <Op>-0001,
labelled with the operation's name. --import-graphql-bench reads
hasura/graphql-bench's configuration, writes its headers to FILE.headers and
prints the command that runs the load.`

// opsFlags are the flags of queries --ops and --import-graphql-bench.
type opsFlags struct {
	ops, vars, weights, schema, bench string
	perOp                             int
	shuffle, literal                  bool
	req                               requestFlags // the headers of --schema URL
}

// opsOnly are the flags that mean nothing without --ops.
var opsOnly = []string{"vars", "per-op", "shuffle", "weights", "literal", "schema", "header", "header-file", "header-env", "secret-header"}

// introspectionTimeout bounds the request of --schema URL.
const introspectionTimeout = 30 * time.Second

func (o *opsFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&o.ops, "ops", "", "your own operations: a .graphql `FILE`, or a DIR of them (read recursively)")
	fs.StringVar(&o.vars, "vars", "", "--ops: the variables `FILE`: CSV (.csv, a header of variable names) or JSON lines (.jsonl, .ndjson)")
	fs.Var((*positiveInt)(&o.perOp), "per-op", "--ops: `N` entries per operation at most, per unit of weight with --weights (default: every row)")
	fs.BoolVar(&o.shuffle, "shuffle", false, "--ops: draw each operation's rows at random with --seed, instead of the first ones")
	fs.StringVar(&o.weights, "weights", "", "--ops: a shuffled mix `MIX` of weight·N entries of each operation, e.g. Search:3,Home:1 (with --per-op N)")
	fs.BoolVar(&o.literal, "literal", false, "--ops: write the variables into the query text as literals, instead of sending them as variables")
	fs.StringVar(&o.schema, "schema", "", "--ops: validate against a schema: SDL `FILE` (.graphql, .graphqls), an introspection result (.json), or an endpoint's URL")
	o.req.registerHeaders(fs)
	fs.StringVar(&o.bench, "import-graphql-bench", "", "read hasura/graphql-bench's query configuration `FILE` (YAML) instead; needs -o")
}

// chosen reports whether the command line asks for operations, not
// templates: --ops, --import-graphql-bench, or a flag of theirs.
func (o *opsFlags) chosen(set map[string]bool) bool {
	if set["ops"] || set["import-graphql-bench"] {
		return true
	}
	for _, name := range opsOnly {
		if set[name] {
			return true
		}
	}
	return false
}

// runOps is gqlbench queries --ops and --import-graphql-bench.
func runOps(ctx context.Context, env Env, f queriesFlags, o opsFlags) error {
	switch {
	case f.set["import-graphql-bench"]:
		if err := f.only("import-graphql-bench", "o"); err != nil {
			return err
		}
		if f.out == "" {
			return usagef("--import-graphql-bench needs -o FILE (its headers go to FILE.headers)")
		}
		return importGraphQLBench(env, o.bench, f.out)
	case !f.set["ops"]:
		for _, name := range opsOnly {
			if f.set[name] {
				return usagef("--%s goes with --ops FILE|DIR", name)
			}
		}
	}
	opt, err := o.options(f)
	if err != nil {
		return err
	}
	set, err := operation.ReadPath(o.ops)
	if err != nil {
		return err
	}
	for name := range opt.Weights {
		if set.Lookup(name) == nil {
			return usagef("--weights: %s is not an operation of %s (the operations: %s)", name, o.ops, strings.Join(set.Names(), ", "))
		}
	}
	if o.schema != "" {
		ctx, cancel := context.WithTimeout(ctx, introspectionTimeout)
		defer cancel()
		schema, err := o.loadSchema(ctx, env)
		if err != nil {
			return err
		}
		if err := set.Validate(schema); err != nil {
			return fmt.Errorf("the operations are not valid against %s:\n%w", dbloc.Redact(o.schema), err)
		}
	}
	var vars *operation.Vars
	if o.vars != "" {
		if vars, err = operation.ReadVarsFile(o.vars); err != nil {
			return err
		}
	}
	res, err := operation.Build(set, vars, opt)
	if err != nil {
		return err
	}
	for _, n := range res.Notes {
		fmt.Fprintf(env.Stderr, "queries: %s\n", n)
	}
	where, err := writeEntries(env, f.out, res.Entries)
	if err != nil {
		return err
	}
	warnMutations(env, res.Entries)
	fmt.Fprintf(env.Stderr, "queries: %d entries of %d operations from %s to %s\n",
		len(res.Entries), len(queryfile.Labels(res.Entries)), o.ops, where)
	return nil
}

// loadSchema loads --schema: an endpoint's with the header flags, whose
// values no error shows.
func (o *opsFlags) loadSchema(ctx context.Context, env Env) (*ast.Schema, error) {
	if !isURL(o.schema) {
		return operation.LoadSchema(ctx, o.schema, nil)
	}
	lines, err := o.req.headerLines(env)
	if err != nil {
		return nil, err
	}
	h, err := httpHeader(lines)
	if err != nil {
		return nil, err
	}
	s, err := operation.FetchSchema(ctx, nil, o.schema, h)
	var se *operation.StatusError
	if errors.As(err, &se) && (se.Status == http.StatusUnauthorized || se.Status == http.StatusForbidden) {
		return nil, fmt.Errorf("%w\nthe endpoint wants credentials: %s", err, drive.CredentialsAdvice(len(lines)))
	}
	return s, err
}

func isURL(s string) bool { return strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://") }

// options checks the flags of --ops against each other.
func (o *opsFlags) options(f queriesFlags) (operation.Options, error) {
	opt := operation.Options{PerOp: o.perOp, Shuffle: o.shuffle, Seed: f.seed, Literal: o.literal}
	if err := f.only(append([]string{"ops", "vars", "per-op", "shuffle", "seed", "weights", "literal", "schema", "o"}, headerFlags...)...); err != nil {
		return opt, err
	}
	for _, name := range headerFlags {
		if f.set[name] && !isURL(o.schema) {
			return opt, usagef("--%s goes with --schema URL: the headers of the introspection request", name)
		}
	}
	if f.set["seed"] && !o.shuffle && !f.set["weights"] {
		return opt, usagef("--seed draws rows (--shuffle) or shuffles a mix (--weights): give one of them")
	}
	if f.set["weights"] {
		if !f.set["per-op"] {
			return opt, usagef("--weights needs --per-op N: each operation named gets weight·N entries")
		}
		w, err := operation.ParseWeights(o.weights)
		if err != nil {
			return opt, usagef("--weights: %v", err)
		}
		opt.Weights = w
	}
	return opt, nil
}

// warnMutations says, when entries run mutations, what that means for
// recording and loading them.
func warnMutations(env Env, entries []queryfile.Entry) {
	if n, labels := mutations(entries); n > 0 {
		fmt.Fprintf(env.Stderr, "queries: warning: %d of %d entries run mutations (%s): they change the API's state, so their answers, and those of the queries after them, depend on it; "+
			"record sends them one at a time in file order, and every load run needs the same starting state (docs/any-api.md, Writes)\n",
			n, len(entries), strings.Join(labels, ", "))
	}
}

// writeEntries writes a queries file to path, or to stdout when path is
// "", and says where.
func writeEntries(env Env, path string, entries []queryfile.Entry) (string, error) {
	if path == "" || outfile.IsStdout(path) {
		return "stdout", queryfile.Write(env.Stdout, entries)
	}
	return path, writeFileAtomic(path, func(w io.Writer) error { return queryfile.Write(w, entries) })
}

// importGraphQLBench is gqlbench queries --import-graphql-bench CONFIG -o OUT.
func importGraphQLBench(env Env, config, out string) error {
	data, err := os.ReadFile(config)
	if err != nil {
		return err
	}
	cfg, err := operation.ImportGraphQLBench(data, config)
	if err != nil {
		return err
	}
	headerFile, beside := outfile.Beside(out, ".headers")
	if len(cfg.Headers) > 0 {
		if !beside {
			return fmt.Errorf("the configuration has %d headers, written to OUT.headers beside the queries file: -o must name a file, not a device or a pipe (%s)", len(cfg.Headers), out)
		}
		var b strings.Builder
		for _, h := range cfg.Headers {
			fmt.Fprintf(&b, "%s: %s\n", h.Name, h.Value)
		}
		if err := writeSecretFile(headerFile, []byte(b.String())); err != nil {
			return err
		}
	}
	if _, err := writeEntries(env, out, cfg.Entries); err != nil {
		return err
	}
	for _, n := range cfg.Notes {
		fmt.Fprintf(env.Stderr, "queries: %s\n", n)
	}
	warnMutations(env, cfg.Entries)
	fmt.Fprintf(env.Stderr, "queries: %d entries from %s to %s\n", len(cfg.Entries), config, out)
	to := "--target " + shellQuote(dbloc.Redact(cfg.URL))
	if len(cfg.Headers) > 0 {
		fmt.Fprintf(env.Stderr, "queries: %d headers to %s (readable by you alone; their values are not printed)\n", len(cfg.Headers), headerFile)
		to += " --header-file " + shellQuote(headerFile)
	}
	if u, err := url.Parse(cfg.URL); err == nil && u.User != nil {
		if _, has := u.User.Password(); has {
			fmt.Fprintf(env.Stderr, "queries: the password in the URL is left out below: take the URL from %s\n", config)
		}
	}
	golden := strings.TrimSuffix(out, filepath.Ext(out)) + ".golden.jsonl"
	fmt.Fprintf(env.Stderr, "queries: record the right answers once, from a server whose answers you trust (this one, if it answers right now), then load the recorded file, every answer checked:\n"+
		"  gqlbench record %s --queries %s -o %s\n"+
		"  gqlbench load %s --queries %s -o run.jsonl   # 6 runs of 60 s (the first a warm-up): --runs N, --duration D\n"+
		"queries: (--check status in place of the answers checks HTTP status, errors and data present only: a wrong answer passes)\n",
		to, shellQuote(out), shellQuote(golden), to, shellQuote(golden))
	return nil
}

// writeSecretFile writes data to path, readable and writable by its owner
// alone, through a temporary file renamed into place.
func writeSecretFile(path string, data []byte) error {
	return writeFileMode(path, 0o600, func(w io.Writer) error { _, err := w.Write(data); return err })
}

var shellSafe = regexp.MustCompile(`^[A-Za-z0-9_./:@%+=,-]+$`)

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if shellSafe.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
