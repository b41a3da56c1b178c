package all_test

import (
	"bytes"
	"context"
	"io"
	"net/http/httptest"
	"testing"

	"github.com/gqlbench/gqlbench/drive"
	"github.com/gqlbench/gqlbench/queryfile"
	"github.com/gqlbench/gqlbench/server"
	"github.com/gqlbench/gqlbench/server/inmem"
	"github.com/gqlbench/gqlbench/task"
)

// TestTasksRealServers is the REST-vs-GraphQL tasks' conformance test on
// the servers themselves, on SQLite and PostgreSQL: every task's REST plan,
// carried out by the load generator against `serve rest`, assembles to the
// answer its GraphQL query gets from `serve batch` and `serve compiled`,
// and all of them to the oracle's (the tasks' expected hashes); the write
// tasks included.
func TestTasksRealServers(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	entries, err := task.Generate(ctx, f.meta, task.Options{PerTemplate: 3, Writes: true}, inmem.Answerer(f.data))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range f.dbs {
		t.Run(d.name, func(t *testing.T) {
			targets := map[string]string{"rest": serveVariant(t, "rest", d.url)}
			for _, v := range []string{"batch", "compiled"} {
				targets[v] = serveVariant(t, v, d.url) + "/graphql"
			}
			for name, target := range targets {
				api := drive.APIGraphQL
				if name == "rest" {
					api = drive.APIREST
				}
				var out bytes.Buffer
				job := drive.Job{Config: drive.Config{Mode: drive.Sequential, Settings: drive.SequentialSettings{Passes: 1}}, Target: target, API: api, Check: true,
					Queries: &queryfile.File{Path: "tasks.jsonl", Entries: entries}, Out: func() (io.Writer, error) { return &out, nil }}
				sum, err := job.Run(ctx)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if tot := sum.Total; tot.Count != int64(len(entries)) || tot.Wrong != 0 || tot.Errors != 0 || tot.Verified != tot.Count {
					t.Errorf("%s: %d tasks of %d, %d verified, %d wrong, %d errors (%v; first wrong: %s)", name, tot.Count, len(entries),
						tot.Verified, tot.Wrong, tot.Errors, tot.ErrorKinds, sum.FirstWrong)
				}
			}
		})
	}
}

// serveVariant serves variant v over the database at url and returns the
// server's base URL.
func serveVariant(t *testing.T, v, url string) string {
	t.Helper()
	sv, ok := server.Lookup(v)
	if !ok {
		t.Fatalf("no variant %s", v)
	}
	h, closer, err := server.Start(context.Background(), sv, serverConfig(url), server.HTTPOptions{Variant: v})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(func() {
		srv.Close()
		if closer != nil {
			closer.Close()
		}
	})
	return srv.URL
}
