package cli

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/gqlbench/gqlbench/exitcode"
	"github.com/gqlbench/gqlbench/queryfile"
	"github.com/gqlbench/gqlbench/runfile"
	"github.com/gqlbench/gqlbench/runfile/schema"
)

// shop is a GraphQL server of another schema than LinGBM's, as far as the
// load generator can tell: it answers { book(id) } with a book whose price
// can be made wrong, whose tags can come in another order, and whose
// seenAt changes with every answer. It speaks POST and GET and automatic
// persisted queries, and remembers the headers it saw.
type shop struct {
	wrongPrice, reversed, apq bool

	mu      sync.Mutex
	seen    []http.Header
	methods map[string]int
	known   map[string]string // persisted queries by hash
	n       int
}

func (s *shop) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Query      string            `json:"query"`
		Variables  map[string]string `json:"variables"`
		Extensions struct {
			PQ struct {
				Hash string `json:"sha256Hash"`
			} `json:"persistedQuery"`
		} `json:"extensions"`
	}
	if r.Method == "GET" {
		q := r.URL.Query()
		req.Query = q.Get("query")
		json.Unmarshal([]byte(q.Get("variables")), &req.Variables)
		json.Unmarshal([]byte(q.Get("extensions")), &req.Extensions)
	} else if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), 400)
		return
	}
	s.mu.Lock()
	s.seen = append(s.seen, r.Header.Clone())
	if s.methods == nil {
		s.methods, s.known = map[string]int{}, map[string]string{}
	}
	s.methods[r.Method]++
	s.n++
	n := s.n
	if h := req.Extensions.PQ.Hash; s.apq && h != "" {
		if req.Query == "" {
			req.Query = s.known[h]
		} else {
			sum := sha256.Sum256([]byte(req.Query))
			if hex.EncodeToString(sum[:]) == h {
				s.known[h] = req.Query
			}
		}
	}
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	switch {
	case req.Query == "":
		w.Write([]byte(`{"errors":[{"message":"PersistedQueryNotFound","extensions":{"code":"PERSISTED_QUERY_NOT_FOUND"}}]}`))
	case strings.Contains(req.Query, "__typename"):
		w.Write([]byte(`{"data":{"__typename":"Query"}}`))
	default:
		id := req.Variables["id"]
		price := "12.5"
		if s.wrongPrice && id == "7" {
			price = "13.5"
		}
		tags := `["a","b"]`
		if s.reversed {
			tags = `["b","a"]`
		}
		w.Write([]byte(`{"data":{"book":{"id":"` + id + `","price":` + price + `,"tags":` + tags + `,"seenAt":` + itoa(n) + `}}}`))
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func (s *shop) start(t *testing.T) string {
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	return srv.URL + "/graphql"
}

// shopQueries writes n entries of one operation of the shop, unordered when
// asked.
func shopQueries(t *testing.T, dir string, n int, unordered bool) string {
	var es []queryfile.Entry
	for i := range n {
		es = append(es, queryfile.Entry{ID: "Book-" + itoa(i), Label: "Book", Query: "query Book($id: ID!) { book(id: $id) { id price tags seenAt } }",
			OperationName: "Book", Variables: json.RawMessage(`{"id":"` + itoa(i) + `"}`), Unordered: unordered})
	}
	var b bytes.Buffer
	if err := queryfile.Write(&b, es); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "shop.jsonl")
	os.WriteFile(path, b.Bytes(), 0o644)
	return path
}

// TestAnyAPIChecking: the three levels of checking against a server of
// another schema. Without any, load refuses; recorded answers and a
// reference catch a wrong field and name its path; status only runs and
// says so; ignored paths and unordered lists are left out.
func TestAnyAPIChecking(t *testing.T) {
	dir := t.TempDir()
	good, bad := (&shop{}).start(t), (&shop{wrongPrice: true}).start(t)
	q := shopQueries(t, dir, 10, false)
	load := func(target string, args ...string) (int, string, *runfile.File) {
		out := filepath.Join(dir, "run.jsonl")
		os.RemoveAll(out + ".failures")
		code, _, stderr := run(append([]string{"load", "--target", target, "--duration", "100ms", "--runs", "1", "--interval", "50ms", "-o", out, "--quiet"}, args...)...)
		f, _ := runfile.ReadFile(out)
		if f != nil {
			schema.CheckFile(t, out)
		}
		return code, stderr, f
	}

	code, stderr, _ := load(good, "--queries", q)
	if code != exitcode.Usage || !strings.Contains(stderr, "10 of 10 queries carry no expected answer") || !strings.Contains(stderr, "--check status") {
		t.Errorf("unchecked load: exit %d, %s", code, stderr)
	}

	golden := filepath.Join(dir, "golden.jsonl")
	if code, _, stderr := run("record", "--target", good, "--queries", q, "-o", golden, "--quiet"); code != exitcode.OK {
		t.Fatalf("record: exit %d, %s", code, stderr)
	}
	if code, stderr, _ := load(good, "--queries", golden); code != exitcode.Check || !strings.Contains(stderr, "data.book.seenAt") {
		t.Errorf("a field that changes by nature was not caught: exit %d, %s", code, stderr)
	}
	for _, c := range []struct {
		name, target string
		args         []string
		code         int
		check        string
	}{
		{"golden, right", good, []string{"--queries", golden, "--ignore-path", "data.book.seenAt"}, exitcode.OK, "golden"},
		{"golden, wrong", bad, []string{"--queries", golden, "--ignore-path", "book.seenAt"}, exitcode.Check, "golden"},
		{"reference, right", good, []string{"--queries", q, "--reference", good, "--ignore-path", "book.seenAt"}, exitcode.OK, "reference"},
		{"reference, wrong", bad, []string{"--queries", q, "--reference", good, "--ignore-path", "book.seenAt"}, exitcode.Check, "reference"},
		{"status only", bad, []string{"--queries", q, "--check", "status"}, exitcode.OK, "status"},
	} {
		code, stderr, f := load(c.target, c.args...)
		if code != c.code {
			t.Errorf("%s: exit %d, want %d: %s", c.name, code, c.code, stderr)
			continue
		}
		if f == nil || f.Header.Params.Check != c.check {
			t.Errorf("%s: the run file does not say it checked by %s", c.name, c.check)
			continue
		}
		if c.code != exitcode.Check {
			continue
		}
		want := "Book-7 data.book.price: expected 12.5, got 13.5"
		if f.Summary.FirstWrong != want || !strings.Contains(stderr, want) {
			t.Errorf("%s: first wrong %q, stderr %s; want %q", c.name, f.Summary.FirstWrong, stderr, want)
		}
		b, err := os.ReadFile(filepath.Join(f.Summary.Failures, "Book-7.json"))
		if err != nil || !bytes.Contains(b, []byte(`"path": "data.book.price"`)) || !bytes.Contains(b, []byte(`"expected": {`)) {
			t.Errorf("%s: the failures file: %v\n%s", c.name, err, b)
		}
	}

	// A list in another order is wrong, unless the operation is unordered.
	rev := (&shop{reversed: true}).start(t)
	if code, stderr, _ := load(rev, "--queries", q, "--reference", good, "--ignore-path", "book.seenAt"); code != exitcode.Check || !strings.Contains(stderr, "data.book.tags[0]") {
		t.Errorf("reversed list: exit %d, %s", code, stderr)
	}
	qu := shopQueries(t, dir, 10, true)
	if code, stderr, _ := load(rev, "--queries", qu, "--reference", good, "--ignore-path", "book.seenAt"); code != exitcode.OK {
		t.Errorf("reversed list of an unordered operation: exit %d, %s", code, stderr)
	}
}

// TestAnyAPIBadChecks: the checking flags' misuse and a reference that
// cannot answer are clear errors before any load.
func TestAnyAPIBadChecks(t *testing.T) {
	dir := t.TempDir()
	good := (&shop{}).start(t)
	q := shopQueries(t, dir, 3, false)
	down := httptest.NewServer(http.NotFoundHandler())
	down.Close()
	failing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"errors":[{"message":"no such field book"}]}`))
	}))
	defer failing.Close()
	for _, c := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"status and reference", []string{"--check", "status", "--reference", good}, exitcode.Usage, "exclude each other"},
		{"unknown check", []string{"--check", "answers"}, exitcode.Usage, "unknown --check"},
		{"ignore without answers", []string{"--check", "status", "--ignore-path", "a.b"}, exitcode.Usage, "nothing to leave out"},
		{"bad ignore path", []string{"--reference", good, "--ignore-path", "a..b"}, exitcode.Usage, "--ignore-path"},
		{"reference down", []string{"--reference", down.URL}, exitcode.Failure, "cannot reach"},
		{"reference with errors", []string{"--reference", failing.URL}, exitcode.Failure, "no such field book"},
		{"bad method", []string{"--check", "status", "--method", "PUT"}, exitcode.Usage, "--method"},
		{"statements in SQLite", []string{"--check", "status", "--db-statements", "sqlite:/tmp/x.db"}, exitcode.Usage, "PostgreSQL only"},
		{"statements from an unset env", []string{"--check", "status", "--db-statements", "env"}, exitcode.Usage, "$GQLBENCH_DB is not set"},
		{"unknown label", []string{"--check", "status", "--templates", "Book,Shelf"}, exitcode.Failure, `no entry is labelled "Shelf" (the labels are Book)`},
	} {
		out := filepath.Join(dir, "run.jsonl")
		os.Remove(out)
		code, _, stderr := run(append([]string{"load", "--target", good, "--queries", q, "--duration", "100ms", "-o", out}, c.args...)...)
		if code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("%s: exit %d, %q; want %d and %q", c.name, code, stderr, c.code, c.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%s: a run file was written although nothing ran", c.name)
		}
	}
	if code, _, stderr := run("record", "--target", failing.URL, "--queries", q); code != exitcode.Failure || !strings.Contains(stderr, "did not answer 3 of 3") {
		t.Errorf("record from a failing server: exit %d, %s", code, stderr)
	}
}

// TestAnyAPIRequests: requests as real clients send them — GET, persisted
// queries with their misses counted, headers made anew per request — and
// secret header values appear in no output.
func TestAnyAPIRequests(t *testing.T) {
	dir := t.TempDir()
	s := &shop{apq: true}
	url := s.start(t)
	q := shopQueries(t, dir, 5, false)
	out := filepath.Join(dir, "run.jsonl")
	hf := filepath.Join(dir, "headers")
	os.WriteFile(hf, []byte("# a comment\nX-Api-Key: s3cr3t-file\nX-Trace: {{uuid}}-{{seq}}\n"), 0o600)
	var stdout, stderr bytes.Buffer
	args := []string{"load", "--target", url, "--queries", q, "--check", "status", "--duration", "200ms", "--runs", "1", "--interval", "50ms",
		"-o", out, "--records", filepath.Join(dir, "rec.csv"), "--method", "GET", "--apq", "--no-check",
		"--header", "Authorization: Bearer s3cr3t-flag", "--header=Cookie: s=s3cr3t-cookie", "--header-file", hf, "--secret-header", "x-api-key",
		"--header-env", "X-Env-Token=TOKEN", "--secret-header", "X-Env-Token"}
	code := Run(context.Background(), Env{Args: args, Stdout: &stdout, Stderr: &stderr, Getenv: func(k string) string {
		if k == "TOKEN" {
			return "s3cr3t-env"
		}
		return ""
	}})
	if code != exitcode.OK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	f := readRun(t, out)
	// One operation: one text, one hash, one miss (the first request).
	if f.Header.Params.Method != "GET" || !f.Header.Params.APQ || f.Summary.APQMisses != 1 {
		t.Errorf("method %q apq %v misses %d; want GET, true and 1", f.Header.Params.Method, f.Header.Params.APQ, f.Summary.APQMisses)
	}
	s.mu.Lock()
	traces := map[string]bool{}
	for _, h := range s.seen {
		if h.Get("Authorization") != "Bearer s3cr3t-flag" || h.Get("X-Api-Key") != "s3cr3t-file" || h.Get("X-Env-Token") != "s3cr3t-env" ||
			!strings.HasPrefix(h.Get("Accept"), "application/graphql-response+json") {
			t.Fatalf("the server saw headers %v", h)
		}
		traces[h.Get("X-Trace")] = true
	}
	if len(traces) != len(s.seen) || s.methods["GET"] != len(s.seen) {
		t.Errorf("%d distinct X-Trace values and %d GETs in %d requests", len(traces), s.methods["GET"], len(s.seen))
	}
	s.mu.Unlock()
	outputs := stdout.String() + stderr.String()
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() && p != hf {
			b, _ := os.ReadFile(p)
			outputs += string(b)
		}
		return nil
	})
	code, md, rerr := run("report", out)
	outputs += md + rerr
	if code != exitcode.OK {
		t.Errorf("report: exit %d", code)
	}
	for _, secret := range []string{"s3cr3t-flag", "s3cr3t-cookie", "s3cr3t-file", "s3cr3t-env"} {
		if strings.Contains(outputs, secret) {
			t.Errorf("the secret %s was written", secret)
		}
	}
	if !strings.Contains(outputs, "Authorization: (secret)") {
		t.Error("the run file does not show that an Authorization header was sent")
	}
}

// TestAnyAPIEveryMode: a golden file of another schema's operation works in
// every mode, and report reads the runs, grouped by the operation's label.
func TestAnyAPIEveryMode(t *testing.T) {
	dir := t.TempDir()
	url := (&shop{}).start(t)
	q := shopQueries(t, dir, 4, false)
	golden := filepath.Join(dir, "golden.jsonl")
	if code, _, stderr := run("record", "--target", url, "--queries", q, "-o", golden, "--quiet"); code != exitcode.OK {
		t.Fatalf("record: exit %d: %s", code, stderr)
	}
	var runs []string
	for _, args := range [][]string{
		{"--mode", "closed", "--duration", "200ms", "--runs", "2"},
		{"--mode", "sequential", "--passes", "2"},
		{"--mode", "open", "--rate", "100", "--duration", "300ms"},
		{"--mode", "ramp", "--ramp-rate", "20", "--max-clients", "3", "--duration", "300ms"},
		{"--mode", "capacity", "--slo", "p99<1s", "--rate", "50", "--duration", "200ms", "--max-steps", "2"},
	} {
		out := filepath.Join(dir, args[1]+".jsonl")
		code, _, stderr := run(append([]string{"load", "--target", url, "--queries", golden, "--ignore-path", "book.seenAt",
			"--interval", "100ms", "-o", out, "--quiet"}, args...)...)
		if code != exitcode.OK && args[1] == "capacity" && generatorLimited(code, readRun(t, out)) {
			t.Logf("capacity: the load generator was the limit on this machine: %s", stderr)
			code = exitcode.OK // its file still holds answers to check and report
		}
		if code != exitcode.OK {
			t.Errorf("%s: exit %d: %s", args[1], code, stderr)
			continue
		}
		f := readRun(t, out)
		if f.Summary.Total.Wrong != 0 || f.Summary.Total.Verified == 0 || f.Header.Params.Check != "golden" {
			t.Errorf("%s: %d wrong of %d verified, check %q", args[1], f.Summary.Total.Wrong, f.Summary.Total.Verified, f.Header.Params.Check)
		}
		runs = append(runs, out)
	}
	code, md, stderr := run(append([]string{"report"}, runs...)...)
	if code != exitcode.OK || !strings.Contains(md, "Book") {
		t.Errorf("report: exit %d: %s", code, stderr)
	}
}
