package wire

import (
	"fmt"

	"github.com/gqlbench/gqlbench/dialect"
	"github.com/gqlbench/gqlbench/queryfile"
)

// Request is one query of a workload, ready to send.
type Request struct {
	ID       string // the instance's id
	Template string // the entry's label, e.g. "QT5" or an operation's name: what results are grouped by
	Body     []byte // the HTTP request body: {"query":...,"variables":...}
	// Expect is the hash of the right answer's data (verify.HashWith under
	// the request's options); "" when unknown.
	Expect string
	// Answer is the right answer's data (canonical JSON) when known: wrong
	// answers are then shown field by field.
	Answer []byte
	// Unordered compares the answer's lists as multisets.
	Unordered bool
	// Mutation says that the request runs a mutation (or a step does): it
	// is sent by POST under --method GET, and recorded one at a time.
	// (Beside Unordered: the two take one word.)
	Mutation bool
	// Dialect is the schema the query is written in ("" for the
	// benchmark's); Map, when not nil, turns the dialect's answer into the
	// benchmark's before it is compared (Expect and Answer are the
	// benchmark's).
	Dialect string
	Map     *dialect.Mapping
	// Query, OperationName and Variables are the request's parts, for the
	// transports that send them otherwise than as Body (GET, persisted
	// queries).
	Query, OperationName string
	Variables            []byte
	// Plan is the request as REST calls (queryfile.Plan), for the REST
	// transport; nil when the entry has none.
	Plan queryfile.Plan
	// GraphQLPlan is the GraphQL form as several requests (queryfile.Entry's
	// GraphQLPlan, "steps" in the file), carried out as a plan against the GraphQL endpoint; nil when
	// the entry has one query.
	GraphQLPlan queryfile.Plan
}

// Requests makes the requests of a queries file's entries: each entry's
// GraphQL-over-HTTP POST body, its label and expected answer, and for an
// entry written in a dialect the mapping of its template's answers
// (package dialect; an unknown dialect or template is an error).
func Requests(entries []queryfile.Entry) ([]Request, error) {
	out := make([]Request, len(entries))
	if err := queryfile.EachBody(entries, func(i int, b []byte) { out[i].Body = b }); err != nil {
		return nil, err
	}
	// a file's entries share a few queries: each one's kind is read once,
	// the one before's taken again without a look-up
	mutation := map[[2]string]bool{}
	var last [2]string
	lastMut, haveLast := false, false
	for i := range entries {
		e := &entries[i]
		var mut bool
		switch {
		case e.GraphQLPlan != nil:
			mut = e.Mutation()
		case haveLast && e.Query == last[0] && e.OperationName == last[1]:
			mut = lastMut
		default:
			key := [2]string{e.Query, e.OperationName}
			known := false
			if mut, known = mutation[key]; !known {
				mut = e.Mutation()
				mutation[key] = mut
			}
			last, lastMut, haveLast = key, mut, true
		}
		r := &out[i] // (its Body set already)
		r.ID, r.Template, r.Expect, r.Answer, r.Unordered = e.ID, e.Label, e.Expect, e.Answer, e.Unordered
		r.Query, r.OperationName, r.Variables, r.Dialect = e.Query, e.OperationName, e.Variables, e.Dialect
		r.Plan, r.GraphQLPlan, r.Mutation = e.Plan, e.GraphQLPlan, mut
		if e.Dialect != "" {
			t, err := dialect.Find(e.Dialect, e.Label)
			if err != nil {
				return nil, fmt.Errorf("entry %q: %w", e.ID, err)
			}
			r.Map = &t.Mapping
		}
	}
	return out, nil
}

// Mapped is the benchmark's form of data, a response's data to r: data
// itself unless r is written in a dialect.
func (r *Request) Mapped(data []byte) ([]byte, error) {
	if r.Map == nil {
		return data, nil
	}
	m, err := r.Map.Apply(data)
	if err != nil {
		return nil, fmt.Errorf("the %s answer does not map to the benchmark's: %w", r.Dialect, err)
	}
	return m, nil
}
