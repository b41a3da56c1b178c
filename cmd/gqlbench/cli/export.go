package cli

import (
	"context"

	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/gqlbench/gqlbench/internal/outfile"
	"github.com/gqlbench/gqlbench/interop"
	"github.com/gqlbench/gqlbench/queryfile"
	"github.com/gqlbench/gqlbench/verify"
)

func init() {
	register("export", "write a queries file as another load tool's test: export jmeter|k6|locust, every answer still checked (docs/interop.md)", runExport)
}

const exportSynopsis = `export jmeter|k6|locust --queries FILE -o FILE [--users N] [--ramp-up D] [--duration D] [--think D | --rate R] [--target URL] [header flags]

Writes the queries file's requests as a JMeter test plan (plan.jmx and its
instances, plan.csv, beside it), a k6 script or a locustfile. Each request is
the entry's GraphQL POST body, each virtual user takes the next entry of the
file, and every answer is checked as gqlbench load checks it: HTTP 200, no
GraphQL errors, and the hash of its data's canonical JSON equal to the entry's
"expect" (the same hash, computed in Groovy, JavaScript or Python). The shape
is a closed loop of --users (added over --ramp-up, each thinking up to --think
between an answer and its next request) for --duration after the ramp-up, or
with --rate an arrival rate with at most --users requests in flight. The
target is --target, which each tool's run may replace (-Jtarget=URL, -e
TARGET=URL, --host URL). Secret headers (Authorization, Cookie, any
--secret-header) are never written: give them as --header-env NAME=VAR and
the tool reads VAR from its environment. --ignore-path leaves members out of
every answer, as load's does (from recorded answers). Entries of REST plans or GraphQL
steps are left out with a warning; entries without an expected answer are
exported with a warning that their data will not be checked. Then run the
tool and read its results back: gqlbench import.`

func runExport(ctx context.Context, env Env, args []string) error {
	fs := newFlags(env, "export", exportSynopsis)
	queries := fs.String("queries", "", "the queries `FILE` (JSON lines)")
	out := fs.String("o", "", "the `FILE` to write (plan.jmx, script.js, locustfile.py)")
	target := fs.String("target", "http://127.0.0.1:4000/graphql", "the GraphQL endpoint `URL` written as the default (each tool's run may give another)")
	users := fs.Int("users", 10, "virtual users (closed loop), or the most requests in flight (--rate)")
	rampUp := fs.Duration("ramp-up", 0, "closed loop: time over which the users are started")
	duration := fs.Duration("duration", 60*time.Second, "how long the load runs at full strength (after the ramp-up)")
	think := fs.Duration("think", 0, "closed loop: think time after each answer, uniform in [0, D]")
	rate := fs.Float64("rate", 0, "an arrival rate in requests per second in place of the closed loop")
	var headers, headerFiles, headerEnv, secret, ignorePaths stringList
	fs.Var(&ignorePaths, "ignore-path", "a member `PATH` left out of every answer, as load's (repeatable; needs recorded answers: gqlbench record)")
	fs.Var(&headers, "header", "a request header \"Name: value\" written into the file (repeatable; not for secrets)")
	fs.Var(&headerFiles, "header-file", "read headers from `FILE`, one \"Name: value\" a line (repeatable; not for secrets)")
	fs.Var(&headerEnv, "header-env", "a header `NAME=VAR` whose value the tool reads from the environment variable VAR when it runs (repeatable)")
	fs.Var(&secret, "secret-header", "a header `NAME` that is secret (never written; Authorization, Proxy-Authorization and Cookie always are)")
	flags, pos := splitArgs(fs, args)
	if err := parse(fs, flags); err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("say which tool: gqlbench export jmeter|k6|locust --queries FILE -o FILE")
	}
	write, ok := exporters[pos[0]]
	switch {
	case !ok:
		return usagef("unknown tool %q: jmeter, k6 or locust", pos[0])
	case *queries == "":
		return usagef("say what to export: --queries FILE")
	case *out == "" || outfile.IsStdout(*out):
		return usagef("say where: -o FILE (a JMeter plan also writes its instances beside it)")
	}
	shape := interop.Shape{Users: *users, RampUp: *rampUp, Duration: *duration, Think: *think, Rate: *rate}
	if err := shape.Check(); err != nil {
		return usagef("%v", err)
	}
	hs, err := exportHeaders(headers, headerFiles, headerEnv)
	if err != nil {
		return err
	}
	if err := interop.CheckHeaders(hs, secret); err != nil {
		return usagef("%v", err)
	}
	q, err := queryfile.ReadFile(*queries)
	if err != nil {
		return err
	}
	var ignore []verify.Path
	for _, s := range ignorePaths {
		p, err := verify.ParsePath(s)
		if err != nil {
			return usagef("--ignore-path: %v", err)
		}
		ignore = append(ignore, p)
	}
	items, rep, err := interop.NewWorkload(q.Entries, ignore)
	if err != nil {
		return err
	}
	for _, w := range rep.Warnings() {
		fmt.Fprintf(env.Stderr, "export: warning: %s\n", w)
	}
	wl := &interop.Workload{Items: items, Shape: shape, Target: *target, Headers: hs, Source: filepath.Base(*queries), Ignore: ignore}
	files, err := write(wl, filepath.Base(*out))
	if err != nil {
		return err
	}
	for _, f := range files {
		path := *out
		if f.Name != "" {
			path = filepath.Join(filepath.Dir(*out), f.Name)
		}
		if err := outfile.WriteFile(path, 0o644, func(w io.Writer) error { _, err := w.Write(f.Data); return err }); err != nil {
			return err
		}
		fmt.Fprintf(env.Stderr, "export: wrote %s\n", path)
	}
	fmt.Fprintf(env.Stderr, "export: %d requests of %d templates for %s\n", len(items), len(interop.Labels(items)), pos[0])
	return nil
}

// exporters are the tools export writes for, by name.
var exporters = map[string]func(wl *interop.Workload, name string) ([]interop.File, error){
	"jmeter": interop.JMeter,
	"k6":     func(wl *interop.Workload, _ string) ([]interop.File, error) { return interop.K6(wl) },
	"locust": func(wl *interop.Workload, _ string) ([]interop.File, error) { return interop.Locust(wl) },
}

// exportHeaders reads the header flags: literal values from --header and
// --header-file, environment references from --header-env.
func exportHeaders(headers, files, envRefs stringList) ([]interop.Header, error) {
	lines := append([]string(nil), headers...)
	for _, path := range files {
		hs, err := readHeaderFile(path)
		if err != nil {
			return nil, err
		}
		lines = append(lines, hs...)
	}
	var out []interop.Header
	for i, l := range lines {
		name, v, ok := strings.Cut(l, ":")
		if !ok || strings.TrimSpace(name) == "" {
			return nil, usagef("header %d of %d: want \"Name: value\"", i+1, len(lines))
		}
		out = append(out, interop.Header{Name: strings.TrimSpace(name), Value: strings.TrimSpace(v)})
	}
	for _, kv := range envRefs {
		name, v, ok := strings.Cut(kv, "=")
		if !ok || strings.TrimSpace(name) == "" || v == "" {
			return nil, usagef("--header-env %q: want NAME=VAR", kv)
		}
		out = append(out, interop.Header{Name: strings.TrimSpace(name), Env: strings.TrimSpace(v)})
	}
	return out, nil
}
