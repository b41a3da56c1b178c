package nodetest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
)

// shopQuery asks the bookshop for something of every kind, through variables
// of every kind: ID, String, Boolean, enum, input object, Int, Float, list.
const shopQuery = `query Shop($id: ID!, $text: String!, $inStock: Boolean, $genre: Genre,
		$filter: BookFilter, $limit: Int, $maxPrice: Float, $ids: [ID!]!) {
	book(id: $id) { id title year price inStock genre author { id name born } reviews { stars text } }
	books(genre: $genre, filter: $filter, limit: $limit, offset: 1) { id title year price }
	search(text: $text, inStockOnly: $inStock) { id title inStock }
	cheap: books(filter: {maxPrice: $maxPrice}, limit: 3) { id price }
	authors(ids: $ids) { name born books { id } }
}`

var shopVariables = map[string]any{
	"id": "7", "text": "harbor", "inStock": true, "genre": "MYSTERY",
	"filter": map[string]any{"minYear": 1990, "maxPrice": 40.5, "inStock": true},
	"limit":  2, "maxPrice": 6.0, "ids": []string{"27", "99", "10"},
}

// shopAnswer is the answer to shopQuery, worked out from yoga.mjs's formulas
// by hand (book k+1, 0-based k: title adjectives[k%12] nouns[5k%17], year
// 1950+29k%73, price (499+1301k%5000)/100, in stock unless k%3 = 2, genre
// genres[k/3%5], author 11k%40+1; author k: firstNames[k%8] lastNames[k/8],
// born 1900+17k%90 unless k%10 = 9).
const shopAnswer = `{"data":{
	"book":{"id":"7","title":"Distant Voyage","year":1978,"price":33.05,"inStock":true,"genre":"SCIENCE",
		"author":{"id":"27","name":"Chiara Duarte","born":1982},
		"reviews":[{"stars":2,"text":"The ending disappoints."},{"stars":4,"text":"Beautifully written."}]},
	"books":[{"id":"79","title":"Distant Atlas","year":2022,"price":19.77},{"id":"94","title":"Frozen Mirror","year":2019,"price":14.92}],
	"search":[{"id":"29","title":"Broken Harbor","inStock":true},{"id":"46","title":"Frozen Harbor","inStock":true},
		{"id":"80","title":"Quiet Harbor","inStock":true},{"id":"97","title":"Silent Harbor","inStock":true},
		{"id":"131","title":"Secret Harbor","inStock":true},{"id":"148","title":"Last Harbor","inStock":true},
		{"id":"182","title":"Crimson Harbor","inStock":true},{"id":"199","title":"Distant Harbor","inStock":true}],
	"cheap":[{"id":"1","price":4.99},{"id":"51","price":5.49},{"id":"101","price":5.99}],
	"authors":[
		{"name":"Chiara Duarte","born":1982,"books":[{"id":"7"},{"id":"47"},{"id":"87"},{"id":"127"},{"id":"167"}]},
		null,
		{"name":"Bruno Barros","born":null,"books":[{"id":"20"},{"id":"60"},{"id":"100"},{"id":"140"},{"id":"180"}]}]}}`

// ask posts query and variables to url and decodes the answer.
func ask(t *testing.T, url, query string, vars map[string]any) any {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"query": query, "variables": vars})
	resp, err := http.Post(url, "application/json", strings.NewReader(string(body)))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d: %s", resp.StatusCode, b)
	}
	return decode(t, string(b))
}

func decode(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("not JSON: %v: %.300s", err, s)
	}
	return v
}

// diff lists the paths (data.book.price) at which got and want differ.
func diff(path string, got, want any) []string {
	g, gok := got.(map[string]any)
	w, wok := want.(map[string]any)
	if gok && wok {
		var out []string
		keys := map[string]bool{}
		for k := range g {
			keys[k] = true
		}
		for k := range w {
			keys[k] = true
		}
		for k := range keys {
			out = append(out, diff(path+"."+k, g[k], w[k])...)
		}
		sort.Strings(out)
		return out
	}
	gl, gok := got.([]any)
	wl, wok := want.([]any)
	if gok && wok && len(gl) == len(wl) {
		var out []string
		for i := range gl {
			out = append(out, diff(fmt.Sprintf("%s[%d]", path, i), gl[i], wl[i])...)
		}
		return out
	}
	if reflect.DeepEqual(got, want) {
		return nil
	}
	return []string{fmt.Sprintf("%s: %v, want %v", path, got, want)}
}

// TestYoga: the bookshop answers a query with variables of every kind right.
func TestYoga(t *testing.T) {
	url := StartYoga(t)
	if d := diff("", ask(t, url, shopQuery, shopVariables), decode(t, shopAnswer)); len(d) > 0 {
		t.Errorf("wrong answer at %d paths:\n%s", len(d), strings.Join(d, "\n"))
	}
	// A negative page is a GraphQL error, not a silent answer.
	got := ask(t, url, `{ books(limit: -1) { id } }`, nil).(map[string]any)
	if errs, _ := got["errors"].([]any); len(errs) != 1 || !strings.Contains(fmt.Sprint(errs[0]), "must not be negative") {
		t.Errorf("limit -1: %v", got)
	}
}

// TestYogaMutate: --mutate changes one field of the answer, the price of
// book 7, and nothing else.
func TestYogaMutate(t *testing.T) {
	url := StartYoga(t, "--mutate")
	d := diff("", ask(t, url, shopQuery, shopVariables), decode(t, shopAnswer))
	if want := []string{".data.book.price: 34.05, want 33.05"}; !slices.Equal(d, want) {
		t.Errorf("--mutate: differences\n%s\nwant\n%s", strings.Join(d, "\n"), strings.Join(want, "\n"))
	}
}

// TestYogaBadArgument: a server that cannot start is reported with its stderr.
func TestYogaBadArgument(t *testing.T) {
	Ensure(t)
	s, err := startYoga("--no-such-flag")
	if err == nil {
		s.stop()
		t.Fatal("yoga.mjs started with an unknown flag")
	}
	if !strings.Contains(err.Error(), "unknown argument --no-such-flag") {
		t.Errorf("the error does not carry the server's stderr: %v", err)
	}
}

// TestAudit: graphql-yoga passes every audit (graphql-http's README lists it
// as compliant), and a server that answers every request with one canned
// response, as gqlbench's null variant does, is caught on the audits that
// need the query read.
func TestAudit(t *testing.T) {
	r := Audit(t, StartYoga(t))
	if r.Total < 50 || r.Error != 0 || r.Warn != 0 {
		t.Errorf("yoga: %s; not ok:\n%s", r, auditList(r.NotOK()))
	}
	canned := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		io.WriteString(w, `{"data":{"__typename":"Query"}}`)
	}))
	defer canned.Close()
	r = Audit(t, canned.URL+"/graphql")
	var warned []string
	for _, a := range r.NotOK() {
		if a.Status == StatusWarn {
			warned = append(warned, a.ID)
		}
	}
	if !slices.Contains(warned, "556A") || !slices.Contains(warned, "86EE") {
		t.Errorf("the canned server: %s; want warnings on 556A (parse failure) and 86EE (variable coercion):\n%s", r, auditList(r.NotOK()))
	}
	for _, a := range r.NotOK() {
		if a.ID == "556A" && (a.HTTPStatus != 200 || !strings.Contains(a.String(), "Response status code is not 400 (got 200 application/json")) {
			t.Errorf("556A is not described with its response: %s", a)
		}
	}
	if w := r.Without("556A"); w.Warn != r.Warn-1 || w.Total != r.Total-1 || slices.ContainsFunc(w.Audits, func(a AuditOutcome) bool { return a.ID == "556A" }) {
		t.Errorf("Without(556A): %s, from %s", w, r)
	}
}

func auditList(as []AuditOutcome) string {
	var b strings.Builder
	for _, a := range as {
		fmt.Fprintf(&b, "  %s\n", a)
	}
	return b.String()
}

func TestNodeMajor(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int
		ok   bool
	}{
		{"v20.11.1", 20, true}, // the usual form
		{"v18.0.0", 18, true},  // the oldest supported
		{"20.11.1", 0, false},  // no v: not node's output
		{"vx.1", 0, false},     // not a number
	} {
		if got, ok := nodeMajor(c.in); got != c.want || ok != c.ok {
			t.Errorf("nodeMajor(%q) = %d, %v; want %d, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}
