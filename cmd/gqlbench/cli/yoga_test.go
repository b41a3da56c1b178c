package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gqlbench/gqlbench/exitcode"
	"github.com/gqlbench/gqlbench/internal/nodetest"
	"github.com/gqlbench/gqlbench/queryfile"
	"github.com/gqlbench/gqlbench/runfile"
)

// TestAnyAPIOnYoga: a GraphQL server gqlbench did not write, in another
// stack (graphql-yoga on Node) and over a schema that is not LinGBM's: the
// user's .graphql operations and CSV variables become a queries file, its
// answers are recorded, and the load checks every answer with none wrong.
// The same server with one field's value changed (--mutate: a few books'
// prices) is caught both by the golden file and by the server compared
// with the right one, and the failures name the field's path.
func TestAnyAPIOnYoga(t *testing.T) {
	nodetest.Ensure(t)
	good := nodetest.StartYoga(t)
	mutated := nodetest.StartYoga(t, "--mutate")
	dir := t.TempDir()
	ops := filepath.Join(dir, "shop.graphql")
	os.WriteFile(ops, []byte(`query Book($id: ID!) {
  book(id: $id) { id title year price inStock genre author { name } reviews(minStars: 3) { stars } }
}

# gqlbench: unordered
query Shelf($genre: Genre, $filter: BookFilter, $limit: Int) {
  books(genre: $genre, filter: $filter, limit: $limit) { id price }
}

query Find($text: String!, $inStockOnly: Boolean) {
  search(text: $text, inStockOnly: $inStockOnly) { id title }
}
`), 0o644)
	var csv strings.Builder
	csv.WriteString("operation,id,genre,filter,limit,text,inStockOnly\n")
	for id := 1; id <= 60; id++ {
		csv.WriteString("Book," + itoa(id) + ",,,,,\n")
	}
	csv.WriteString(`Shelf,,MYSTERY,"{""minYear"": 1990, ""maxPrice"": 40.5}",5,,` + "\n")
	csv.WriteString("Shelf,,POETRY,,20,,\n")
	csv.WriteString("Find,,,,,river,true\n")
	csv.WriteString("Find,,,,,garden,\n")
	vars := filepath.Join(dir, "vars.csv")
	os.WriteFile(vars, []byte(csv.String()), 0o644)
	q, golden := filepath.Join(dir, "q.jsonl"), filepath.Join(dir, "golden.jsonl")

	if code, _, stderr := run("queries", "--ops", ops, "--vars", vars, "-o", q); code != exitcode.OK {
		t.Fatalf("queries: exit %d: %s", code, stderr)
	}
	if code, _, stderr := run("record", "--target", good, "--queries", q, "-o", golden, "--quiet"); code != exitcode.OK {
		t.Fatalf("record: exit %d: %s", code, stderr)
	}
	g, err := queryfile.ReadFile(golden)
	if err != nil || len(g.Entries) != 64 {
		t.Fatalf("the golden file: %v, %d entries", err, len(g.Entries))
	}
	for _, e := range g.Entries {
		if e.Answer == nil || e.Expect == "" || (e.Label == "Shelf") != e.Unordered {
			t.Fatalf("golden entry %+v", e)
		}
	}

	closed := []string{"--clients", "2", "--duration", "300ms", "--runs", "1", "--interval", "100ms"}
	// The wrong server is driven over every entry once (sequential, one
	// pass): only 2 of the 64 entries meet a changed price, and a closed
	// run of 300 ms on a busy machine may end before it reaches them.
	everyOnce := []string{"--mode", "sequential", "--passes", "1", "--warmup-passes", "0"}
	load := func(target string, mode []string, args ...string) (int, string, *runfile.File) {
		out := filepath.Join(dir, "run.jsonl")
		os.RemoveAll(out + ".failures")
		code, _, stderr := run(append(append([]string{"load", "--target", target, "-o", out, "--quiet"}, mode...), args...)...)
		f, _ := runfile.ReadFile(out)
		return code, stderr, f
	}
	code, stderr, f := load(good, closed, "--queries", golden)
	if code != exitcode.OK || f.Summary.Total.Wrong != 0 || f.Summary.Total.Verified == 0 || f.Header.Params.Check != "golden" {
		t.Fatalf("golden against the right server: exit %d, %s", code, stderr)
	}
	if got := strings.Join(f.Header.Queries.Templates, ","); got != "Book,Shelf,Find" {
		t.Errorf("labels %s", got)
	}
	for _, c := range []struct {
		name string
		args []string
	}{
		{"golden", []string{"--queries", golden}},
		{"differential", []string{"--queries", q, "--reference", good}},
	} {
		code, stderr, f := load(mutated, everyOnce, c.args...)
		if code != exitcode.Check || f == nil || f.Summary.Total.Wrong == 0 {
			t.Errorf("%s: the changed field was not caught: exit %d, %s", c.name, code, stderr)
			continue
		}
		if !strings.Contains(f.Summary.FirstWrong, "data.book.price: expected") {
			t.Errorf("%s: the first wrong answer %q does not name data.book.price", c.name, f.Summary.FirstWrong)
		}
		files, _ := filepath.Glob(filepath.Join(f.Summary.Failures, "Book-*.json"))
		if len(files) == 0 {
			t.Errorf("%s: no failure files in %s", c.name, f.Summary.Failures)
			continue
		}
		b, _ := os.ReadFile(files[0])
		if !bytes.Contains(b, []byte(`"path": "data.book.price"`)) {
			t.Errorf("%s: %s does not name the path:\n%s", c.name, files[0], b)
		}
	}
	if code, stderr, _ := load(good, closed, "--queries", q, "--reference", good); code != exitcode.OK {
		t.Errorf("differential against itself: exit %d, %s", code, stderr)
	}
}
