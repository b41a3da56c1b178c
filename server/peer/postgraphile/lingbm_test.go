package postgraphile

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gqlbench/gqlbench/dataset"
	"github.com/gqlbench/gqlbench/internal/pglocal/pgtest"
	"github.com/gqlbench/gqlbench/queryfile"
	"github.com/gqlbench/gqlbench/server"
	"github.com/gqlbench/gqlbench/server/inmem"
	"github.com/gqlbench/gqlbench/store"
	"github.com/gqlbench/gqlbench/workload"
)

// TestLinGBMPostGraphileFiles: LinGBM's own main-PostGraphile query files,
// made by LinGBM's query generator from `gen --sf 1 --values`
// (testdata/lingbm-querygen-sf1), answer on `serve postgraphile` over that
// dataset — their ids are integer literals where gqlbench's keys are
// BigInt — and each answer holds the same values as the oracle's answer to
// LinGBM's main template file of the same name (the generator draws the
// same values for both), compared as multisets of leaf values (the two
// schemas name and nest them differently).
func TestLinGBMPostGraphileFiles(t *testing.T) {
	ctx := context.Background()
	f := &fixture{install: installed(t), db: pgtest.URL(t)}
	meta, err := store.Fill(ctx, &store.PostgresTarget{URL: f.db}, dataset.Config{Seed: 0, Scale: 1}, store.FillOptions{})
	if err != nil {
		t.Fatalf("loading sf=1: %v", err)
	}
	data, err := inmem.ForMeta(ctx, meta)
	if err != nil {
		t.Fatal(err)
	}
	main, err := workload.ImportLinGBM("../../../cmd/gqlbench/cli/testdata/lingbm-querygen-sf1")
	if err != nil {
		t.Fatal(err)
	}
	mainEntries, err := workload.Entries(main)
	if err != nil {
		t.Fatal(err)
	}
	oracle := inmem.NewExecutor(data, server.Config{})
	r := f.start(t, server.ProcessConfig{Config: server.Config{Pool: 2}})
	root := filepath.Join("testdata", "lingbm-querygen-sf1", "actualQueries")
	dirs, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	answered, nonEmpty := 0, 0
	for _, d := range dirs {
		for i := 1; ; i++ {
			name := filepath.Join(d.Name(), fmt.Sprintf("query%d.graphql", i))
			src, err := os.ReadFile(filepath.Join(root, name))
			if err != nil {
				break
			}
			id := fmt.Sprintf("%s-%04d", d.Name(), i)
			k := slices.IndexFunc(mainEntries, func(e queryfile.Entry) bool { return e.ID == id })
			if k < 0 {
				t.Fatalf("%s: no main-template file of the same name", name)
			}
			got, errs := post(t, r.URL, string(src))
			if errs != "" {
				t.Errorf("%s: errors %s", name, errs)
				continue
			}
			answered++
			want := oracle.Execute(ctx, request(t, mainEntries[k]))
			if len(want.Errors) > 0 {
				t.Fatalf("%s: the oracle: %v", id, want.Errors)
			}
			g, w := leaves(t, got), leaves(t, want.Data)
			if d.Name() == "QT5" {
				// LinGBM's QT5 leaves out the department's own nr that the main template selects.
				w = removeOnce(w, mainEntries[k].Variables)
			}
			if !slices.Equal(g, w) {
				t.Errorf("%s: %d leaf values where the oracle's answer to the main template has %d (first differences: %v)", name, len(g), len(w), firstDiff(g, w))
			}
			if len(g) > 0 {
				nonEmpty++
			}
		}
	}
	if answered != 65 || nonEmpty < 40 {
		t.Errorf("%d of 65 files answered, %d with values", answered, nonEmpty)
	}
}

// post sends query to url and returns its data, or its errors as text.
func post(t *testing.T, url, query string) (json.RawMessage, string) {
	t.Helper()
	body, _ := json.Marshal(map[string]string{"query": query})
	resp, err := http.Post(url, "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		Data   json.RawMessage `json:"data"`
		Errors json.RawMessage `json:"errors"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatalf("HTTP %d: %v", resp.StatusCode, err)
	}
	if len(out.Errors) > 0 || resp.StatusCode != 200 {
		return nil, fmt.Sprintf("HTTP %d %s", resp.StatusCode, out.Errors)
	}
	return out.Data, ""
}

// leaves are the scalar values of an answer, sorted, numbers and strings
// alike as their text (an id is "12" in one schema and 12 in the other).
func leaves(t *testing.T, data json.RawMessage) []string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	var out []string
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for _, c := range v {
				walk(c)
			}
		case []any:
			for _, c := range v {
				walk(c)
			}
		default:
			out = append(out, fmt.Sprint(v))
		}
	}
	walk(v)
	slices.Sort(out)
	return out
}

// removeOnce removes one occurrence of the department id of QT5's variables.
func removeOnce(list []string, vars json.RawMessage) []string {
	var v struct{ DepartmentID string }
	json.Unmarshal(vars, &v)
	if i := slices.Index(list, v.DepartmentID); i >= 0 {
		return slices.Delete(slices.Clone(list), i, i+1)
	}
	return list
}

func firstDiff(a, b []string) string {
	var only []string
	ma := map[string]int{}
	for _, x := range a {
		ma[x]++
	}
	for _, x := range b {
		if ma[x] > 0 {
			ma[x]--
		} else if len(only) < 3 {
			only = append(only, "want "+x)
		}
	}
	for x, n := range ma {
		if n > 0 && len(only) < 6 {
			only = append(only, "got "+x)
		}
	}
	return strings.Join(only, ", ")
}
