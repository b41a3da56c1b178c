package node_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gqlbench/gqlbench/dataset"
	"github.com/gqlbench/gqlbench/internal/pglocal/pgtest"
	"github.com/gqlbench/gqlbench/server"
	"github.com/gqlbench/gqlbench/server/inmem"
	"github.com/gqlbench/gqlbench/server/peer"
	"github.com/gqlbench/gqlbench/server/peer/node"
	"github.com/gqlbench/gqlbench/server/peer/peertest"
	"github.com/gqlbench/gqlbench/server/source"
	"github.com/gqlbench/gqlbench/store"
	"github.com/gqlbench/gqlbench/verify"
	"github.com/gqlbench/gqlbench/workload"
)

// TestMain runs the tests through pgtest, which starts (once) and removes a
// throwaway PostgreSQL cluster for them.
func TestMain(m *testing.M) { pgtest.Main(m) }

// fixture is the sf=1 dataset in a PostgreSQL database of the test's own,
// and the oracle's answers to a sample of every template.
type fixture struct {
	url   string
	meta  *dataset.Meta
	cases []oracleCase
}

// oracleCase is an instance and the hash of the oracle's answer.
type oracleCase struct {
	in   workload.Instance
	hash string
}

// newFixture loads sf=1 and asks the oracle (inmem) for the answers to 8
// seeded instances of every template and to the targeted ones.
func newFixture(t *testing.T) *fixture {
	t.Helper()
	ctx := context.Background()
	f := &fixture{}
	f.url, f.meta = loaded(t)
	data, err := inmem.ForMeta(ctx, f.meta)
	if err != nil {
		t.Fatal(err)
	}
	oracle := inmem.NewExecutor(data, server.Config{})
	inst, err := workload.Generate(f.meta, workload.Options{PerTemplate: 8, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	more, err := targeted(ctx, data)
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range append(inst, more...) {
		b, _ := json.Marshal(in.Variables)
		req := &server.Request{Query: in.Query}
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.UseNumber()
		if err := dec.Decode(&req.Variables); err != nil {
			t.Fatal(err)
		}
		r := oracle.Execute(ctx, req)
		if len(r.Errors) > 0 {
			t.Fatalf("the oracle fails on %s %v: %v", in.ID, in.Variables, r.Errors)
		}
		h, err := verify.Hash(r.Data)
		if err != nil {
			t.Fatal(err)
		}
		f.cases = append(f.cases, oracleCase{in, h})
	}
	return f
}

// loaded returns the URL of a database of t's own holding the sf=1
// dataset, and its metadata.
func loaded(t *testing.T) (string, *dataset.Meta) {
	t.Helper()
	url := pgtest.URL(t)
	meta, err := store.Fill(context.Background(), &store.PostgresTarget{URL: url}, dataset.Config{Seed: 1, Scale: 1}, store.FillOptions{})
	if err != nil {
		t.Fatalf("loading sf=1: %v", err)
	}
	return url, meta
}

// targeted instances complete the random sample where servers go wrong or
// random instances answer nothing at sf=1: QT8 with ordering pairs, QT9
// with both publication fields, and QT7, QT12–QT14 made from the data so
// that their answers are not empty.
func targeted(ctx context.Context, data *inmem.Data) ([]workload.Instance, error) {
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
	for i, a := range fields {
		add(8, map[string]any{"cnt": 501 + i, "attr1": a, "attr2": fields[(i+3)%len(fields)]})
		add(8, map[string]any{"cnt": 600 + i, "attr1": fields[(i+1)%len(fields)], "attr2": a})
	}
	for i := 0; i < len(grads); i += len(grads)/4 + 1 {
		g := grads[i]
		adv, err := data.Faculty(ctx, *g.Advisor)
		if err != nil {
			return nil, err
		}
		univ, word := fmt.Sprint(g.UGDegree), strings.Fields(adv.Interest)[0]
		for _, field := range []string{"title", "abstract"} {
			add(9, map[string]any{"universityID": univ, "attrPublicationField": field})
		}
		add(7, map[string]any{"universityID": univ, "offset": 1})
		add(12, map[string]any{"universityID": fmt.Sprint(adv.PhD), "departmentID": fmt.Sprint(adv.WorksFor)})
		add(13, map[string]any{"universityID": univ, "interestWord": word})
		add(14, map[string]any{"universityID": univ, "age": int(g.Age) - 1, "interestWord": word})
	}
	return out, nil
}

// install installs the package (once per machine), or skips outside CI
// when it cannot be.
func install(t *testing.T) { peertest.Install(t, node.Package()) }

// start starts variant on the database at url and stops it when t ends;
// its output is logged if t fails.
func start(t *testing.T, variant, url string, trace ...bool) *peer.Running {
	t.Helper()
	ctx := context.Background()
	c := server.ProcessConfig{Config: server.Config{DB: url, Pool: 4, MaxDepth: server.DefaultMaxDepth, Timeout: 20 * time.Second},
		Variant: variant, Addr: "127.0.0.1:0", Log: io.Discard, Trace: len(trace) > 0 && trace[0]}
	prog, err := node.Program(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	log := &peertest.Buffer{}
	begin := time.Now()
	r, err := peer.Start(ctx, prog, log, 5*time.Minute) // as experiment.StartTimeout: a busy machine starts Node slowly
	if err != nil {
		t.Fatalf("starting %s: %v", variant, err)
	}
	t.Logf("%s serves on %s, %.2f s after its start", variant, r.URL, time.Since(begin).Seconds())
	t.Cleanup(func() {
		select {
		case <-r.Done(): // ended before: the test that ended it checks how
		default:
			if err := r.Stop(); err != nil {
				t.Errorf("%s did not stop cleanly on SIGTERM: %v", variant, err)
			}
		}
		if t.Failed() {
			t.Logf("%s's output:\n%s", variant, log.String())
		}
	})
	return r
}

// post sends a GraphQL request body to url and returns the status, the
// response's headers and its body.
func post(t *testing.T, url, body string) (int, []byte) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, b
}

// query posts query with vars.
func query(t *testing.T, url, query string, vars map[string]any) (int, []byte) {
	t.Helper()
	b, err := json.Marshal(map[string]any{"query": query, "variables": vars})
	if err != nil {
		t.Fatal(err)
	}
	return post(t, url, string(b))
}
