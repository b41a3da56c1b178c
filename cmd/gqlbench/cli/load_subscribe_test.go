package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gqlbench/gqlbench/exitcode"
)

// TestLoadSubscribeEndToEnd: load --mode subscribe against a naive server
// over SQLite: the subscriptions get every event the creates raise, once
// and in order, with two stalled connections beside them; the run file
// matches the schema, and the report shows the account in every format.
func TestLoadSubscribeEndToEnd(t *testing.T) {
	dir := t.TempDir()
	db := "sqlite:" + filepath.Join(dir, "s.db")
	if code, _, stderr := run("gen", "--sf", "1", "--db", db, "--quiet"); code != exitcode.OK {
		t.Fatalf("gen: exit %d: %s", code, stderr)
	}
	url, _, cancel, _ := startServe(t, "serve", "naive", "--addr", "127.0.0.1:0", "--db", db)
	defer cancel()
	out := filepath.Join(dir, "sub.jsonl")
	code, _, stderr := run("load", "--mode", "subscribe", "--target", url, "--subscribers", "20", "--per-subscriber", "2",
		"--publish-rate", "20", "--duration", "1s", "--stalled", "2", "-o", out)
	if code != exitcode.OK || !strings.Contains(stderr, "valid: every expected event delivered") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	f := readRun(t, out)
	s := f.Summary.Subscription
	if f.Header.Mode != "subscribe" || s == nil || !s.Valid || s.Published == 0 || s.Delivered != s.Expected ||
		s.Latency.N != s.Delivered || s.LatencyFrom != "commit" || s.Stalled != 2 || s.Hist == "" {
		t.Fatalf("summary %+v", s)
	}
	// 20 connections × (every event + half of them).
	if s.Expected != s.Published*20+s.Published*20/2 && s.Expected != s.Published*20+(s.Published*20+1)/2 {
		t.Errorf("expected %d deliveries of %d events", s.Expected, s.Published)
	}
	// The same over GraphQL over SSE.
	sse := filepath.Join(dir, "sse.jsonl")
	code, _, stderr = run("load", "--mode", "subscribe", "--protocol", "graphql-sse", "--target", url, "--subscribers", "10", "--per-subscriber", "2",
		"--publish-rate", "20", "--duration", "1s", "-o", sse)
	if code != exitcode.OK {
		t.Fatalf("over SSE: exit %d: %s", code, stderr)
	}
	if s := readRun(t, sse).Summary.Subscription; s.Protocol != "graphql-sse" || !s.Valid || s.Delivered == 0 || s.Delivered != s.Expected {
		t.Errorf("over SSE: %+v", s)
	}
	for _, format := range []string{"md", "html", "json"} {
		code, stdout, stderr := run("report", out, "--format", format)
		if code != exitcode.OK || !strings.Contains(stdout, "ubscriptions") {
			t.Errorf("report --format %s: exit %d: %s", format, code, stderr)
		}
	}
}

// TestLoadSubscribeBadInput: wrong settings are usage errors before any
// connection; a server without subscriptions is a clear failure.
func TestLoadSubscribeBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--subscribers", "0"}, "--subscribers 0"},
		{[]string{"--per-subscriber", "10000"}, "--per-subscriber 10000"},
		{[]string{"--publish-rate", "-1"}, "--publish-rate"},
		{[]string{"--target", ""}, "--target is required"},
		{[]string{"--nope"}, "nope"},
		{[]string{"--protocol", "graphql-ws"}, "--protocol"},
	} {
		args := append([]string{"load", "--mode", "subscribe", "--target", "http://127.0.0.1:1/graphql"}, c.args...)
		code, _, stderr := run(args...)
		if code != exitcode.Usage || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, %s; want usage naming %q", c.args, code, stderr, c.want)
		}
	}
	url, _, cancel, _ := startServe(t, "serve", "null", "--addr", "127.0.0.1:0")
	defer cancel()
	code, _, stderr := run("load", "--mode", "subscribe", "--target", url, "--subscribers", "2", "--duration", "1s")
	if code != exitcode.Failure || !strings.Contains(stderr, "cannot connect") {
		t.Errorf("a server without subscriptions: exit %d: %s", code, stderr)
	}
}

// TestLoadSubscribeRamp: --ramp runs a step per number of subscribers
// until one breaks --slo (here one no delivery meets), and the run file
// and the report hold the steps.
func TestLoadSubscribeRamp(t *testing.T) {
	dir := t.TempDir()
	db := "sqlite:" + filepath.Join(dir, "s.db")
	if code, _, stderr := run("gen", "--sf", "1", "--db", db, "--quiet"); code != exitcode.OK {
		t.Fatalf("gen: exit %d: %s", code, stderr)
	}
	url, _, cancel, _ := startServe(t, "serve", "naive", "--addr", "127.0.0.1:0", "--db", db)
	defer cancel()
	out := filepath.Join(dir, "ramp.jsonl")
	code, _, stderr := run("load", "--mode", "subscribe", "--target", url, "--ramp", "2,4", "--slo", "p99<1ns",
		"--publish-rate", "20", "--duration", "500ms", "-o", out)
	if code != exitcode.OK || !strings.Contains(stderr, "ramp: stopped at 2 subscribers") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	s := readRun(t, out).Summary.Subscription
	if len(s.Ramp) != 1 || s.Ramp[0].Subscribers != 2 || s.RampSLO != "p99<1ns" || !strings.Contains(s.RampStop, "p99") {
		t.Errorf("ramp %+v, slo %q, stop %q", s.Ramp, s.RampSLO, s.RampStop)
	}
	if code, stdout, _ := run("report", out, "--format", "md"); code != exitcode.OK || !strings.Contains(stdout, "### Ramp") {
		t.Errorf("report: exit %d, no ramp table", code)
	}
	if code, _, stderr := run("load", "--mode", "subscribe", "--target", url, "--ramp", "4,2"); code != exitcode.Usage || !strings.Contains(stderr, "--ramp") {
		t.Errorf("a decreasing ramp: exit %d: %s", code, stderr)
	}
}

// subscribeOps is an --ops file for gqlbench's own server: the
// subscription, the mutation that raises its events (its marker and author
// in its variables' defaults), and a query the subscription load ignores.
const subscribeOps = `subscription Added { publicationAdded { publication { id title abstract } } }

mutation Create($t: String! = "gqlbench {{run}} #{{i}}", $m: ID! = "1000000000000000") {
  createPublication(input: {title: $t, abstract: "golden", mainAuthor: $m}) { id }
}

query Ignored { __typename }
`

// TestLoadSubscribeOpsGolden: a user's --ops file with a subscription
// runs against gqlbench's own server; --record-golden records the stream,
// a later run with --golden matches it (the ids the server gives differ:
// the mutation returns them), and a golden stream whose payloads differ
// makes the run invalid, each differing event counted.
func TestLoadSubscribeOpsGolden(t *testing.T) {
	dir := t.TempDir()
	db := "sqlite:" + filepath.Join(dir, "s.db")
	if code, _, stderr := run("gen", "--sf", "1", "--db", db, "--quiet"); code != exitcode.OK {
		t.Fatalf("gen: exit %d: %s", code, stderr)
	}
	url, _, cancel, _ := startServe(t, "serve", "naive", "--addr", "127.0.0.1:0", "--db", db)
	defer cancel()
	ops, golden := filepath.Join(dir, "ops.graphql"), filepath.Join(dir, "golden.json")
	os.WriteFile(ops, []byte(subscribeOps), 0o644)
	base := []string{"load", "--mode", "subscribe", "--target", url, "--ops", ops, "--subscribers", "4", "--per-subscriber", "2"}

	out := filepath.Join(dir, "rec.jsonl")
	code, _, stderr := run(append(base, "--publish-rate", "20", "--duration", "1s", "--record-golden", golden, "-o", out)...)
	if code != exitcode.OK || !strings.Contains(stderr, "golden stream of") {
		t.Fatalf("record: exit %d: %s", code, stderr)
	}
	rec := readRun(t, out)
	if s := rec.Summary.Subscription; !s.Valid || s.Published == 0 || s.Delivered != s.Published*8 || rec.Header.Queries.Path != ops {
		t.Fatalf("record: %+v, queries %+v", s, rec.Header.Queries)
	}
	g, err := os.ReadFile(golden)
	if err != nil || !bytes.Contains(g, []byte(`"id":"{{response}}","title":"gqlbench {{run}} #{{i}}","abstract":"golden"`)) {
		t.Fatalf("golden stream: %v\n%s", err, g)
	}
	n := int64(bytes.Count(g, []byte(`"publicationAdded"`)))

	// Checked: the run publishes the golden stream's events, each matches.
	out = filepath.Join(dir, "check.jsonl")
	code, _, stderr = run(append(base, "--publish-rate", "50", "--duration", "10s", "--golden", golden, "-o", out)...)
	if code != exitcode.OK {
		t.Fatalf("check: exit %d: %s", code, stderr)
	}
	if s := readRun(t, out).Summary.Subscription; !s.Valid || s.Published != n || s.GoldenCompared != n || s.GoldenDiffs != 0 {
		t.Errorf("check: %d golden events; %+v", n, s)
	}

	// A golden stream with two altered payloads: both counted, the run invalid.
	bad := filepath.Join(dir, "bad.json")
	altered := bytes.Replace(g, []byte(`"abstract":"golden"`), []byte(`"abstract":"altered"`), 2)
	os.WriteFile(bad, altered, 0o644)
	out = filepath.Join(dir, "bad.jsonl")
	code, _, stderr = run(append(base, "--publish-rate", "50", "--duration", "10s", "--golden", bad, "-o", out)...)
	s := readRun(t, out).Summary.Subscription
	if code != exitcode.Check || s.Valid || s.GoldenDiffs != 2 || !strings.Contains(stderr, "2 events differ from the golden stream") {
		t.Errorf("altered golden: exit %d, %+v: %s", code, s, stderr)
	}

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--golden", golden}, "your own operations"},
		{[]string{"--ops", ops, "--golden", golden, "--record-golden", bad}, "not both"},
		{[]string{"--ops", ops, "--mutation-vars", `{"t":"gqlbench {{run}} {{i}}"}`, "--golden", golden}, "other mutation variables"},
		{[]string{"--ops", ops, "--mutation", ops}, "not both"},
		{[]string{"--ops", ops, "--mutation-vars", `{"nope":1}`}, "$nope is not a variable"},
		{[]string{"--ops", filepath.Join(dir, "missing.graphql")}, "missing.graphql"},
		{[]string{"--ops", golden + ".graphql"}, "no such file"},
		{[]string{"--ops", ops, "--record-golden", dir}, "--record-golden"},
		{[]string{"--ops", ops, "--record-golden", filepath.Join(dir, "none", "g.json")}, "no directory"},
	} {
		code, _, stderr := run(append([]string{"load", "--mode", "subscribe", "--target", url}, c.args...)...)
		if code == exitcode.OK || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d: %s; want an error naming %q", c.args, code, stderr, c.want)
		}
	}
	two := filepath.Join(dir, "two.graphql")
	os.WriteFile(two, []byte(subscribeOps+"\nsubscription Again { publicationAdded { seq } }\n"), 0o644)
	noVar := filepath.Join(dir, "novar.graphql")
	os.WriteFile(noVar, []byte(strings.Replace(subscribeOps, ` = "1000000000000000"`, "", 1)), 0o644)
	for path, want := range map[string]string{two: "2 subscriptions (Added, Again)", noVar: "$m (ID!) needs a value"} {
		code, _, stderr := run("load", "--mode", "subscribe", "--target", url, "--ops", path)
		if code != exitcode.Usage || !strings.Contains(stderr, want) {
			t.Errorf("%s: exit %d: %s; want usage naming %q", filepath.Base(path), code, stderr, want)
		}
	}
}
