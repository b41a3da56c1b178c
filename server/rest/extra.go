package rest

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"sync"

	"github.com/gqlbench/gqlbench/server/db"
)

// connectionName is the one object field of the schema that is neither a
// scalar nor a relation: University.graduateStudentConnection, served at
// /rest/universities/{nr}/graduateStudentConnection.
const connectionName = "graduateStudentConnection"

// connectionSQL aggregates the ages of a university's graduate students
// (by undergraduate degree); no row when the university does not exist.
// SUM is cast because PostgreSQL sums bigints as numeric.
const connectionSQL = "SELECT COUNT(g.nr), CAST(COALESCE(SUM(g.age), 0) AS BIGINT), COALESCE(MAX(g.age), 0), COALESCE(MIN(g.age), 0) " +
	"FROM university p LEFT JOIN graduateStudent g ON g.undergraduateDegreeFrom = p.nr WHERE p.nr = ? GROUP BY p.nr"

// connection serves /rest/universities/{nr}/graduateStudentConnection:
// {"aggregate": {"count", "age": {"sum", "avg", "max", "min"}}}, 0 over no
// students, as in the schema.
func (h *Handler) connection(ctx context.Context, r *http.Request, nr int64) *reply {
	if r.URL.RawQuery != "" {
		return problemReply(badRequest("%s takes no parameters", connectionName))
	}
	var n, sum, hi, lo int64
	found := false
	err := h.db.Select(ctx, connectionSQL, []any{nr}, func(r db.Rows) error {
		found = true
		return r.Scan(&n, &sum, &hi, &lo)
	})
	switch {
	case err != nil:
		return h.failure(ctx, err)
	case !found:
		return problemReply(notFound("there is no University with id %d", nr))
	}
	avg := 0.0
	if n > 0 {
		avg = float64(sum) / float64(n)
	}
	b := []byte(`{"aggregate":{"count":`)
	b = strconv.AppendInt(b, n, 10)
	b = append(b, `,"age":{"sum":`...)
	b = strconv.AppendInt(b, sum, 10)
	b = append(b, `,"avg":`...)
	b = strconv.AppendFloat(b, avg, 'f', -1, 64)
	b = append(b, `,"max":`...)
	b = strconv.AppendInt(b, hi, 10)
	b = append(b, `,"min":`...)
	b = strconv.AppendInt(b, lo, 10)
	return &reply{status: http.StatusOK, body: append(b, "}}}"...)}
}

// index is GET /rest: every collection with its URL, fields, lists and
// methods, so that a client can find its way without the documentation.
var index = sync.OnceValue(func() []byte {
	type entry struct {
		Name     string   `json:"name"`
		Type     string   `json:"type"`
		URL      string   `json:"url"`
		Fields   []string `json:"fields"`
		Lists    []string `json:"lists"`
		Methods  []string `json:"methods"`
		Writable []string `json:"writable,omitempty"`
	}
	var out struct {
		Collections []entry `json:"collections"`
	}
	for _, c := range collections {
		e := entry{Name: c.name, Type: c.typ, URL: "/rest/" + c.name + "/{id}", Lists: []string{}, Methods: []string{"GET"}}
		for _, f := range c.fields {
			e.Fields = append(e.Fields, f.name)
		}
		for _, r := range c.relations {
			e.Lists = append(e.Lists, r.name)
		}
		if c == universities {
			e.Lists = append(e.Lists, connectionName)
		}
		if c.write != nil {
			e.Methods = append(e.Methods, "POST", "PATCH", "DELETE")
			for _, f := range c.write.Fields {
				e.Writable = append(e.Writable, f.Name)
			}
		}
		out.Collections = append(out.Collections, e)
	}
	b, err := json.Marshal(out)
	if err != nil {
		panic(err)
	}
	return b
})
