package task

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gqlbench/gqlbench/dataset"
	"github.com/gqlbench/gqlbench/drive"
	"github.com/gqlbench/gqlbench/queryfile"
	"github.com/gqlbench/gqlbench/runfile"
	"github.com/gqlbench/gqlbench/runfile/schema"
	"github.com/gqlbench/gqlbench/server"
	"github.com/gqlbench/gqlbench/server/inmem"
	"github.com/gqlbench/gqlbench/verify"
)

// fixture is the sf=1 dataset: its metadata, the oracle and the rows of
// the fake REST API.
var fixture struct {
	once sync.Once
	meta *dataset.Meta
	data *inmem.Data
	rest *fakeREST
	err  error
}

func load(t *testing.T) (*dataset.Meta, *inmem.Data, *fakeREST) {
	t.Helper()
	fixture.once.Do(func() {
		ctx := context.Background()
		c := dataset.Config{Seed: 0, Scale: 1}
		mb := dataset.NewMetaBuilder(c)
		f := newFakeREST()
		fixture.err = c.Stream(ctx, 0, nil, func(b *dataset.Batch) error { mb.Add(b); f.add(b); return nil })
		if fixture.err != nil {
			return
		}
		f.done()
		fixture.meta, fixture.rest = mb.Meta(), f
		fixture.data, fixture.err = inmem.Generate(ctx, c)
	})
	if fixture.err != nil {
		t.Fatal(fixture.err)
	}
	return fixture.meta, fixture.data, fixture.rest
}

// startREST starts a REST target over the sf=1 dataset — a fake written
// directly over the generated rows, independent of server/rest — and
// returns its base URL. The same tasks run against the real servers (serve
// rest, batch and compiled, on SQLite and PostgreSQL) in server/all's
// TestTasksRealServers.
func startREST(t *testing.T) string {
	t.Helper()
	_, _, f := load(t)
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	return srv.URL
}

// startGraphQL starts the inmem GraphQL server over the sf=1 dataset.
func startGraphQL(t *testing.T) string {
	t.Helper()
	_, d, _ := load(t)
	srv := httptest.NewServer(server.Handler(inmem.NewExecutor(d, server.Config{}), server.HTTPOptions{Variant: "inmem"}))
	t.Cleanup(srv.Close)
	return srv.URL + "/graphql"
}

func generate(t *testing.T, o Options) []queryfile.Entry {
	t.Helper()
	meta, d, _ := load(t)
	entries, err := Generate(context.Background(), meta, o, inmem.Answerer(d))
	if err != nil {
		t.Fatal(err)
	}
	return entries
}

// drive runs every entry once, in LinGBM's sequential mode, against
// target and returns the summary.
func driveOnce(t *testing.T, api, target string, entries []queryfile.Entry) *runfile.Summary {
	t.Helper()
	var out bytes.Buffer
	job := drive.Job{Config: drive.Config{Mode: drive.Sequential, Settings: drive.SequentialSettings{Passes: 1}}, Target: target, API: api, Check: true,
		Queries: &queryfile.File{Path: "tasks.jsonl", Entries: entries}, Out: func() (io.Writer, error) { return &out, nil }}
	sum, err := job.Run(context.Background())
	if err != nil {
		t.Fatalf("%s: %v", api, err)
	}
	return sum
}

// TestTasksAgree is the tasks' conformance test: every task's REST plan,
// carried out against the REST API by the load generator, assembles to
// the answer of its GraphQL query sent to a GraphQL server, and both to
// the oracle's (the expected hash): no wrong answer, no error, every
// answer compared.
func TestTasksAgree(t *testing.T) {
	entries := generate(t, Options{PerTemplate: 3})
	gq := driveOnce(t, drive.APIGraphQL, startGraphQL(t), entries)
	rest := driveOnce(t, drive.APIREST, startREST(t), entries)
	for api, s := range map[string]*runfile.Summary{"graphql": gq, "rest": rest} {
		if tot := s.Total; tot.Count != int64(len(entries)) || tot.Wrong != 0 || tot.Errors != 0 || tot.Verified != tot.Count {
			t.Errorf("%s: %d tasks of %d, %d verified, %d wrong, %d errors (%v; first wrong: %s)", api, tot.Count, len(entries),
				tot.Verified, tot.Wrong, tot.Errors, tot.ErrorKinds, s.FirstWrong)
		}
	}
	// Calls per task as the plans make them: one GraphQL request; REST's
	// client-side N+1 of display-endpoints (the list, then an advisor and
	// the courses per student).
	for label, want := range map[string]int64{"display-overfetch-50": 1, "display-endpoints-5": 11, "display-endpoints-100": 201, "QT3": 3, "QT7": 1} {
		got := rest.Templates[label]
		if got == nil || got.Count == 0 {
			t.Errorf("REST %s: no tasks", label)
			continue
		}
		if calls := got.Calls; calls == 0 { // absent: one per task
			got.Calls = got.Count
		}
		if got.Calls/got.Count != want {
			t.Errorf("REST %s: %+v calls, want %d per task", label, got, want)
		}
		if got := gq.Templates[label]; got == nil || got.Calls != 0 {
			t.Errorf("GraphQL %s: %+v calls, want one per request (absent)", label, got)
		}
	}
	if o, e := rest.Templates["display-overfetch-100"], gq.Templates["display-overfetch-100"]; o.RecvBytes <= 2*e.RecvBytes {
		t.Errorf("display-overfetch-100: REST received %d bytes, GraphQL %d: REST's one endpoint should over-fetch", o.RecvBytes, e.RecvBytes)
	}
}

// TestTaskSets: the tasks of every set and number of records, each with
// both forms, its expected answer and its dataset; the same options give
// the same file.
func TestTaskSets(t *testing.T) {
	entries := generate(t, Options{PerTemplate: 2, Writes: true})
	labels := map[string]int{}
	for _, e := range entries {
		labels[e.Label]++
		if (e.Query == "") == (len(e.GraphQLPlan) == 0) || len(e.Plan) == 0 || !queryfile.IsHash(e.Expect) || e.Dataset == nil || e.Dataset.SF != 1 {
			t.Errorf("%s: query %q, plan %v, expect %q, dataset %v", e.ID, e.Query, e.Plan, e.Expect, e.Dataset)
		}
	}
	for _, l := range []string{"display-overfetch-5", "display-all-50", "display-endpoints-100", "QT1", "QT2", "QT3", "QT7", "QT11", "crud-read", "crud-create", "crud-cycle"} {
		want := 2
		if strings.HasPrefix(l, "display") {
			want = 1
		}
		if labels[l] != want {
			t.Errorf("%s: %d tasks, want %d", l, labels[l], want)
		}
	}
	if len(labels) != 9+5+3 {
		t.Errorf("labels %v", labels)
	}
	var a, b bytes.Buffer
	queryfile.Write(&a, entries)
	queryfile.Write(&b, generate(t, Options{PerTemplate: 2, Writes: true}))
	if a.String() != b.String() {
		t.Error("the same options made different tasks")
	}
	back, err := queryfile.Read(&a)
	if err != nil || len(back) != len(entries) {
		t.Errorf("the tasks do not read back: %v", err)
	}
}

// TestWriteTask: crud-create's two forms create the same publication in
// the sandbox, and its right answer is what it writes, known without the
// oracle (which takes no writes).
func TestWriteTask(t *testing.T) {
	create := crudTask(t, "crud-create")
	var vars struct {
		Input struct{ Title, Abstract, MainAuthor string }
	}
	if err := json.Unmarshal(create.Variables, &vars); err != nil || vars.Input.MainAuthor != SandboxAuthor || vars.Input.Title == "" {
		t.Fatalf("variables %s: %v", create.Variables, err)
	}
	want, _ := verify.Hash([]byte(`{"createPublication":{"title":"` + vars.Input.Title + `","abstract":"` + vars.Input.Abstract + `"}}`))
	c := create.Plan[0]
	if create.Expect != want || c.Method != "POST" || c.Status != 201 || string(c.Body) != `"{input}"` || !strings.Contains(create.Query, "createPublication(input: $input)") {
		t.Errorf("crud-create: %+v", create)
	}
	if _, err := Generate(context.Background(), fixture.meta, Options{Sets: []string{"nope"}}, nil); err == nil {
		t.Error("an unknown set was accepted")
	}
}

// crudTask is the first task of label among the crud set's, writes
// included.
func crudTask(t *testing.T, label string) *queryfile.Entry {
	t.Helper()
	entries := generate(t, Options{Sets: []string{SetCRUD}, PerTemplate: 1, Writes: true})
	for i := range entries {
		if entries[i].Label == label {
			return &entries[i]
		}
	}
	t.Fatalf("no %s task", label)
	return nil
}

// TestCycleTask: crud-cycle's two forms make the same four operations in
// a row — create, read, update, delete of one publication, each after the
// answer whose id it takes — and its right answer is what it writes.
func TestCycleTask(t *testing.T) {
	cycle := crudTask(t, "crud-cycle")
	var calls, steps []string
	for c := cycle.Plan; len(c) == 1; c = c[0].Then {
		calls = append(calls, c[0].Label())
	}
	for c := cycle.GraphQLPlan; len(c) == 1; c = c[0].Then {
		steps = append(steps, strings.Fields(c[0].Query)[0]+" "+c[0].From)
	}
	if strings.Join(calls, ", ") != "POST /rest/publications, GET /rest/publications/{.id}, PATCH /rest/publications/{.id}, DELETE /rest/publications/{.id}" ||
		strings.Join(steps, ", ") != "mutation createPublication, query publication, mutation updatePublication, mutation " {
		t.Errorf("REST calls %q, GraphQL steps %q", calls, steps)
	}
	var vars struct {
		Input  struct{ Title, Abstract, MainAuthor string }
		Update struct{ Title string }
	}
	if err := json.Unmarshal(cycle.Variables, &vars); err != nil || vars.Input.MainAuthor != SandboxAuthor || vars.Update.Title == vars.Input.Title {
		t.Fatalf("variables %s: %v", cycle.Variables, err)
	}
	in, ab, up := vars.Input.Title, vars.Input.Abstract, vars.Update.Title
	want, _ := verify.Hash([]byte(`{"created":{"title":"` + in + `","abstract":"` + ab + `","read":{"title":"` + in + `","abstract":"` + ab +
		`","updated":{"title":"` + up + `","abstract":"` + ab + `"}}}}`))
	if cycle.Expect != want || cycle.Query != "" {
		t.Errorf("crud-cycle: expect %s, want %s; query %q", cycle.Expect, want, cycle.Query)
	}
}

// TestTasksPaired: the tasks in paired mode, GraphQL on one side and REST
// on the other, every answer right and every pair complete.
func TestTasksPaired(t *testing.T) {
	entries := generate(t, Options{Sets: []string{SetLinGBM}, PerTemplate: 2})
	var out bytes.Buffer
	job := drive.Job{Config: drive.Config{Mode: drive.Paired, Settings: drive.PairedSettings{ClosedSettings: drive.ClosedSettings{Clients: 3, Repeat: drive.Repeat{Duration: 300 * time.Millisecond, Runs: 1}}, Group: 5}},
		Target: startGraphQL(t), PairedTarget: startREST(t), Check: true,
		Queries: &queryfile.File{Path: "tasks.jsonl", Entries: entries}, Out: func() (io.Writer, error) { return &out, nil }}
	sum, err := job.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	p := sum.Paired
	var gq, rest int64
	for name, s := range sum.Templates {
		if strings.HasPrefix(name, "graphql/") {
			gq += s.Count
		} else {
			rest += s.Count
		}
	}
	if sum.Total.Wrong != 0 || sum.Total.Errors != 0 || p == nil || p.Total.Broken != 0 || p.Total.N != gq || gq != rest || gq == 0 ||
		len(p.Labels) != 5 || p.APIs != [2]string{"graphql", "rest"} {
		t.Errorf("%d graphql, %d rest answers; %+v; pairs %+v", gq, rest, sum.Total, p)
	}
	schema.Check(t, out.Bytes())
	f, err := runfile.Read(&out)
	if err != nil || f.Header.Params.PairedAPI != "rest" || f.Header.Params.PairedTarget == "" || f.Header.Params.Group != 5 {
		t.Errorf("header %+v, %v", f.Header.Params, err)
	}
}
