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
		{[]string{"--subscription", sub, "--mutation", mut, "--mutation-vars", `{"text":"no marker"}`}, "marker"},
		{[]string{"--subscription", sub, "--mutation", mut, "--mutation-vars", `[1]`}, "JSON object"},
	} {
		code, _, stderr := run(append([]string{"load", "--mode", "subscribe", "--target", url}, c.args...)...)
		if code != exitcode.Usage || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d: %s; want usage naming %q", c.args, code, stderr, c.want)
		}
	}
}
