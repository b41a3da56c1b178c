package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gqlbench/gqlbench/exitcode"
	"github.com/gqlbench/gqlbench/internal/nodetest"
	"github.com/gqlbench/gqlbench/queryfile"
	"github.com/gqlbench/gqlbench/runfile"
)

// The token of the bookshop started with --token, and the environment
// that holds it for --header-env Authorization=SHOP_AUTH.
const shopToken = "s3cret-token-4711"

func shopEnv(k string) string {
	if k == "SHOP_AUTH" {
		return "Bearer " + shopToken
	}
	return ""
}

// writeFiles writes name → text under dir and returns dir.
func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// shortLoad is the arguments of a short load: one run of 300 ms.
var shortLoad = []string{"--clients", "2", "--duration", "300ms", "--runs", "1", "--interval", "100ms", "--quiet"}

// TestUserAPICredentialsOnYoga: an API behind a bearer token, on
// introspection too. queries --schema URL takes the header flags of record
// and load; without them, every command says that the endpoint wants
// credentials and names --header and --header-env, never "is not a GraphQL
// endpoint"; with a wrong token, that the credentials given are refused;
// the token is written nowhere.
func TestUserAPICredentialsOnYoga(t *testing.T) {
	url := nodetest.StartYoga(t, "--token", shopToken)
	dir := writeFiles(t, map[string]string{
		"shop.graphql": `query Book($id: ID!) { book(id: $id) { id title published } }
query Since($date: Date!) {
  since(date: $date, limit: 2) { id published }
  find(text: "ada") { __typename ... on Author { name } ... on Book { title } }
}
`,
		"vars.csv": "operation,id,date\nBook,1,\nBook,2,\nSince,,2020-01-01\n",
	})
	ops, vars, q := filepath.Join(dir, "shop.graphql"), filepath.Join(dir, "vars.csv"), filepath.Join(dir, "q.jsonl")
	auth := []string{"--header-env", "Authorization=SHOP_AUTH"}

	code, _, stderr := runEnv(shopEnv, "queries", "--ops", ops, "--vars", vars, "--schema", url, "-o", q)
	if code != exitcode.Failure || !strings.Contains(stderr, "HTTP 401") || !strings.Contains(stderr, "--header-env Authorization=VAR") {
		t.Fatalf("queries --schema URL without credentials: exit %d: %s", code, stderr)
	}
	if code, _, stderr := runEnv(shopEnv, "queries", "--ops", ops, "--vars", vars, "--header", "Authorization: Bearer wrong", "--schema", url, "-o", q); code != exitcode.Failure ||
		!strings.Contains(stderr, "check the credentials in the 1 request headers given") || strings.Contains(stderr, "wrong") {
		t.Fatalf("queries --schema URL with a wrong token: exit %d: %s", code, stderr)
	}
	if code, _, stderr := runEnv(shopEnv, append([]string{"queries", "--ops", ops, "--vars", vars, "--schema", url, "-o", q}, auth...)...); code != exitcode.OK {
		t.Fatalf("queries --schema URL --header-env: exit %d: %s", code, stderr)
	}
	if code, _, stderr := runEnv(shopEnv, append([]string{"queries", "--ops", ops, "--vars", vars, "-o", q}, auth...)...); code != exitcode.Usage || !strings.Contains(stderr, "--header-env goes with --schema URL") {
		t.Fatalf("a header flag without --schema URL: exit %d: %s", code, stderr)
	}

	golden := filepath.Join(dir, "golden.jsonl")
	code, _, stderr = runEnv(shopEnv, "record", "--target", url, "--queries", q, "-o", golden, "--quiet")
	if code != exitcode.Failure || !strings.Contains(stderr, "HTTP 401") || !strings.Contains(stderr, "--header-env Authorization=VAR") {
		t.Fatalf("record without credentials: exit %d: %s", code, stderr)
	}
	if code, _, stderr := runEnv(shopEnv, append([]string{"record", "--target", url, "--queries", q, "-o", golden, "--quiet"}, auth...)...); code != exitcode.OK {
		t.Fatalf("record: exit %d: %s", code, stderr)
	}

	out := filepath.Join(dir, "run.jsonl")
	load := func(args ...string) (int, string) {
		code, _, stderr := runEnv(shopEnv, append(append([]string{"load", "--target", url, "--queries", golden, "-o", out}, shortLoad...), args...)...)
		return code, stderr
	}
	code, stderr = load()
	if code == exitcode.OK || !strings.Contains(stderr, "wants credentials") || !strings.Contains(stderr, "--header 'Authorization: Bearer TOKEN'") ||
		!strings.Contains(stderr, "--header-env") || strings.Contains(stderr, "not a GraphQL endpoint") {
		t.Errorf("load without credentials: exit %d: %s", code, stderr)
	}
	code, stderr = load("--header", "Authorization: Bearer not-the-token")
	if code == exitcode.OK || !strings.Contains(stderr, "refuses the credentials given") || strings.Contains(stderr, "not-the-token") {
		t.Errorf("load with a wrong token: exit %d: %s", code, stderr)
	}
	code, stderr = load(auth...)
	f, err := runfile.ReadFile(out)
	if code != exitcode.OK || err != nil || f.Summary.Total.Wrong != 0 || f.Summary.Total.Verified == 0 {
		t.Fatalf("load with credentials: exit %d, %v: %s", code, err, stderr)
	}
	if got := strings.Join(f.Header.Queries.Templates, ","); got != "Book,Since" {
		t.Errorf("labels %s", got)
	}
	g, _ := queryfile.ReadFile(golden)
	if a := string(g.Entries[2].Answer); !strings.Contains(a, `"published":"2022-06-08"`) || !strings.Contains(a, `{"__typename":"Author","name":"Ada Abbott"}`) {
		t.Errorf("the custom scalar and the union's answer: %s", a)
	}
	b, _ := os.ReadFile(out)
	if strings.Contains(string(b), shopToken) {
		t.Errorf("the token is in the run file")
	}
}

// TestUserAPIPreflightOnYoga: the preflight speaks of the user's API as
// such. An API without automatic persisted queries is said to be one under
// --apq; an operation the API rejects is not blamed on "the benchmark
// schema"; and the preflight judges answers with the run's own checker:
// with --ignore-path on the one field that differs it warns of nothing (as
// the run counts nothing wrong), and without, its warning names the first
// path that differs, as the summary does.
func TestUserAPIPreflightOnYoga(t *testing.T) {
	good := nodetest.StartYoga(t)
	mutated := nodetest.StartYoga(t, "--mutate")
	dir := writeFiles(t, map[string]string{
		"shop.graphql": "query Book($id: ID!) { book(id: $id) { id title price } }\n",
		"vars.csv":     "id\n7\n8\n57\n",
		"bad.graphql":  "query Nope { book(id: \"1\") { isbn } }\n",
	})
	q, golden, out := filepath.Join(dir, "q.jsonl"), filepath.Join(dir, "golden.jsonl"), filepath.Join(dir, "run.jsonl")
	if code, _, stderr := run("queries", "--ops", filepath.Join(dir, "shop.graphql"), "--vars", filepath.Join(dir, "vars.csv"), "-o", q); code != exitcode.OK {
		t.Fatalf("queries: %s", stderr)
	}
	if code, _, stderr := run("record", "--target", good, "--queries", q, "-o", golden, "--quiet"); code != exitcode.OK {
		t.Fatalf("record: %s", stderr)
	}
	load := func(target, queries string, args ...string) (int, string) {
		code, _, stderr := run(append(append([]string{"load", "--target", target, "--queries", queries, "-o", out}, shortLoad...), args...)...)
		return code, stderr
	}

	code, stderr := load(good, golden, "--apq")
	if code == exitcode.OK || !strings.Contains(stderr, "answers GraphQL but not automatic persisted queries (--apq)") || strings.Contains(stderr, "not a GraphQL endpoint") {
		t.Errorf("--apq against an API without it: exit %d: %s", code, stderr)
	}
	code, _, stderr = run("record", "--target", good, "--queries", q, "-o", filepath.Join(dir, "apq.jsonl"), "--apq")
	if code != exitcode.Usage || !strings.Contains(stderr, "answers GraphQL but not automatic persisted queries (--apq): Book-0001 sent in full is answered") {
		t.Errorf("record --apq against an API without it: exit %d: %s", code, stderr)
	}

	if code, _, stderr := run("queries", "--ops", filepath.Join(dir, "bad.graphql"), "-o", filepath.Join(dir, "bad.jsonl")); code != exitcode.OK {
		t.Fatalf("queries: %s", stderr)
	}
	code, stderr = load(good, filepath.Join(dir, "bad.jsonl"), "--check", "status")
	if code == exitcode.OK || !strings.Contains(stderr, "the server rejects Nope") || !strings.Contains(stderr, "is the queries file written for this API?") ||
		!strings.Contains(stderr, `Cannot query field \"isbn\"`) || strings.Contains(stderr, "benchmark") {
		t.Errorf("an operation the API rejects: exit %d: %s", code, stderr)
	}

	code, stderr = load(mutated, golden, "--ignore-path", "data.book.price")
	f, _ := runfile.ReadFile(out)
	if code != exitcode.OK || f == nil || f.Summary.Total.Wrong != 0 || strings.Contains(stderr, "differs") {
		t.Errorf("--ignore-path on the field that differs: exit %d, the preflight: %s", code, stderr)
	}
	code, stderr = load(mutated, golden)
	if code != exitcode.Check || !strings.Contains(stderr, "warning: Book (Book-0001): the answer differs from the expected one: data.book.price: expected 33.05, got 34.05") {
		t.Errorf("a wrong answer: exit %d, the preflight: %s", code, stderr)
	}
}

// TestUserAPIListVariablesOnYoga: a CSV cell for a list type is JSON when
// it starts with [, and any other value stands for a list of one — a
// string, an enum, a number — while null is the list's; the API takes every
// one of them, as variables and as literals.
func TestUserAPIListVariablesOnYoga(t *testing.T) {
	url := nodetest.StartYoga(t)
	dir := writeFiles(t, map[string]string{
		"tagged.graphql": "query Tagged($tags: [String!], $genres: [Genre!], $years: [Int!]) {\n  tagged(tags: $tags, genres: $genres, years: $years, limit: 3) { id tags genre year }\n}\n",
		"vars.csv":       "tags,genres,years\nclassic,,\n,MYSTERY,\n,,1978\nnull,,\n\"[\"\"classic\"\", \"\"award\"\"]\",\"[\"\"POETRY\"\"]\",\"[1978, 2001]\"\n",
	})
	want := []string{`{"tags":["classic"]}`, `{"genres":["MYSTERY"]}`, `{"years":[1978]}`, `{"tags":null}`,
		`{"genres":["POETRY"],"tags":["classic","award"],"years":[1978,2001]}`}
	for _, literal := range []bool{false, true} {
		q := filepath.Join(dir, "q.jsonl")
		args := []string{"queries", "--ops", filepath.Join(dir, "tagged.graphql"), "--vars", filepath.Join(dir, "vars.csv"), "--schema", url, "-o", q}
		if literal {
			args = append(args, "--literal")
		}
		if code, _, stderr := run(args...); code != exitcode.OK {
			t.Fatalf("queries (literal %v): exit %d: %s", literal, code, stderr)
		}
		f, err := queryfile.ReadFile(q)
		if err != nil || len(f.Entries) != len(want) {
			t.Fatalf("%v, %d entries", err, len(f.Entries))
		}
		for i, e := range f.Entries {
			if literal {
				if strings.Contains(e.Query, "$") {
					t.Errorf("literal %s: %s", e.ID, e.Query)
				}
				continue
			}
			if string(e.Variables) != want[i] {
				t.Errorf("%s: variables %s, want %s", e.ID, e.Variables, want[i])
			}
		}
		golden := filepath.Join(dir, "golden.jsonl")
		if code, _, stderr := run("record", "--target", url, "--queries", q, "-o", golden, "--quiet"); code != exitcode.OK {
			t.Fatalf("the API refuses a value (literal %v): %s", literal, stderr)
		}
		g, _ := queryfile.ReadFile(golden)
		var a struct {
			Tagged []struct {
				Tags  []string
				Genre string
				Year  int
			}
		}
		json.Unmarshal(g.Entries[0].Answer, &a)
		if len(a.Tagged) == 0 || a.Tagged[0].Tags[0] != "classic" {
			t.Errorf("the answer to tags \"classic\": %s", g.Entries[0].Answer)
		}
	}
	bad := writeFiles(t, map[string]string{"v.csv": "tags,genres,years\n,mystery,\n"})
	code, _, stderr := run("queries", "--ops", filepath.Join(dir, "tagged.graphql"), "--vars", filepath.Join(bad, "v.csv"), "--schema", url)
	if code != exitcode.Failure || !strings.Contains(stderr, "row 1 (line 2), column genres ($genres: [Genre!] of operation Tagged): \"mystery\" is not a value of the enum Genre") {
		t.Errorf("a wrong enum value: exit %d: %s", code, stderr)
	}
}

// TestUserAPIMutationsOnYoga: a file that holds a mutation. queries,
// record and load say so; record sends every entry one at a time in file
// order, a repeated mutation too (each review gets the next id of the
// server's counter, in file order); --method GET sends the queries by GET
// and the mutations by POST, and the run file says so; and a load checked
// against the recorded answers passes with the ids and the list a write
// changes ignored.
func TestUserAPIMutationsOnYoga(t *testing.T) {
	url := nodetest.StartYoga(t)
	dir := writeFiles(t, map[string]string{
		"shop.graphql": `query Reviews($bookId: ID!) { book(id: $bookId) { id title reviews { id stars } } }

mutation AddReview($bookId: ID!, $stars: Int!) { addReview(bookId: $bookId, stars: $stars) { id stars } }
`,
		"vars.csv": "operation,bookId,stars\nReviews,3,\nAddReview,3,5\nAddReview,3,5\nReviews,4,\n",
	})
	q, golden, out := filepath.Join(dir, "q.jsonl"), filepath.Join(dir, "golden.jsonl"), filepath.Join(dir, "run.jsonl")
	code, _, stderr := run("queries", "--ops", filepath.Join(dir, "shop.graphql"), "--vars", filepath.Join(dir, "vars.csv"), "-o", q)
	if code != exitcode.OK || !strings.Contains(stderr, "warning: 2 of 4 entries run mutations (AddReview)") {
		t.Fatalf("queries: exit %d: %s", code, stderr)
	}
	code, _, stderr = run("record", "--target", url, "--queries", q, "-o", golden)
	if code != exitcode.OK || !strings.Contains(stderr, "2 of 4 entries run mutations (AddReview): every entry is sent one at a time, in file order") {
		t.Fatalf("record: exit %d: %s", code, stderr)
	}
	g, _ := queryfile.ReadFile(golden)
	var ids []string
	for _, e := range g.Entries {
		if e.Label == "AddReview" {
			ids = append(ids, string(e.Answer))
		}
	}
	if strings.Join(ids, " ") != `{"addReview":{"id":"r1","stars":5}} {"addReview":{"id":"r2","stars":5}}` {
		t.Errorf("the mutations were not recorded one at a time in file order: %s", ids)
	}

	load := func(args ...string) (int, string, *runfile.File) {
		code, _, stderr := run(append(append([]string{"load", "--target", url, "-o", out}, shortLoad...), args...)...)
		f, _ := runfile.ReadFile(out)
		return code, stderr, f
	}
	code, _, stderr = run("load", "--target", url, "-o", out, "--queries", q, "--check", "status", "--runs", "2", "--duration", "200ms", "--interval", "100ms")
	if code != exitcode.OK || !strings.Contains(stderr, "load: 2 runs of 200ms each (the first a warm-up): 400ms in all; --runs N and --duration D change it") {
		t.Errorf("load does not say how long it runs: exit %d: %s", code, stderr)
	}
	code, stderr, f := load("--queries", q, "--check", "status", "--method", "GET")
	if code != exitcode.OK || f == nil || f.Summary.Total.Errors != 0 {
		t.Fatalf("--method GET with a mutation: exit %d: %s", code, stderr)
	}
	if p := f.Header.Params; p.Method != "GET" || p.MutationMethod != "POST" || p.Mutations != 2 {
		t.Errorf("the header: method %q, mutation_method %q, mutations %d", p.Method, p.MutationMethod, p.Mutations)
	}
	if !strings.Contains(stderr, "warning: 2 of 4 entries run mutations (AddReview): every run changes the API's state") ||
		!strings.Contains(stderr, "--method GET sends queries by GET and the 2 mutations by POST") {
		t.Errorf("load's warnings: %s", stderr)
	}
	code, stderr, f = load("--queries", golden)
	if code != exitcode.Check || f.Summary.Total.Wrong == 0 {
		t.Errorf("the recorded answers after writes: exit %d: %s", code, stderr)
	}
	code, stderr, f = load("--queries", golden, "--ignore-path", "data.addReview.id", "--ignore-path", "data.book.reviews")
	if code != exitcode.OK || f.Summary.Total.Wrong != 0 || f.Summary.Total.Verified == 0 {
		t.Errorf("with the ids and the growing list ignored: exit %d: %s", code, stderr)
	}
}

// pagesOps pages through the bookshop's connection: each page takes $after
// from the page before's pageInfo.endCursor.
const pagesOps = `query FirstPage($first: Int) {
  booksPage(first: $first) { nodes { id title price } pageInfo { endCursor hasNextPage } }
}

# gqlbench: after FirstPage $after=booksPage.pageInfo.endCursor
query NextPage($after: String, $first: Int) {
  booksPage(first: $first, after: $after) { nodes { id title price } pageInfo { endCursor hasNextPage } }
}

# gqlbench: after NextPage $after=data.booksPage.pageInfo.endCursor
query ThirdPage($after: String, $first: Int) {
  booksPage(first: $first, after: $after) { nodes { id price } pageInfo { endCursor } }
}
`

// TestUserAPIChainsOnYoga: operations chained in .graphql files with after
// markers, their values from a CSV: each entry pages through a connection,
// every page after the first taking $after from the page before's
// endCursor; the recorded answer holds every page, and a wrong value on
// a later page (book 7 on the second or third) is caught and named by its
// path.
func TestUserAPIChainsOnYoga(t *testing.T) {
	good := nodetest.StartYoga(t)
	mutated := nodetest.StartYoga(t, "--mutate")
	dir := writeFiles(t, map[string]string{"pages.graphql": pagesOps, "vars.csv": "first\n3\n4\n"})
	q, golden, out := filepath.Join(dir, "q.jsonl"), filepath.Join(dir, "golden.jsonl"), filepath.Join(dir, "run.jsonl")
	if code, _, stderr := run("queries", "--ops", filepath.Join(dir, "pages.graphql"), "--vars", filepath.Join(dir, "vars.csv"), "--schema", good, "-o", q); code != exitcode.OK {
		t.Fatalf("queries: exit %d: %s", code, stderr)
	}
	f, err := queryfile.ReadFile(q)
	if err != nil || len(f.Entries) != 2 || f.Entries[0].ID != "FirstPage-0001" || len(f.Entries[0].GraphQLPlan) != 1 || f.Entries[0].Query != "" {
		t.Fatalf("the chain's entries: %v %+v", err, f.Entries)
	}
	if b, _ := json.Marshal(f.Entries[0].GraphQLPlan[0].Then[0].Body); !strings.Contains(string(b), `{.booksPage.pageInfo.endCursor}`) {
		t.Errorf("the second step's variables: %s", b)
	}
	if code, _, stderr := run("record", "--target", good, "--queries", q, "-o", golden, "--quiet"); code != exitcode.OK {
		t.Fatalf("record: exit %d: %s", code, stderr)
	}
	g, _ := queryfile.ReadFile(golden)
	var a struct {
		FirstPage struct {
			BooksPage struct{ Nodes []struct{ ID string } }
			NextPage  struct {
				BooksPage struct{ Nodes []struct{ ID string } }
				ThirdPage struct {
					BooksPage struct{ Nodes []struct{ ID string } }
				}
			}
		}
	}
	if err := json.Unmarshal(g.Entries[0].Answer, &a); err != nil {
		t.Fatal(err)
	}
	ids := func(ns []struct{ ID string }) string {
		var s []string
		for _, n := range ns {
			s = append(s, n.ID)
		}
		return strings.Join(s, ",")
	}
	if got := ids(a.FirstPage.BooksPage.Nodes) + " " + ids(a.FirstPage.NextPage.BooksPage.Nodes) + " " + ids(a.FirstPage.NextPage.ThirdPage.BooksPage.Nodes); got != "1,2,3 4,5,6 7,8,9" {
		t.Errorf("the pages recorded: %s (%s)", got, g.Entries[0].Answer)
	}
	load := func(target string) (int, string, *runfile.File) {
		code, _, stderr := run(append([]string{"load", "--target", target, "--queries", golden, "-o", out}, shortLoad...)...)
		f, _ := runfile.ReadFile(out)
		return code, stderr, f
	}
	if code, stderr, f := load(good); code != exitcode.OK || f.Summary.Total.Wrong != 0 || f.Summary.Total.Verified == 0 {
		t.Errorf("the chain against the right server: exit %d: %s", code, stderr)
	}
	code, stderr, r := load(mutated)
	if code != exitcode.Check || !strings.Contains(r.Summary.FirstWrong, "data.FirstPage.NextPage.") || !strings.Contains(r.Summary.FirstWrong, "price: expected 33.05, got 34.05") {
		t.Errorf("a wrong price on the third page: exit %d, first wrong %q: %s", code, r.Summary.FirstWrong, stderr)
	}

	for _, c := range []struct{ ops, err string }{
		{"# gqlbench: after Nope $after=a.b\nquery Q($after: String) { booksPage(after: $after) { nodes { id } } }\n",
			"bad.graphql:1:1: operation Q runs after Nope, which is not an operation"},
		{"query A { booksPage { pageInfo { endCursor } } }\n# gqlbench: after A $after=booksPage.pageInfo.endCursor\nquery B($after: String, $first: Int!) { booksPage(first: $first, after: $after) { nodes { id } } }\n",
			"bad.graphql:3:25: $first: operation B requires it, and it is neither taken from A's answer"},
		{"query A { a }\n# gqlbench: after A after=a.b\nquery B($after: String) { b(x: $after) }\n",
			`bad.graphql:2:1: "# gqlbench: after A after=a.b": "after=a.b": want $var=path`},
	} {
		bad := writeFiles(t, map[string]string{"bad.graphql": c.ops})
		code, _, stderr := run("queries", "--ops", filepath.Join(bad, "bad.graphql"))
		if code != exitcode.Failure || !strings.Contains(stderr, c.err) {
			t.Errorf("%q: exit %d: %s, want %q", c.ops, code, stderr, c.err)
		}
	}
}
