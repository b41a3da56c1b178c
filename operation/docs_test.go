package operation

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gqlbench/gqlbench/queryfile"
)

// TestDocsExample runs the worked example of docs/any-api.md — its files, as
// the page shows them — and compares what it makes with the outputs the
// page shows.
func TestDocsExample(t *testing.T) {
	doc, err := os.ReadFile("../docs/any-api.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := map[string]string{}
	re := regexp.MustCompile("(?s)<!-- example: (\\S+) -->\n```\\w*\n(.*?)```")
	for _, m := range re.FindAllStringSubmatch(string(doc), -1) {
		blocks[m[1]] = m[2]
	}
	dir := t.TempDir()
	for _, name := range []string{"ops/books.graphql", "vars.csv", "schema.graphql", "q.jsonl", "literal.jsonl"} {
		if blocks[name] == "" {
			t.Fatalf("docs/any-api.md has no example %s", name)
		}
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(blocks[name]), 0o644)
	}
	build := func(literal, schema bool) (string, error) {
		set, err := ReadPath(filepath.Join(dir, "ops"))
		if err != nil {
			return "", err
		}
		if schema {
			s, err := LoadSchema(t.Context(), filepath.Join(dir, "schema.graphql"), nil)
			if err != nil {
				return "", err
			}
			if err := set.Validate(s); err != nil {
				return "", err
			}
		}
		vars, err := ReadVarsFile(filepath.Join(dir, "vars.csv"))
		if err != nil {
			return "", err
		}
		res, err := Build(set, vars, Options{Literal: literal})
		if err != nil {
			return "", err
		}
		var b bytes.Buffer
		err = queryfile.Write(&b, res.Entries)
		return b.String(), err
	}
	for _, c := range []struct {
		out             string
		literal, schema bool
	}{{"q.jsonl", false, false}, {"q.jsonl", false, true}, {"literal.jsonl", true, true}} {
		got, err := build(c.literal, c.schema)
		if err != nil {
			t.Fatalf("%s: %v", c.out, err)
		}
		if got != blocks[c.out] {
			t.Errorf("%s: the example makes\n%s\nthe page shows\n%s", c.out, got, blocks[c.out])
		}
	}
	_, err = build(true, false)
	if err == nil || !strings.Contains(string(doc), strings.TrimPrefix(err.Error(), "Books-0001: ")) {
		t.Errorf("--literal without a schema: %v; not as the page says", err)
	}
}
