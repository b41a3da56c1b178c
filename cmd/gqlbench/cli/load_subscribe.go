package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"

	"github.com/gqlbench/gqlbench/drive/subscribe"
	"github.com/gqlbench/gqlbench/exitcode"
	"github.com/gqlbench/gqlbench/experiment"
	"github.com/gqlbench/gqlbench/internal/outfile"
	"github.com/gqlbench/gqlbench/measure"
	"github.com/gqlbench/gqlbench/operation"
	"github.com/gqlbench/gqlbench/runfile"
)

// subscribeMode is load's --mode that subscribe's own flags parse (its
// engine, package drive/subscribe, is not one of drive's modes: it sends
// no queries file, it holds connections and counts events).
const subscribeMode = "subscribe"

const subscribeSynopsis = `load --mode subscribe --target URL [--subscribers N] [--per-subscriber K] [--publish-rate R] [--duration D] [-o run.jsonl]

The subscription load (docs/subscriptions.md): N connections to the server's
GraphQL endpoint speaking graphql-transport-ws (or graphql-sse), K subscriptions
(publicationAdded) on each — even ones take every event, odd ones one main
author's (half) — and a publisher issuing createPublication at R per second
over HTTP. Every event is checked against the mutation that raised it; its
delivery latency (the commit time it carries to its receipt) is recorded;
loss, duplicates and reorders are counted per subscription. The run is valid
only with none of them (exit 3 otherwise). The run file's summary holds the
account; gqlbench report shows it.`

// isSubscribe says whether load's arguments ask for --mode subscribe.
func isSubscribe(args []string) bool {
	for i, a := range args {
		a = strings.TrimLeft(a, "-")
		if a == "mode="+subscribeMode || a == "mode" && i+1 < len(args) && args[i+1] == subscribeMode {
			return true
		}
		if a == "" { // "--": the end of the flags
			break
		}
	}
	return false
}

// runLoadSubscribe is load --mode subscribe.
func runLoadSubscribe(ctx context.Context, env Env, args []string) error {
	st, err := parseSubscribe(env, args)
	if err != nil {
		return err
	}
	var w io.Writer = env.Stdout
	if st.out != "" && st.out != "-" {
		var files closers
		defer files.close()
		var err error
		if w, err = files.create(st.out, nil); err != nil {
			return err
		}
	}
	hdr := subscribeHeader(st.fs, env, st.target, st.cfg.Protocol, st.labels)
	start := time.Now()
	res, rampSteps, stop, err := st.run(ctx, env)
	if res == nil {
		return fmt.Errorf("load --mode subscribe: %w", err)
	}
	if err != nil { // a later ramp step could not be made: the ones made are kept
		fmt.Fprintf(env.Stderr, "load: %v\n", err)
		stop = err.Error()
	}
	sum := experiment.SubscriptionSummary(res, start)
	if ctx.Err() != nil { // what was measured is kept, marked
		sum.Status, sum.Reason = "interrupted", "interrupted: "+sum.Reason
	}
	if st.steps != nil {
		st.rampSummary(env, sum, rampSteps, stop)
	}
	gerr := st.writeGolden(env, sum, res) // after the run file, whatever it says
	if err := st.report(env, w, hdr, sum, res); err != nil {
		return err
	}
	if gerr != nil {
		return fmt.Errorf("--record-golden: %w", gerr)
	}
	return nil
}

// writeGolden writes --record-golden's file from a valid run; an invalid
// run's stream is not one to compare others with.
func (st *subscribeSettings) writeGolden(env Env, sum *runfile.Summary, res *subscribe.Result) error {
	if st.recordGolden == "" || res.Golden == nil {
		return nil
	}
	if sum.Status != "ok" {
		fmt.Fprintf(env.Stderr, "load: --record-golden %s: not written: the run is not valid\n", st.recordGolden)
		return nil
	}
	if len(res.Golden.Events) == 0 {
		fmt.Fprintf(env.Stderr, "load: --record-golden %s: not written: no event in the window\n", st.recordGolden)
		return nil
	}
	if err := outfile.WriteFile(st.recordGolden, 0o644, res.Golden.Write); err != nil {
		return err
	}
	if !st.quiet {
		fmt.Fprintf(env.Stderr, "load: golden stream of %d events written to %s\n", len(res.Golden.Events), st.recordGolden)
	}
	return nil
}

// subscribeSettings are load --mode subscribe's settings: its flags, and
// what they were parsed into.
type subscribeSettings struct {
	fs                *flag.FlagSet
	target, out, mode string
	cfg               subscribe.Config
	labels            labelFlag
	quiet             bool
	ramp, slo         string
	user              userOps
	golden            string      // --golden FILE
	recordGolden      string      // --record-golden FILE
	steps             []int       // --ramp's numbers of subscribers; nil without --ramp
	objectives        measure.SLO // --slo, with --ramp
}

// parseSubscribe parses load --mode subscribe's arguments and checks its
// settings: a bad one is a usage error, found before any connection.
func parseSubscribe(env Env, args []string) (*subscribeSettings, error) {
	st := &subscribeSettings{}
	fs := st.flags(env)
	if err := parse(fs, args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, usagef("unexpected argument %q", fs.Arg(0))
	}
	if st.target == "" {
		return nil, usagef("--target is required: the server's GraphQL endpoint, e.g. http://127.0.0.1:8080/graphql")
	}
	st.cfg.URL = st.target
	user := st.user
	if user.any() {
		w, err := user.workload()
		if err != nil {
			return nil, err
		}
		st.cfg.Workload = w
		st.cfg.Publishers = 1 // its events carry no seq: order is the publisher's, one mutation at a time
		if st.golden != "" {
			if st.cfg.Golden, err = subscribe.ReadGolden(st.golden); err != nil {
				return nil, usagef("--golden: %v", err)
			}
		}
		if st.recordGolden != "" { // checked before the run: its stream is written after
			if _, err := outfile.Stat(st.recordGolden); err != nil {
				return nil, usagef("--record-golden: %v", err)
			}
			if dir := filepath.Dir(st.recordGolden); dir != "" {
				if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
					return nil, usagef("--record-golden %s: no directory %s to write it in", st.recordGolden, dir)
				}
			}
		}
		st.cfg.RecordGolden = st.recordGolden != ""
	} else if st.golden != "" || st.recordGolden != "" {
		return nil, usagef("--golden and --record-golden are of your own operations: give --ops (or --subscription and --mutation)")
	}
	// A bad setting is a usage error, found before any connection.
	if err := subscribe.Check(st.cfg); err != nil {
		return nil, usagef("%v", err)
	}
	if st.ramp != "" {
		if err := st.parseRamp(); err != nil {
			return nil, err
		}
	}
	return st, nil
}

// flags is the flag set of load --mode subscribe, parsing into st.
func (st *subscribeSettings) flags(env Env) *flag.FlagSet {
	fs := newFlags(env, "load", subscribeSynopsis)
	st.fs = fs
	cfg, user := &st.cfg, &st.user
	fs.StringVar(&st.mode, "mode", subscribeMode, "subscribe")
	fs.StringVar(&st.target, "target", "", "the server's GraphQL endpoint `URL` (http://HOST:PORT/graphql); the subscribers connect to its ws:// twin")
	fs.StringVar(&st.out, "o", "", "the run `FILE` (default: stdout)")
	fs.IntVar(&cfg.Subscribers, "subscribers", 500, "subscriber connections (N; seed 003: 500)")
	fs.IntVar(&cfg.PerSubscriber, "per-subscriber", 2, fmt.Sprintf("subscriptions on each connection (K; seed 003: 2; at most %d)", subscribe.MaxPerSubscriber))
	fs.Float64Var(&cfg.PublishRate, "publish-rate", 1, "mutations (events) per second")
	fs.DurationVar(&cfg.Duration, "duration", 30*time.Second, "measured publishing, after the warm-up")
	fs.DurationVar(&cfg.WarmUp, "warmup", 30*time.Second, "the longest warm-up: until every subscription has had an event")
	fs.DurationVar(&cfg.Settle, "settle", 5*time.Second, "the longest wait for the last events after the last mutation")
	fs.IntVar(&cfg.Publishers, "publishers", 4, "mutations in flight at most")
	fs.BoolVar(&cfg.Reconnect, "reconnect", false, "redial a dropped connection and subscribe again (its missed events count as lost)")
	fs.StringVar(&cfg.Protocol, "protocol", subscribe.TransportWS, "graphql-transport-ws (one websocket per subscriber) or graphql-sse (GraphQL over Server-Sent Events, distinct connections mode: one HTTP stream per subscription)")
	fs.IntVar(&cfg.Stalled, "stalled", 0, "extra connections that subscribe and never read: the server must not let them stall the others")
	fs.StringVar(&st.ramp, "ramp", "", "ramp the subscribers: `N1,N2,...`, a whole run at each, until one breaks --slo or is invalid (--subscribers is then ignored)")
	fs.StringVar(&st.slo, "slo", "p99<50ms", "with --ramp: the delivery latency objectives each step must meet, e.g. p99<50ms")
	fs.StringVar(&user.ops, "ops", "", "your own API: a .graphql `FILE` (or a DIR of them) holding one subscription operation and the one mutation that raises its events (queries in it are ignored); variables from their defaults and --subscription-vars/--mutation-vars")
	fs.StringVar(&st.golden, "golden", "", "with your own API: check each event of the window against this golden stream `FILE` (recorded by --record-golden); the run publishes its number of events")
	fs.StringVar(&st.recordGolden, "record-golden", "", "with your own API: record the window's events, normalised, as a golden stream `FILE` for later runs' --golden")
	fs.StringVar(&user.subscription, "subscription", "", "your own API: a .graphql `FILE` of one subscription operation, sent by every subscription (default: the benchmark's publicationAdded)")
	fs.StringVar(&user.subscriptionVars, "subscription-vars", "", "--subscription: its variables, a JSON `OBJECT`")
	fs.StringVar(&user.mutation, "mutation", "", "your own API: a .graphql `FILE` of one mutation operation that raises the subscription's events")
	fs.StringVar(&user.mutationVars, "mutation-vars", "", `--mutation: its variables, a JSON `+"`OBJECT`"+` whose string values may hold {{i}} (the event's number) and {{run}} (the run's tag); one must mark the event in its payload, e.g. {"text":"gqlbench {{run}} #{{i}}"}`)
	fs.Var(&st.labels, "label", "a `KEY=VALUE` label for the run file's header (repeatable)")
	fs.BoolVar(&st.quiet, "quiet", false, "no summary on stderr")
	return fs
}

// parseRamp parses --ramp into st.steps and --slo into st.objectives.
func (st *subscribeSettings) parseRamp() error {
	for _, f := range strings.Split(st.ramp, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 || n > subscribe.MaxSubscribers || len(st.steps) > 0 && n <= st.steps[len(st.steps)-1] {
			return usagef("--ramp %q: want increasing numbers of subscribers from 1 to %d, e.g. 100,500,1000", st.ramp, subscribe.MaxSubscribers)
		}
		st.steps = append(st.steps, n)
	}
	var err error
	if st.objectives, err = measure.ParseSLO(st.slo); err != nil {
		return usagef("--slo: %v", err)
	}
	return nil
}

// run makes the run, or with --ramp the ramp's steps: res is the run's
// result, or the last step's (nil when none was made); stop says why the
// ramp stopped.
func (st *subscribeSettings) run(ctx context.Context, env Env) (res *subscribe.Result, rampSteps []subscribe.Step, stop string, err error) {
	if st.steps == nil {
		res, err = subscribe.Run(ctx, st.cfg)
		return res, nil, "", err
	}
	rampSteps, stop, err = subscribe.Ramp(ctx, st.cfg, st.steps, st.objectives)
	if len(rampSteps) > 0 {
		res = rampSteps[len(rampSteps)-1].Result
	}
	if !st.quiet {
		for _, s := range rampSteps {
			fmt.Fprintf(env.Stderr, "ramp: %d subscribers: p99 %v, valid %v\n", s.Subscribers,
				time.Duration(s.Result.Latency.ValueAtQuantile(99)).Round(time.Microsecond), isValid(s.Result))
		}
	}
	return res, rampSteps, stop, err
}

// rampSummary adds the ramp's objectives, steps and stop to sum, and says
// on stderr how it ended.
func (st *subscribeSettings) rampSummary(env Env, sum *runfile.Summary, rampSteps []subscribe.Step, stop string) {
	s := sum.Subscription
	s.RampSLO, s.RampStop = st.objectives.String(), stop
	for _, step := range rampSteps {
		r := step.Result
		s.Ramp = append(s.Ramp, runfile.SubscriptionStep{Subscribers: step.Subscribers, Valid: isValid(r), Delivered: r.Delivered,
			P50NS: r.Latency.ValueAtQuantile(50), P99NS: r.Latency.ValueAtQuantile(99), BytesPerSubscriber: r.BytesPerSubscriber})
	}
	if !st.quiet {
		if stop == "" {
			fmt.Fprintf(env.Stderr, "ramp: every step met %s\n", s.RampSLO)
		} else {
			fmt.Fprintf(env.Stderr, "ramp: stopped at %s\n", stop)
		}
	}
}

// report writes the run file, hdr and sum, to w and the summary of res on
// stderr; its error is the run's ending: interrupted, invalid (exit 3) or
// nil.
func (st *subscribeSettings) report(env Env, w io.Writer, hdr *runfile.Header, sum *runfile.Summary, res *subscribe.Result) error {
	rw := runfile.NewWriter(w)
	rw.Write(hdr)
	rw.Write(sum)
	if !st.quiet {
		fmt.Fprint(env.Stderr, res.Summary())
	}
	if err := rw.Err(); err != nil {
		return err
	}
	if sum.Status == "interrupted" {
		return errors.New("load --mode subscribe: interrupted (the run file keeps what was measured)")
	}
	if sum.Status != "ok" {
		return exitcode.With(exitcode.Check, errors.New("load --mode subscribe: "+sum.Reason))
	}
	return nil
}

// userOps are the flags of a user's own API's subscription load.
type userOps struct{ ops, subscription, subscriptionVars, mutation, mutationVars string }

func (u userOps) any() bool {
	return u.ops != "" || u.subscription != "" || u.mutation != "" || u.subscriptionVars != "" || u.mutationVars != ""
}

// workload reads and checks the user's operations: --ops, or the
// --subscription and --mutation files.
func (u userOps) workload() (*subscribe.Ops, error) {
	var sub, mut *ast.OperationDefinition
	o := subscribe.Ops{Tag: fmt.Sprintf("run%d", time.Now().UnixNano())}
	switch {
	case u.ops != "" && (u.subscription != "" || u.mutation != ""):
		return nil, usagef("--ops holds your subscription and mutation: give it, or --subscription and --mutation, not both")
	case u.ops != "":
		var err error
		if o.SubscriptionDoc, sub, o.MutationDoc, mut, err = opsFile(u.ops); err != nil {
			return nil, err
		}
	case u.subscription == "" || u.mutation == "":
		return nil, usagef("--subscription and --mutation go together: your subscription, and the mutation that raises its events")
	default:
		var err error
		if o.SubscriptionDoc, sub, err = oneOperation(u.subscription, ast.Subscription); err != nil {
			return nil, err
		}
		if o.MutationDoc, mut, err = oneOperation(u.mutation, ast.Mutation); err != nil {
			return nil, err
		}
	}
	for _, v := range []struct {
		flag, text string
		op         *ast.OperationDefinition
		into       *map[string]any
	}{{"--subscription-vars", u.subscriptionVars, sub, &o.SubscriptionVars}, {"--mutation-vars", u.mutationVars, mut, &o.MutationVars}} {
		given := map[string]any{}
		if v.text != "" {
			if err := json.Unmarshal([]byte(v.text), &given); err != nil {
				return nil, usagef("%s: want a JSON object: %v", v.flag, err)
			}
		}
		vars, err := withDefaults(v.op, given, v.flag)
		if err != nil {
			return nil, err
		}
		if len(vars) > 0 {
			*v.into = vars
		}
	}
	w, err := subscribe.NewOps(o)
	if err != nil {
		return nil, usagef("--mutation-vars: %v", err)
	}
	return w, nil
}

// oneOperation reads a .graphql file that holds one operation of kind
// want, and returns its text and definition.
func oneOperation(path string, want ast.Operation) (string, *ast.OperationDefinition, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", nil, err
	}
	doc, gerr := parser.ParseQuery(&ast.Source{Name: path, Input: string(b)})
	if gerr != nil {
		return "", nil, usagef("%s: %v", path, gerr)
	}
	if len(doc.Operations) != 1 || doc.Operations[0].Operation != want {
		return "", nil, usagef("%s: want exactly one %s operation", path, want)
	}
	return string(b), doc.Operations[0], nil
}

// opsFile reads an --ops file or directory (package operation, which
// checks each operation's variables and fragments): its one subscription
// and its one mutation, each with the fragments it uses. Queries are left
// out: the subscription load sends none.
func opsFile(path string) (subText string, sub *ast.OperationDefinition, mutText string, mut *ast.OperationDefinition, err error) {
	set, err := operation.ReadPathWithSubscriptions(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", nil, "", nil, err
		}
		return "", nil, "", nil, usagef("--ops: %v", err)
	}
	var subs, muts []*operation.Operation
	for _, op := range set.Ops {
		switch {
		case op.After != nil:
			return "", nil, "", nil, usagef("--ops %s: operation %s has an after marker: the subscription load runs no chains", path, op.Name)
		case op.Kind == ast.Subscription:
			subs = append(subs, op)
		case op.Kind == ast.Mutation:
			muts = append(muts, op)
		}
	}
	names := func(ops []*operation.Operation) string {
		var n []string
		for _, op := range ops {
			n = append(n, op.Name)
		}
		return strings.Join(n, ", ")
	}
	if len(subs) != 1 || len(muts) != 1 {
		return "", nil, "", nil, usagef("--ops %s: want one subscription operation and the one mutation that raises its events; it has %d subscriptions (%s) and %d mutations (%s)",
			path, len(subs), names(subs), len(muts), names(muts))
	}
	return subs[0].Text, subs[0].Definition(), muts[0].Text, muts[0].Definition(), nil
}

// withDefaults is an operation's variables: the given ones, then each
// default value of its variable definitions; a required variable without
// a value, or a given one the operation does not define, is a usage error.
func withDefaults(op *ast.OperationDefinition, given map[string]any, flag string) (map[string]any, error) {
	out := map[string]any{}
	for _, d := range op.VariableDefinitions {
		if v, ok := given[d.Variable]; ok {
			out[d.Variable] = v
			continue
		}
		if d.DefaultValue != nil {
			v, err := d.DefaultValue.Value(nil)
			if err != nil {
				return nil, usagef("$%s's default: %v", d.Variable, err)
			}
			out[d.Variable] = v
		} else if d.Type.NonNull {
			return nil, usagef("%s: operation %s's $%s (%s) needs a value: give it in %s or a default in the operation", flag, op.Name, d.Variable, d.Type, flag)
		}
	}
	for k := range given {
		if op.VariableDefinitions.ForName(k) == nil {
			return nil, usagef("%s: $%s is not a variable of operation %s", flag, k, op.Name)
		}
	}
	return out, nil
}

func isValid(r *subscribe.Result) bool { ok, _ := r.Valid(); return ok }

// subscribeHeader is the run file's header of a subscription run.
func subscribeHeader(fs *flag.FlagSet, env Env, target, protocol string, labels labelFlag) *runfile.Header {
	flags := map[string]string{}
	fs.VisitAll(func(fl *flag.Flag) { flags[fl.Name] = fl.Value.String() })
	redactFlagValues(flags)
	host, _ := os.Hostname()
	return &runfile.Header{
		Type: runfile.TypeHeader, Format: runfile.Format,
		Tool:      runfile.Tool{Name: "gqlbench", Version: Version, Go: runtime.Version()},
		Generator: fmt.Sprintf("%s/%d", host, os.Getpid()),
		Command:   append([]string{"gqlbench"}, redactArgs(env.Args)...), Flags: flags, Labels: labels.m,
		Target: redactArg(target), Mode: subscribeMode,
		Queries: queriesOf(fs),
		Params:  runfile.Params{Extra: "subscribe: " + protocol},
		Machine: runfile.ThisMachine(), Hist: runfile.StandardHist, Start: time.Now().UTC(),
	}
}

// queriesOf names the operations of the run in the header.
func queriesOf(fs *flag.FlagSet) runfile.Queries {
	if f := fs.Lookup("ops"); f != nil && f.Value.String() != "" {
		return runfile.Queries{Path: f.Value.String(), Templates: []string{"subscription"}}
	}
	if f := fs.Lookup("subscription"); f != nil && f.Value.String() != "" {
		return runfile.Queries{Path: f.Value.String() + " + " + fs.Lookup("mutation").Value.String(), Templates: []string{"subscription"}}
	}
	return runfile.Queries{Path: "(built in: publicationAdded, createPublication)", Templates: []string{"publicationAdded"}}
}
