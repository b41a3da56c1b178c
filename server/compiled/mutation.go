package compiled

import (
	"context"
	"errors"
	"maps"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/gqlbench/gqlbench/server"
	"github.com/gqlbench/gqlbench/server/db"
	"github.com/gqlbench/gqlbench/server/write"
)

// Mutations (workload/writes.graphql). A mutation operation runs its root
// fields in order, as GraphQL runs mutations, each one write of package
// write (the same writes as the other variants') in a transaction that also
// runs the field's payload statement: the field's selection set compiled
// like a query over the row written, read after a create or an update and
// before a delete, so that the payload is exactly the row the write left
// (or removed). A field that is refused (bad input, a row that does not
// exist or belongs to the generated dataset) is null with an error; the
// others still run.

// nrVar is the name under which the payload statement finds the written
// row's nr among the variables: not a GraphQL name, so no variable has it.
const nrVar = "#nr"

// mutationField is a root field of a mutation operation.
type mutationField struct {
	key     string     // the response key
	field   *ast.Field // its arguments
	action  string     // create, update, delete; "" for __typename
	entity  *write.Entity
	payload *plan // the selection set over the row nr (nrVar)
}

// compileMutation compiles the payload statement of every root field of
// mutation operation op.
func compileMutation(d dialect, schema *ast.Schema, doc *ast.QueryDocument, op *ast.OperationDefinition, vars map[string]any) (*plan, error) {
	c := &compiler{d: d, schema: schema, doc: doc, vars: vars, paramIndex: map[string]int{}, memo: map[string]string{}}
	p := &plan{writes: []*mutationField{}}
	for _, g := range c.collect("Mutation", op.SelectionSet) {
		f := &mutationField{key: g.key, field: g.fields[0]}
		p.writes = append(p.writes, f)
		if g.name() == "__typename" {
			continue
		}
		def := schema.Mutation.Fields.ForName(g.name())
		for _, a := range []string{"create", "update", "delete"} {
			if strings.HasPrefix(g.name(), a) {
				f.action = a
			}
		}
		typ := def.Type.Name()
		for _, e := range write.Entities {
			if e.Type == typ {
				f.entity = e
			}
		}
		if f.action == "" || f.entity == nil {
			return nil, errors.New("mutation " + g.name() + " is not supported")
		}
		t := c.newRow(typ)
		nr := c.param(&leaf{name: nrVar}, convID, sqlInt, "nr")
		sql, params := finish("SELECT "+d.top(c.one(t, []string{t.col("nr") + " = " + nr}, false, g.set())), c.params)
		f.payload = &plan{sql: sql, params: params}
	}
	if c.err != nil {
		return nil, c.err
	}
	return p, nil
}

// mutate runs the mutation plan p with the request's coerced variables.
func (e *Executor) mutate(ctx context.Context, p *plan, vars map[string]any) *server.Response {
	var b strings.Builder
	var errs gqlerror.List
	status := 0
	b.WriteByte('{')
	for i, f := range p.writes {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"` + f.key + `":`) // a GraphQL name: nothing to escape
		if f.action == "" {
			b.WriteString(`"Mutation"`)
			continue
		}
		data, err := e.write(ctx, f, vars)
		if err != nil {
			var we *write.Error
			if !errors.As(err, &we) && status == 0 {
				status = server.StatusFor(err)
			}
			errs = append(errs, &gqlerror.Error{Message: err.Error(), Path: ast.Path{ast.PathName(f.key)}})
			data = nil
		}
		if len(data) == 0 {
			data = []byte("null")
		}
		b.Write(data)
	}
	b.WriteByte('}')
	data, remoteErrs := e.resolveRemote(ctx, []byte(b.String()))
	return &server.Response{Data: data, Errors: append(errs, remoteErrs...), Status: status}
}

// write runs mutation field f and returns its payload.
func (e *Executor) write(ctx context.Context, f *mutationField, vars map[string]any) ([]byte, error) {
	args := f.field.ArgumentMap(vars)
	var payload []byte
	hook := func(ctx context.Context, tx *db.Tx, nr int64) error {
		v := maps.Clone(vars)
		if v == nil {
			v = map[string]any{}
		}
		v[nrVar] = nr
		pargs, _, err := f.payload.args(v)
		if err != nil {
			return err
		}
		return tx.Select(ctx, f.payload.sql, pargs, func(r db.Rows) error { return r.Scan(&payload) })
	}
	var nr int64
	if f.action != "create" {
		id, ok := toID(args["nr"]).(int64)
		if !ok {
			return nil, &write.Error{Kind: write.Invalid, Msg: "nr: ID " + describe(args["nr"]) + " is not an integer: every id of this schema is an integer nr"}
		}
		nr = id
	}
	var err error
	switch f.action {
	case "create", "update":
		input, _ := args["input"].(map[string]any)
		var in *write.Input
		if in, err = write.Parse(f.entity, input, f.action == "create"); err != nil {
			return nil, err
		}
		if f.action == "create" {
			_, err = e.store.Create(ctx, in, hook)
		} else {
			_, err = e.store.Update(ctx, nr, in, hook)
		}
	default:
		_, err = e.store.Delete(ctx, f.entity, nr, hook)
	}
	return payload, err
}
