package all_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/gqlbench/gqlbench/dataset"
	"github.com/gqlbench/gqlbench/server"
	"github.com/gqlbench/gqlbench/store"
)

// writer is one API a concurrent test writes through, safe for goroutines:
// its methods return errors instead of failing the test.
type writer struct {
	name string
	url  string // REST's base, or a GraphQL endpoint
	rest bool
}

func send(method, url, body string) (int, []byte, error) {
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, b, err
}

// create creates a publication titled title and returns its id.
func (w writer) create(title string) (string, error) {
	var status int
	var body []byte
	var err error
	if w.rest {
		status, body, err = send(http.MethodPost, w.url+"/rest/publications", fmt.Sprintf(`{"title":%q,"abstract":"x","mainAuthor":%q}`, title, r))
	} else {
		q, _ := json.Marshal(map[string]any{"query": `mutation($t: String!, $a: ID!) { createPublication(input: {title: $t, abstract: "x", mainAuthor: $a}) { id } }`,
			"variables": map[string]any{"t": title, "a": r}})
		status, body, err = send(http.MethodPost, w.url, string(q))
	}
	if err != nil {
		return "", err
	}
	var out struct {
		ID   string
		Data struct{ CreatePublication struct{ ID string } }
	}
	json.Unmarshal(body, &out)
	id := out.ID + out.Data.CreatePublication.ID
	if (status != http.StatusOK && status != http.StatusCreated) || id == "" {
		return "", fmt.Errorf("%s: create %q: %d %s", w.name, title, status, body)
	}
	return id, nil
}

// remove deletes publication nr.
func (w writer) remove(nr string) error {
	if w.rest {
		status, body, err := send(http.MethodDelete, w.url+"/rest/publications/"+nr, "")
		if err == nil && status != http.StatusNoContent {
			err = fmt.Errorf("%s: delete %s: %d %s", w.name, nr, status, body)
		}
		return err
	}
	q, _ := json.Marshal(map[string]any{"query": `mutation($n: ID!) { deletePublication(nr: $n) { id } }`, "variables": map[string]any{"n": nr}})
	status, body, err := send(http.MethodPost, w.url, string(q))
	var out struct {
		Data struct{ DeletePublication struct{ ID string } }
	}
	json.Unmarshal(body, &out)
	if err == nil && (status != http.StatusOK || out.Data.DeletePublication.ID != nr) {
		err = fmt.Errorf("%s: delete %s: %d %s", w.name, nr, status, body)
	}
	return err
}

// testConcurrentWrites: 20 clients, through REST, batch and compiled at
// once, create 200 publications and delete every second one as they go:
// 200 distinct ids, exactly the 100 kept rows left, each as written.
func testConcurrentWrites(t *testing.T, f *fixture, url string, rc restClient, db *sql.DB) {
	writers := []writer{{name: "rest", url: rc.url, rest: true}}
	for _, name := range []string{"batch", "compiled"} {
		v, _ := server.Lookup(name)
		writers = append(writers, writer{name: name, url: serve(t, name, open(t, v, url)).url})
	}
	before := written(t, db, "publication")
	const clients, each = 20, 10
	kept := make([][]string, clients)
	ids := make([][]string, clients)
	var wg sync.WaitGroup
	for i := range clients {
		wg.Go(func() {
			for j := range each {
				w := writers[(i+j)%len(writers)]
				nr, err := w.create(fmt.Sprintf("concurrent %02d.%02d", i, j))
				if err != nil {
					t.Error(err)
					return
				}
				ids[i] = append(ids[i], nr)
				if j%2 == 0 {
					kept[i] = append(kept[i], nr)
					continue
				}
				if err := writers[(i+j+1)%len(writers)].remove(nr); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	seen := map[string]bool{}
	for _, l := range ids {
		for _, nr := range l {
			if seen[nr] || !dataset.IsReserved(mustInt(t, nr)) {
				t.Errorf("id %s given twice or outside the reserved range", nr)
			}
			seen[nr] = true
		}
	}
	if got := written(t, db, "publication"); got != before+clients*each/2 || len(seen) != clients*each {
		t.Fatalf("%d distinct ids; %d written publications, want %d", len(seen), got, before+clients*each/2)
	}
	for i, l := range kept {
		for k, nr := range l {
			rc.same("/rest/publications/"+nr, rc.get("/rest/publications/"+nr),
				obj{"id": nr, "title": fmt.Sprintf("concurrent %02d.%02d", i, 2*k), "abstract": "x"})
			rc.do(http.MethodDelete, "/rest/publications/"+nr, "")
		}
	}
	if got := written(t, db, "publication"); got != before {
		t.Errorf("%d written publications after deleting the kept ones, want %d", got, before)
	}
}

// rowsWritten counts the written rows of both writable tables.
func rowsWritten(t *testing.T, db *sql.DB) int {
	return written(t, db, "publication") + written(t, db, "undergraduateStudent")
}

// testReadsUntouched: while written rows exist — publications whose titles
// are the QT10 instances' keywords among them — every variant still gives
// the oracle's answer to every template instance; gen --reset-writes then
// leaves exactly the generated dataset, which a running server writes to
// again.
func testReadsUntouched(t *testing.T, f *fixture, url string, rc restClient, db *sql.DB) {
	ctx := context.Background()
	for _, c := range f.cases {
		if kw, ok := c.in.Variables["keyword"].(string); ok && c.in.Template == 10 {
			for _, author := range []int64{dataset.SandboxProfessor, dataset.SandboxLecturer} {
				body := fmt.Sprintf(`{"title":%q,"abstract":%q,"mainAuthor":"%d"}`, kw, kw, author)
				if status, _, b := rc.do(http.MethodPost, "/rest/publications", body); status != http.StatusCreated {
					t.Fatalf("POST: %d %s", status, b)
				}
			}
		}
	}
	rc.do(http.MethodPost, "/rest/undergraduateStudents", fmt.Sprintf(`{"telephone":"1","emailAddress":"e","age":20,"memberOf":%q,"advisor":%q}`, r, r))
	if rowsWritten(t, db) < 3 {
		t.Fatal("no written rows to ignore")
	}
	for _, v := range dbVariants(false, false) {
		if bad := conform(ctx, open(t, v, url), f.cases); len(bad) > 0 {
			t.Errorf("%s with written rows: %d wrong answers, the first: %s", v.Name, len(bad), bad[0])
		}
	}
	for range 2 {
		removed, err := store.ResetWrites(ctx, url)
		if err != nil || removed["publication"] == 0 || removed["university"] != 1 {
			t.Fatalf("reset: %v, %v", removed, err)
		}
		checkGenerated(t, db)
		// The running server makes the sandbox again for its next write.
		if status, _, b := rc.do(http.MethodPost, "/rest/publications", fmt.Sprintf(`{"title":"t","abstract":"a","mainAuthor":%q}`, r)); status != http.StatusCreated {
			t.Fatalf("POST after the reset: %d %s", status, b)
		}
	}
	if _, err := store.ResetWrites(ctx, url); err != nil {
		t.Fatal(err)
	}
	checkGenerated(t, db)
	for _, name := range []string{"batch", "compiled"} {
		v, _ := server.Lookup(name)
		if bad := conform(ctx, open(t, v, url), f.cases); len(bad) > 0 {
			t.Errorf("%s after the reset: %d wrong answers, the first: %s", name, len(bad), bad[0])
		}
	}
}

// checkGenerated: the database holds the generated dataset, row for row.
func checkGenerated(t *testing.T, db *sql.DB) {
	t.Helper()
	ctx := context.Background()
	got, err := store.FingerprintDB(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	want, err := store.GeneratorFingerprint(ctx, testDataset)
	if err != nil {
		t.Fatal(err)
	}
	if got.String() != want.String() {
		t.Errorf("after the reset the database is not the generated dataset:\n%s\nwant\n%s", got.String(), want.String())
	}
}
