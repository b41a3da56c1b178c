package operation

import (
	"strings"
	"testing"
)

// benchConfig is a graphql-bench configuration as its README writes them:
// anchors, per-query strategies, headers with a number for a value.
const benchConfig = `url: 'http://localhost:8085/v1/graphql'
headers:
  X-Hasura-Admin-Secret: my-secret
  X-Hasura-User-Id: 1
debug: false
constants:
  settings: &settings
    tools: [autocannon, k6]
    connections: 50
queries:
  - name: SearchAlbumsWithArtist
    <<: *settings
    execution_strategy: REQUESTS_PER_SECOND
    rps: 2000
    duration: 10s
    query: |
      query SearchAlbumsWithArtist {
        albums(where: {title: {_like: "%Rock%"}}) {
          id
          title
        }
      }
  - name: AlbumByPK
    tools: [k6]
    execution_strategy: FIXED_REQUEST_NUMBER
    requests: 10000
    query: |
      # gqlbench: unordered
      query AlbumByPK($id: Int!, $tags: [String!]) {
        albums_by_pk(id: $id) { id title tags(in: $tags) }
      }
    variables:
      id: 1
      tags: [rock, "pop & <jazz>"]
`

// TestImportGraphQLBench: one entry per query, its variables as given; the
// headers kept apart; every other setting noted with its equivalent.
func TestImportGraphQLBench(t *testing.T) {
	cfg, err := ImportGraphQLBench([]byte(benchConfig), "config.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.URL != "http://localhost:8085/v1/graphql" {
		t.Errorf("url %q", cfg.URL)
	}
	if len(cfg.Headers) != 2 || cfg.Headers[0] != (Header{"X-Hasura-Admin-Secret", "my-secret"}) || cfg.Headers[1] != (Header{"X-Hasura-User-Id", "1"}) {
		t.Errorf("headers %+v", cfg.Headers)
	}
	if len(cfg.Entries) != 2 {
		t.Fatalf("%d entries", len(cfg.Entries))
	}
	a, b := cfg.Entries[0], cfg.Entries[1]
	if a.ID != "SearchAlbumsWithArtist-0001" || a.Label != "SearchAlbumsWithArtist" || a.Variables != nil || a.Unordered ||
		!strings.HasPrefix(a.Query, "query SearchAlbumsWithArtist {") || !strings.HasSuffix(a.Query, "}") {
		t.Errorf("first entry %+v", a)
	}
	if b.ID != "AlbumByPK-0001" || string(b.Variables) != `{"id":1,"tags":["rock","pop & <jazz>"]}` || !b.Unordered {
		t.Errorf("second entry %+v (variables %s)", b, b.Variables)
	}
	notes := strings.Join(cfg.Notes, "\n")
	for _, want := range []string{
		"graphql-bench's rps is left out: gqlbench load --mode open --rate R",
		"graphql-bench's duration is left out: gqlbench load --duration D",
		"graphql-bench's connections is left out: gqlbench load --connections N",
		"graphql-bench's requests is left out",
		"graphql-bench's tools is left out",
		"graphql-bench's execution_strategy is left out",
		"graphql-bench's debug is left out",
	} {
		if !strings.Contains(notes, want) {
			t.Errorf("no note %q in\n%s", want, notes)
		}
	}
	if strings.Contains(notes, "my-secret") {
		t.Error("a header value is in the notes")
	}
}

// TestImportGraphQLBenchErrors: what cannot be imported says why.
func TestImportGraphQLBenchErrors(t *testing.T) {
	q := func(name, query, vars string) string {
		s := "  - name: " + name + "\n    query: " + query + "\n"
		if vars != "" {
			s += "    variables: " + vars + "\n"
		}
		return s
	}
	for _, c := range []struct {
		name, yaml, want string
	}{
		{"not YAML", "url: [", "c.yaml:"},
		{"not a mapping", "- 1\n- 2\n", "not a graphql-bench configuration"},
		{"no url", "queries:\n" + q("A", "'{ a }'", ""), "no url"},
		{"no queries", "url: http://x\n", "no queries"},
		{"no name", "url: http://x\nqueries:\n  - query: '{ a }'\n", "queries[0]: no name"},
		{"no query", "url: http://x\nqueries:\n  - name: A\n", "queries[0] (A): no query"},
		{"duplicate name", "url: http://x\nqueries:\n" + q("A", "'{ a }'", "") + q("A", "'{ b }'", ""), "the name A is used twice"},
		{"syntax error", "url: http://x\nqueries:\n" + q("A", "'query A { a '", ""), "c.yaml: query A:1:"},
		{"two operations", "url: http://x\nqueries:\n" + q("A", "'query A { a } query B { b }'", ""), "holds 2 operations"},
		{"missing variable", "url: http://x\nqueries:\n" + q("A", "'query A($id: Int!) { a(id: $id) }'", ""), "requires $id: Int!"},
		{"variable of the wrong type", "url: http://x\nqueries:\n" + q("A", "'query A($id: Int!) { a(id: $id) }'", "{id: x}"), `"x" is not an Int`},
		{"unknown variable", "url: http://x\nqueries:\n" + q("A", "'{ a }'", "{id: 1}"), "has no variable $id"},
		{"header with a line break", "url: http://x\nheaders:\n  X-A: \"a\\nb\"\nqueries:\n" + q("A", "'{ a }'", ""), "holds a line break"},
		{"header name", "url: http://x\nheaders:\n  'X A': b\nqueries:\n" + q("A", "'{ a }'", ""), `"X A" is not a header name`},
		{"header not text", "url: http://x\nheaders:\n  X-A: {b: 1}\nqueries:\n" + q("A", "'{ a }'", ""), "the value of X-A is not text"},
	} {
		_, err := ImportGraphQLBench([]byte(c.yaml), "c.yaml")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}
