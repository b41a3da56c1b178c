package all_test

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib" // database/sql over PostgreSQL, for counting rows

	"github.com/gqlbench/gqlbench/benchdb"
	"github.com/gqlbench/gqlbench/dataset"
	"github.com/gqlbench/gqlbench/store"
)

// r is the first reserved nr, the sandbox professor's, as an ID.
var r = fmt.Sprint(dataset.Reserved)

// plainDB opens the database at url with database/sql, for the tests' own SQL.
func plainDB(t *testing.T, url string) *sql.DB {
	t.Helper()
	var db *sql.DB
	var err error
	if strings.HasPrefix(url, "sqlite:") {
		db, err = benchdb.OpenSQLite(store.SQLitePath(url))
	} else {
		db, err = sql.Open("pgx", url)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// written counts the rows of table in the reserved range.
func written(t *testing.T, db *sql.DB, table string) int {
	t.Helper()
	var n int
	if err := db.QueryRow(fmt.Sprintf("SELECT COUNT(*) FROM %s WHERE nr >= %d", table, dataset.Reserved)).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// gql is a GraphQL response.
type gql struct {
	Data   map[string]json.RawMessage
	Errors []struct{ Message string }
}

// ask sends a GraphQL request and wants HTTP 200.
func (c client) ask(query string, vars map[string]any) gql {
	c.t.Helper()
	status, body := c.query(query, vars)
	var g gql
	if err := json.Unmarshal(body, &g); err != nil || status != http.StatusOK {
		c.t.Fatalf("%s: %d %s (%v)", query, status, body, err)
	}
	return g
}

// field is the JSON of data field name, failing on errors.
func (g gql) field(t *testing.T, name string) string {
	t.Helper()
	if len(g.Errors) > 0 {
		t.Fatalf("errors: %v", g.Errors)
	}
	return normal(t, []byte(g.Data[name]))
}

// testWrites: the writes of both APIs on every database: CRUD across them,
// concurrent creates and deletes, bad input, reads untouched, reset.
func testWrites(t *testing.T, f *fixture) {
	for _, d := range f.dbs {
		t.Run(d.name, func(t *testing.T) {
			rc := serveREST(t, d.url)
			db := plainDB(t, d.url)
			for _, v := range dbVariants(false, false) {
				t.Run("crud/"+v.Name, func(t *testing.T) {
					gc := serve(t, v.Name, open(t, v, d.url))
					testPublicationCRUD(t, rc, gc, v.Name)
					testStudentCRUD(t, rc, gc, v.Name)
				})
			}
			t.Run("concurrent", func(t *testing.T) { testConcurrentWrites(t, f, d.url, rc, db) })
			t.Run("bad-input", func(t *testing.T) { testWriteBadInput(t, f, d.url, rc, db) })
			t.Run("reads-untouched", func(t *testing.T) { testReadsUntouched(t, f, d.url, rc, db) })
		})
	}
}

// testPublicationCRUD: REST creates, GraphQL reads, updates and deletes,
// REST sees each step; a second delete is a 404 in REST and a 200 with an
// error in GraphQL.
func testPublicationCRUD(t *testing.T, rc restClient, gc client, name string) {
	title := "crud of " + name
	status, hdr, body := rc.do(http.MethodPost, "/rest/publications", fmt.Sprintf(`{"title":%q,"abstract":"a b c","mainAuthor":%q}`, title, r))
	if status != http.StatusCreated {
		t.Fatalf("POST: %d %s", status, body)
	}
	var created obj
	json.Unmarshal(body, &created)
	nr := created["id"].(string)
	if hdr.Get("Location") != "/rest/publications/"+nr || created["title"] != title || !dataset.IsReserved(mustInt(t, nr)) {
		t.Fatalf("POST: Location %q, body %s", hdr.Get("Location"), body)
	}
	read := `query($n: ID!) { publication(nr: $n) { id title abstract authors { id __typename } } }`
	want := normal(t, obj{"id": nr, "title": title, "abstract": "a b c", "authors": []obj{{"id": r, "__typename": "Professor"}}})
	if got := gc.ask(read, map[string]any{"n": nr}).field(t, "publication"); got != want {
		t.Errorf("GraphQL read after REST create: %s, want %s", got, want)
	}
	upd := gc.ask(`mutation($n: ID!) { updatePublication(nr: $n, input: {title: "renamed"}) { id title abstract } }`, map[string]any{"n": nr})
	if got := upd.field(t, "updatePublication"); got != normal(t, obj{"id": nr, "title": "renamed", "abstract": "a b c"}) {
		t.Errorf("update's payload: %s", got)
	}
	rc.same("/rest/publications/"+nr, rc.get("/rest/publications/"+nr), obj{"id": nr, "title": "renamed", "abstract": "a b c"})
	del := gc.ask(`mutation($n: ID!) { deletePublication(nr: $n) { id title } }`, map[string]any{"n": nr})
	if got := del.field(t, "deletePublication"); got != normal(t, obj{"id": nr, "title": "renamed"}) {
		t.Errorf("delete's payload (the row as it was): %s", got)
	}
	for _, m := range []string{http.MethodGet, http.MethodDelete} {
		if status, _, body := rc.do(m, "/rest/publications/"+nr, ""); status != http.StatusNotFound || !strings.Contains(string(body), "no Publication") {
			t.Errorf("%s after the delete: %d %s, want 404", m, status, body)
		}
	}
	again := gc.ask(`mutation($n: ID!) { deletePublication(nr: $n) { id } }`, map[string]any{"n": nr})
	if string(again.Data["deletePublication"]) != "null" || len(again.Errors) != 1 || !strings.Contains(again.Errors[0].Message, "no Publication") {
		t.Errorf("GraphQL delete of a missing row: %s %v, want 200, null and an error", again.Data["deletePublication"], again.Errors)
	}
}

// testStudentCRUD: GraphQL creates, REST reads, patches and deletes,
// GraphQL sees each step.
func testStudentCRUD(t *testing.T, rc restClient, gc client, name string) {
	g := gc.ask(`mutation($d: ID!) { createUndergraduateStudent(input: {telephone: "555-000-0000", emailAddress: "new@sandbox", age: 21, memberOf: $d}) {
		id age memberOf { id } advisor { id } } }`, map[string]any{"d": r})
	var created obj
	json.Unmarshal(g.Data["createUndergraduateStudent"], &created)
	nr, _ := created["id"].(string)
	if len(g.Errors) > 0 || nr == "" || created["advisor"] != nil {
		t.Fatalf("create: %v %v", created, g.Errors)
	}
	path := "/rest/undergraduateStudents/" + nr
	want := obj{"id": nr, "telephone": "555-000-0000", "emailAddress": "new@sandbox", "age": 21, "memberOf": r, "advisor": nil}
	rc.same(path, rc.get(path), want)
	status, _, body := rc.do(http.MethodPatch, path, fmt.Sprintf(`{"age": 22, "advisor": %q}`, r))
	want["age"], want["advisor"] = 22, r
	if status != http.StatusOK {
		t.Fatalf("PATCH: %d %s", status, body)
	}
	rc.same("PATCH "+path, body, want)
	read := `query($n: ID!) { undergraduateStudent(nr: $n) { age advisor { id } } }`
	if got := gc.ask(read, map[string]any{"n": nr}).field(t, "undergraduateStudent"); got != normal(t, obj{"age": 22, "advisor": obj{"id": r}}) {
		t.Errorf("%s: GraphQL read after PATCH: %s", name, got)
	}
	if !strings.Contains(string(rc.get("/rest/professors/"+r+"/supervisedUndergraduateStudents")), `"id":"`+nr+`"`) {
		t.Errorf("the sandbox professor's students miss %s", nr)
	}
	if status, _, body := rc.do(http.MethodDelete, path, ""); status != http.StatusNoContent || len(body) != 0 {
		t.Fatalf("DELETE: %d %s", status, body)
	}
	if got := gc.ask(read, map[string]any{"n": nr}); string(got.Data["undergraduateStudent"]) != "null" {
		t.Errorf("GraphQL read after DELETE: %s", got.Data["undergraduateStudent"])
	}
	again := gc.ask(`mutation($n: ID!) { deleteUndergraduateStudent(nr: $n) { id } }`, map[string]any{"n": nr})
	if len(again.Errors) != 1 || string(again.Data["deleteUndergraduateStudent"]) != "null" {
		t.Errorf("GraphQL delete of a missing row: %s %v", again.Data["deleteUndergraduateStudent"], again.Errors)
	}
}

func mustInt(t *testing.T, s string) int64 {
	t.Helper()
	var n int64
	if _, err := fmt.Sscan(s, &n); err != nil {
		t.Fatal(err)
	}
	return n
}
