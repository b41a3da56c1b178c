package drive

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gqlbench/gqlbench/drive/wire"
	"github.com/gqlbench/gqlbench/verify"
)

// TestPreflightWith: the preflight judges a user's API as the run will and
// says what happened in the user's terms: a 401 wants credentials (or
// refuses those given) and names the header flags; a rejected operation
// is not blamed on the benchmark's schema; with the run's --ignore-path a
// difference there is no warning, and without it the warning names the
// first path that differs.
func TestPreflightWith(t *testing.T) {
	var tokenValue atomic.Value // set while the server's goroutines read it
	tokenValue.Store("")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if token := tokenValue.Load().(string); token != "" && r.Header.Get("Authorization") != "Bearer "+token {
			w.WriteHeader(401)
			w.Write([]byte(`{"errors":[{"message":"unauthorized"}]}`))
			return
		}
		var b [4096]byte
		n, _ := r.Body.Read(b[:])
		switch body := string(b[:n]); {
		case strings.Contains(body, "__typename"):
			w.Write(okBody)
		case strings.Contains(body, "isbn"):
			w.WriteHeader(400)
			w.Write([]byte(`{"errors":[{"message":"Cannot query field \"isbn\" on type \"Book\"."}]}`))
		default:
			w.Write([]byte(`{"data":{"book":{"id":"7","price":34.05,"seenAt":12}}}`))
		}
	}))
	defer srv.Close()
	book := func(query string) []wire.Request {
		r := wire.Request{ID: "Book-0001", Template: "Book", Body: []byte(`{"query":"` + query + `"}`),
			Answer: []byte(`{"book":{"id":"7","price":33.05,"seenAt":1}}`)}
		return []wire.Request{r}
	}
	check := func(reqs []wire.Request, header []string, o PreflightOptions) ([]string, error) {
		for i := range reqs {
			h, _ := verify.HashWith(reqs[i].Answer, verify.Options{Ignore: o.Ignore})
			reqs[i].Expect = h
		}
		return PreflightWith(context.Background(), srv.URL, func(r []wire.Request) (wire.Transport, error) {
			return wire.NewHTTP(srv.URL, r, wire.Options{Timeout: time.Second, Header: header})
		}, reqs, o)
	}

	w, err := check(book("{ book { id price seenAt } }"), nil, PreflightOptions{})
	if err != nil || len(w) != 1 || !strings.Contains(w[0], "Book (Book-0001): the answer differs from the expected one: data.book.price: expected 33.05, got 34.05") {
		t.Errorf("a wrong answer: %v %q", err, w)
	}
	var ignore []verify.Path
	for _, p := range []string{"data.book.price", "data.book.seenAt"} {
		path, err := verify.ParsePath(p)
		if err != nil {
			t.Fatal(err)
		}
		ignore = append(ignore, path)
	}
	if w, err := check(book("{ book { id price seenAt } }"), nil, PreflightOptions{Ignore: ignore}); err != nil || len(w) != 0 {
		t.Errorf("the only differences ignored: %v %q", err, w)
	}
	if _, err := check(book("{ book { isbn } }"), nil, PreflightOptions{}); err == nil ||
		!strings.Contains(err.Error(), "is the queries file written for this API?") || strings.Contains(err.Error(), "benchmark") {
		t.Errorf("an operation the API rejects: %v", err)
	}

	tokenValue.Store("t0k3n")
	_, err = check(book("{ book { id } }"), nil, PreflightOptions{})
	if err == nil || !strings.Contains(err.Error(), "wants credentials: it answers HTTP 401 (Unauthorized)") ||
		!strings.Contains(err.Error(), "--header-env Authorization=VAR") || strings.Contains(err.Error(), "not a GraphQL endpoint") {
		t.Errorf("no credentials: %v", err)
	}
	_, err = check(book("{ book { id } }"), []string{"Authorization: Bearer nope"}, PreflightOptions{Headers: 1})
	if err == nil || !strings.Contains(err.Error(), "refuses the credentials given") || strings.Contains(err.Error(), "nope") {
		t.Errorf("wrong credentials: %v", err)
	}
}
