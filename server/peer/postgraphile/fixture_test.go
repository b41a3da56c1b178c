package postgraphile

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gqlbench/gqlbench/dataset"
	"github.com/gqlbench/gqlbench/dialect"
	"github.com/gqlbench/gqlbench/internal/pglocal/pgtest"
	"github.com/gqlbench/gqlbench/queryfile"
	"github.com/gqlbench/gqlbench/server"
	"github.com/gqlbench/gqlbench/server/inmem"
	"github.com/gqlbench/gqlbench/server/peer"
	"github.com/gqlbench/gqlbench/server/peer/peertest"
	"github.com/gqlbench/gqlbench/server/source"
	"github.com/gqlbench/gqlbench/store"
	"github.com/gqlbench/gqlbench/workload"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// fixture is what the tests share: the sf=1 dataset in a PostgreSQL
// database, the oracle over the same dataset, and PostGraphile installed.
type fixture struct {
	db      string
	data    *inmem.Data
	install peer.Install
	entries []queryfile.Entry // every instance, in the dialect, with the oracle's expected answer
	bench   []queryfile.Entry // the same in the benchmark's schema
}

// newFixture loads the dataset, installs PostGraphile (once per machine:
// peer.Ensure's cache) and writes the test's instances in the dialect.
func newFixture(t *testing.T) *fixture {
	t.Helper()
	ctx := context.Background()
	f := &fixture{install: installed(t), db: pgtest.URL(t)}
	meta, err := store.Fill(ctx, &store.PostgresTarget{URL: f.db}, dataset.Config{Seed: 1, Scale: 1}, store.FillOptions{})
	if err != nil {
		t.Fatalf("loading sf=1: %v", err)
	}
	if f.data, err = inmem.ForMeta(ctx, meta); err != nil {
		t.Fatal(err)
	}
	inst, err := workload.Generate(meta, workload.Options{PerTemplate: 8, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	inst = append(inst, targeted(t, f.data)...)
	if err := inmem.Expect(ctx, f.data, inst); err != nil {
		t.Fatal(err)
	}
	if f.bench, err = workload.Entries(inst); err != nil {
		t.Fatal(err)
	}
	d, err := dialect.Lookup("postgraphile")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range f.bench {
		pe, err := d.Rewrite(e)
		if err != nil {
			t.Fatal(err)
		}
		f.entries = append(f.entries, pe)
	}
	return f
}

// installed returns PostGraphile's install (once per machine), or skips
// outside CI when it cannot be made.
func installed(t *testing.T) peer.Install { return peertest.Install(t, Package) }

// start runs PostGraphile on the fixture's database until t ends; its
// output is shown if t fails.
func (f *fixture) start(t *testing.T, c server.ProcessConfig) *peer.Running {
	t.Helper()
	c.Config.DB, c.Variant = f.db, "postgraphile"
	if c.Addr == "" {
		c.Addr = "127.0.0.1:0"
	}
	prog, err := f.install.Program(Package, c)
	if err != nil {
		t.Fatal(err)
	}
	var out peertest.Buffer
	r, err := peer.Start(context.Background(), prog, &out, 5*time.Minute) // as experiment.StartTimeout: a busy machine starts Node slowly
	if err != nil {
		t.Fatalf("starting PostGraphile: %v", err)
	}
	t.Cleanup(func() {
		select {
		case <-r.Done(): // ended by the test (a crash is simulated)
		default:
			if err := r.Stop(); err != nil { // SIGTERM: a graceful exit
				t.Errorf("stopping PostGraphile: %v", err)
			}
		}
		if t.Failed() {
			t.Logf("PostGraphile's output:\n%s", out.String())
		}
	})
	return r
}

// targeted are instances made from the data so that the answers the
// seeded sample mostly leaves empty at sf=1 are not: selective filters
// (QT7, QT12–QT14) that match, every ordered pair of QT8's ordering
// fields, QT9 with both fields; and the edges: a university no student
// has a degree from (QT15 and QT16 over no rows: 0), a professor's nr
// where a lecturer's is asked (QT4: null), a department's only head (QT3).
func targeted(t *testing.T, data *inmem.Data) []workload.Instance {
	t.Helper()
	ctx := context.Background()
	grads, err := data.Graduates(ctx, source.GradQuery{})
	if err != nil {
		t.Fatal(err)
	}
	var out []workload.Instance
	add := func(id int, vars map[string]any) {
		tpl, _ := workload.TemplateByID(id)
		out = append(out, workload.Instance{ID: fmt.Sprintf("%s-t%d", tpl.Name, len(out)+1), Template: id, Query: tpl.Query, Variables: vars})
	}
	fields := []string{"id", "telephone", "emailAddress", "memberOf", "undergraduateDegreeFrom", "advisor"}
	for _, a := range fields {
		for _, b := range fields {
			if a != b {
				add(8, map[string]any{"cnt": 501 + len(out), "attr1": a, "attr2": b})
			}
		}
	}
	hasGrads := map[int64]bool{}
	for _, g := range grads {
		hasGrads[g.UGDegree] = true
	}
	for i := 0; i < len(grads); i += len(grads)/5 + 1 {
		g := grads[i]
		adv, err := data.Faculty(ctx, *g.Advisor)
		if err != nil {
			t.Fatal(err)
		}
		univ, word := fmt.Sprint(g.UGDegree), strings.Fields(adv.Interest)[0]
		for _, field := range []string{"title", "abstract"} {
			add(9, map[string]any{"universityID": univ, "attrPublicationField": field})
		}
		add(7, map[string]any{"universityID": univ, "offset": 1})
		add(12, map[string]any{"universityID": fmt.Sprint(adv.PhD), "departmentID": fmt.Sprint(adv.WorksFor)})
		add(13, map[string]any{"universityID": univ, "interestWord": word})
		add(14, map[string]any{"universityID": univ, "age": int(g.Age) - 1, "interestWord": word})
		add(4, map[string]any{"lecturerID": fmt.Sprint(adv.Nr)}) // a professor: no lecturer
	}
	for u := int64(0); u < 1000; u++ {
		if !hasGrads[u] {
			add(15, map[string]any{"universityID": fmt.Sprint(u)})
			add(16, map[string]any{"universityID": fmt.Sprint(u)})
			break
		}
	}
	add(3, map[string]any{"researchGroupID": "999999999"}) // no such group: null
	return out
}
