package all_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gqlbench/gqlbench/dataset"
	"github.com/gqlbench/gqlbench/internal/pglocal/pgtest"
	"github.com/gqlbench/gqlbench/server"
	_ "github.com/gqlbench/gqlbench/server/all"
	"github.com/gqlbench/gqlbench/server/inmem"
	"github.com/gqlbench/gqlbench/server/source"
	"github.com/gqlbench/gqlbench/store"
	"github.com/gqlbench/gqlbench/verify"
	"github.com/gqlbench/gqlbench/workload"
)

// The dataset every test here runs on: sf=1, loaded once per test binary
// into each database by TestVariants.
var testDataset = dataset.Config{Seed: 1, Scale: 1}

// reference is the variant every other one is compared with.
const reference = "inmem"

// fixture is what the subtests of TestVariants share: the dataset in each
// database, and the oracle.
type fixture struct {
	dbs    []testDB
	meta   *dataset.Meta
	data   *inmem.Data     // the oracle's data
	oracle server.Executor // inmem over data
	cases  []oracleCase    // a seeded sample of every template and targeted instances, with the oracle's answers
}

// testDB is one database holding the test dataset.
type testDB struct {
	name string // "sqlite", "postgres"
	url  string
}

// oracleCase is an instance and the oracle's answer to it.
type oracleCase struct {
	in        workload.Instance
	req       *server.Request
	canonical []byte // the canonical JSON of the answer's data
	hash      string // verify.Hash of the data
}

// newFixture loads the test dataset into SQLite and PostgreSQL and asks
// the oracle for the answers of 8 instances of every template (seeded) and
// of the targeted instances.
func newFixture(t *testing.T) *fixture {
	t.Helper()
	ctx := context.Background()
	f := &fixture{dbs: []testDB{
		{"sqlite", "sqlite:" + filepath.Join(t.TempDir(), "gqlbench.db")},
		{"postgres", pgtest.URL(t)},
	}}
	for _, d := range f.dbs {
		m, err := loadDB(ctx, d.url, testDataset)
		if err != nil {
			t.Fatalf("loading sf=%d into %s: %v", testDataset.Scale, d.name, err)
		}
		f.meta = m
	}
	var err error
	if f.data, err = inmem.ForMeta(ctx, f.meta); err != nil {
		t.Fatal(err)
	}
	f.oracle = inmem.NewExecutor(f.data, server.Config{})
	inst, err := workload.Generate(f.meta, workload.Options{PerTemplate: 8, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	more, err := targetedInstances(ctx, f.data)
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range append(inst, more...) {
		c, err := f.ask(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		f.cases = append(f.cases, c)
	}
	return f
}

// targetedInstances complete the random sample: QT8 with every ordered
// pair of ordering fields and QT9 with both publication fields (orderings
// are where servers go wrong), and instances of the selective templates
// (QT7, QT12, QT13, QT14) made from the data so that their answers are not
// empty, as random ones mostly are at sf=1: a check that compares nothing
// proves nothing.
func targetedInstances(ctx context.Context, data *inmem.Data) ([]workload.Instance, error) {
	grads, err := data.Graduates(ctx, source.GradQuery{})
	if err != nil {
		return nil, err
	}
	var out []workload.Instance
	add := func(id int, vars map[string]any) {
		t, _ := workload.TemplateByID(id)
		out = append(out, workload.Instance{ID: fmt.Sprintf("%s-t%d", t.Name, len(out)+1), Template: id, Query: t.Query, Variables: vars})
	}
	fields := []string{"id", "telephone", "emailAddress", "memberOf", "undergraduateDegreeFrom", "advisor"}
	for _, a := range fields {
		for _, b := range fields {
			if a != b {
				add(8, map[string]any{"cnt": 501 + len(out), "attr1": a, "attr2": b})
			}
		}
	}
	for i := 0; i < len(grads); i += len(grads)/4 + 1 {
		for _, field := range []string{"title", "abstract"} {
			add(9, map[string]any{"universityID": fmt.Sprint(grads[i].UGDegree), "attrPublicationField": field})
		}
	}
	for i := 0; i < len(grads); i += len(grads)/4 + 1 {
		g := grads[i]
		adv, err := data.Faculty(ctx, *g.Advisor)
		if err != nil {
			return nil, err
		}
		univ, word := fmt.Sprint(g.UGDegree), strings.Fields(adv.Interest)[0]
		add(7, map[string]any{"universityID": univ, "offset": 1})
		add(12, map[string]any{"universityID": fmt.Sprint(adv.PhD), "departmentID": fmt.Sprint(adv.WorksFor)})
		add(13, map[string]any{"universityID": univ, "interestWord": word})
		add(14, map[string]any{"universityID": univ, "age": int(g.Age) - 1, "interestWord": word})
	}
	return out, nil
}

// loadDB loads dataset c into the database at url.
func loadDB(ctx context.Context, url string, c dataset.Config) (*dataset.Meta, error) {
	var target store.Target
	if strings.HasPrefix(url, "sqlite:") {
		target = &store.SQLiteTarget{Path: store.SQLitePath(url)}
	} else {
		target = &store.PostgresTarget{URL: url}
	}
	return store.Fill(ctx, target, c, store.FillOptions{})
}

// ask returns the oracle's answer to in.
func (f *fixture) ask(ctx context.Context, in workload.Instance) (oracleCase, error) {
	req := request(in.Query, in.Variables)
	r := f.oracle.Execute(ctx, req)
	if len(r.Errors) > 0 || r.Status != 0 {
		return oracleCase{}, fmt.Errorf("the oracle failed on %s %v: status %d, %v", in.ID, in.Variables, r.Status, r.Errors)
	}
	c := oracleCase{in: in, req: req}
	var err error
	if c.canonical, err = verify.Canonical(r.Data); err != nil {
		return oracleCase{}, fmt.Errorf("the oracle's answer to %s: %w", in.ID, err)
	}
	c.hash, _ = verify.Hash(r.Data)
	return c, nil
}

// request makes the request of query and vars, the variables passed
// through JSON (numbers as json.Number) as a server receives them.
func request(query string, vars map[string]any) *server.Request {
	b, err := json.Marshal(vars)
	if err != nil {
		panic(err)
	}
	req := &server.Request{Query: query}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&req.Variables); err != nil {
		panic(err)
	}
	return req
}

// dbVariants lists the registered GraphQL variants that serve a database,
// the reference aside unless withReference, and the test-only broken ones
// aside unless withBroken. Servers of other stacks (server.Variant.Process)
// are left out: they run as programs of their own, and their packages test
// them against the oracle (server/peer/node).
func dbVariants(withReference, withBroken bool) []server.Variant {
	var out []server.Variant
	for _, v := range server.Variants() {
		switch {
		case !v.NeedsDB, !v.GraphQL(), v.Process != nil:
		case v.Name == reference && !withReference:
		case deliberatelyBroken[v.Name] && !withBroken:
		default:
			out = append(out, v)
		}
	}
	return out
}

// serverConfig is the configuration variants are opened with.
func serverConfig(url string) server.Config { return server.Config{DB: url, Pool: 4} }

// open opens variant v on the database at url and closes it when t ends.
func open(t *testing.T, v server.Variant, url string) server.Executor {
	t.Helper()
	e, err := v.Open(context.Background(), serverConfig(url))
	if err != nil {
		t.Fatalf("opening %s on %s: %v", v.Name, url, err)
	}
	t.Cleanup(func() { closeExecutor(e) })
	return e
}

func closeExecutor(e server.Executor) {
	if c, ok := e.(interface{ Close() error }); ok {
		c.Close()
	}
}

func names(vs []server.Variant) []string {
	var out []string
	for _, v := range vs {
		out = append(out, v.Name)
	}
	return slices.Clip(out)
}

// TestVariants is the registry-wide test of the reference servers: every
// registered variant that serves a database, on SQLite and on PostgreSQL
// (each loaded once, here), against the oracle. A new variant is covered
// by registering it in server/all; no new test code is needed.
func TestVariants(t *testing.T) {
	f := newFixture(t)
	t.Logf("variants under test: %v (reference: %s)", names(dbVariants(false, false)), reference)
	t.Run("conformance", func(t *testing.T) { testConformance(t, f) })
	t.Run("broken-variant-is-caught", func(t *testing.T) { testBrokenIsCaught(t, f) })
	t.Run("oracle-vs-sql", func(t *testing.T) { testOracleVsSQL(t, f) })
	t.Run("bad-input", func(t *testing.T) { testBadInput(t, f) })
	t.Run("rest", func(t *testing.T) { testREST(t, f) })
	t.Run("remote-fields", func(t *testing.T) { testRemote(t, f) })
	t.Run("writes", func(t *testing.T) { testWrites(t, f) }) // last: it writes, and resets
}
