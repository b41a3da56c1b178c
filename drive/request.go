package drive

import (
	"encoding/json"
	"fmt"

	"github.com/gqlbench/gqlbench/workload"
)

// Request is one query of a workload, ready to send.
type Request struct {
	ID       string // the instance's id
	Template string // the template's name, e.g. "QT5": what results are grouped by
	Body     []byte // the HTTP request body: {"query":...,"variables":...}
	Expect   string // verify.Hash of the right answer's data; "" when unknown
}

// FromInstances makes the requests of a workload's query instances.
func FromInstances(ins []workload.Instance) ([]Request, error) {
	out := make([]Request, len(ins))
	for i, in := range ins {
		t, err := workload.TemplateByID(in.Template)
		if err != nil {
			return nil, fmt.Errorf("instance %q: %w", in.ID, err)
		}
		vars := in.Variables
		if vars == nil {
			vars = map[string]any{}
		}
		body, err := json.Marshal(struct {
			Query     string         `json:"query"`
			Variables map[string]any `json:"variables"`
		}{in.Query, vars})
		if err != nil {
			return nil, fmt.Errorf("instance %q: %w", in.ID, err)
		}
		out[i] = Request{ID: in.ID, Template: t.Name, Body: body, Expect: in.Expect}
	}
	return out, nil
}

// templates returns the distinct templates of reqs in order of first
// appearance and, per request, its template's index.
func templates(reqs []Request) (names []string, of []int32) {
	idx := map[string]int32{}
	of = make([]int32, len(reqs))
	for i, r := range reqs {
		t, ok := idx[r.Template]
		if !ok {
			t = int32(len(names))
			idx[r.Template] = t
			names = append(names, r.Template)
		}
		of[i] = t
	}
	return names, of
}
