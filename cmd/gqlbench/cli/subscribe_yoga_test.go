package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gqlbench/gqlbench/exitcode"
	"github.com/gqlbench/gqlbench/internal/nodetest"
)

// TestSubscribeOnYoga: the subscription load on a user's own API of another
// stack (graphql-yoga's reviewAdded over GraphQL over SSE, fed by
// addReview): every event is delivered once, in order, holding what its
// mutation sent; and the user's files are checked before any connection.
func TestSubscribeOnYoga(t *testing.T) {
	nodetest.Ensure(t)
	url := nodetest.StartYoga(t)
	dir := t.TempDir()
	sub, mut := filepath.Join(dir, "sub.graphql"), filepath.Join(dir, "mut.graphql")
	os.WriteFile(sub, []byte("subscription Reviews { reviewAdded { id stars text } }\n"), 0o644)
	os.WriteFile(mut, []byte("mutation Add($book: ID!, $text: String) { addReview(bookId: $book, stars: 4, text: $text) { id } }\n"), 0o644)
	out := filepath.Join(dir, "yoga.jsonl")
	code, _, stderr := run("load", "--mode", "subscribe", "--protocol", "graphql-sse", "--target", url,
		"--subscription", sub, "--mutation", mut, "--mutation-vars", `{"book":"3","text":"gqlbench {{run}} #{{i}}"}`,
		"--subscribers", "5", "--per-subscriber", "2", "--publish-rate", "20", "--duration", "1s", "-o", out)
	if code != exitcode.OK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	s := readRun(t, out).Summary.Subscription
	if !s.Valid || s.Published == 0 || s.Delivered != s.Published*10 || s.LatencyFrom != "send" {
		t.Errorf("account %+v", s)
	}

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--subscription", sub}, "go together"},
		{[]string{"--subscription", mut, "--mutation", mut, "--mutation-vars", `{"text":"{{run}} {{i}}"}`}, "one subscription operation"},
		{[]string{"--subscription", sub, "--mutation", mut, "--mutation-vars", `{"book":"3","text":"no marker"}`}, "marker"},
		{[]string{"--subscription", sub, "--mutation", mut, "--mutation-vars", `{"text":"{{run}} {{i}}"}`}, "$book (ID!) needs a value"},
		{[]string{"--subscription", sub, "--mutation", mut, "--mutation-vars", `[1]`}, "JSON object"},
	} {
		code, _, stderr := run(append([]string{"load", "--mode", "subscribe", "--target", url}, c.args...)...)
		if code != exitcode.Usage || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d: %s; want usage naming %q", c.args, code, stderr, c.want)
		}
	}
}

// TestSubscribeOnYogaOps: a user's --ops file (subscription, mutation,
// variables from their defaults) on graphql-yoga, over graphql-transport-ws
// (graphql-ws on yoga's envelop) and over GraphQL over SSE: every event
// delivered once, in order, as its mutation implies; a golden stream
// recorded over one protocol is matched over the other (yoga's review ids
// differ between the runs: the mutation returns them); an altered golden
// stream makes the run invalid.
func TestSubscribeOnYogaOps(t *testing.T) {
	url := nodetest.StartYoga(t)
	dir := t.TempDir()
	ops, golden := filepath.Join(dir, "ops.graphql"), filepath.Join(dir, "golden.json")
	os.WriteFile(ops, []byte(`subscription Reviews { reviewAdded { id stars text } }
mutation Add($book: ID! = "3", $text: String = "gqlbench {{run}} #{{i}}") { addReview(bookId: $book, stars: 4, text: $text) { id } }
`), 0o644)
	base := []string{"load", "--mode", "subscribe", "--target", url, "--ops", ops, "--subscribers", "5", "--per-subscriber", "2"}
	out := filepath.Join(dir, "ws.jsonl")
	code, _, stderr := run(append(base, "--protocol", "graphql-transport-ws", "--publish-rate", "20", "--duration", "1s",
		"--record-golden", golden, "-o", out)...)
	if code != exitcode.OK {
		t.Fatalf("graphql-transport-ws: exit %d: %s", code, stderr)
	}
	s := readRun(t, out).Summary.Subscription
	if !s.Valid || s.Protocol != "graphql-transport-ws" || s.Published == 0 || s.Delivered != s.Published*10 || s.LatencyFrom != "send" {
		t.Errorf("graphql-transport-ws: %+v", s)
	}
	g, err := os.ReadFile(golden)
	if err != nil || !strings.Contains(string(g), `{"reviewAdded":{"id":"{{response}}","stars":4,"text":"gqlbench {{run}} #{{i}}"}}`) {
		t.Fatalf("golden stream: %v\n%s", err, g)
	}
	out = filepath.Join(dir, "sse.jsonl")
	code, _, stderr = run(append(base, "--protocol", "graphql-sse", "--publish-rate", "50", "--duration", "10s", "--golden", golden, "-o", out)...)
	if s := readRun(t, out).Summary.Subscription; code != exitcode.OK || !s.Valid || s.GoldenCompared != s.Published || s.GoldenCompared == 0 {
		t.Errorf("graphql-sse against the golden stream: exit %d: %s\n%+v", code, stderr, s)
	}
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(strings.Replace(string(g), `"stars":4`, `"stars":5`, 1)), 0o644)
	code, _, stderr = run(append(base, "--publish-rate", "50", "--duration", "10s", "--golden", bad, "-o", filepath.Join(dir, "bad.jsonl"))...)
	if code != exitcode.Check || !strings.Contains(stderr, "1 events differ from the golden stream") {
		t.Errorf("altered golden stream: exit %d: %s", code, stderr)
	}
}
