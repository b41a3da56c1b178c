package inmem

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"runtime"

	"golang.org/x/sync/errgroup"

	"github.com/gqlbench/gqlbench/server"
	"github.com/gqlbench/gqlbench/verify"
	"github.com/gqlbench/gqlbench/workload"
)

// Expect sets the Expect of every instance to the hash (verify.Hash) of the
// data the oracle answers over d. The requests are built as the HTTP layer
// builds them (variables through JSON), and run on every CPU. An answer with
// errors is an error: every instance of the benchmark has a right answer.
func Expect(ctx context.Context, d *Data, inst []workload.Instance) error {
	oracle := NewExecutor(d, server.Config{})
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(runtime.GOMAXPROCS(0))
	for i := range inst {
		g.Go(func() error {
			in := &inst[i]
			req, err := instanceRequest(*in)
			if err != nil {
				return err
			}
			r := oracle.Execute(gctx, req)
			if len(r.Errors) > 0 {
				return fmt.Errorf("instance %s %v: the oracle answered with errors: %v", in.ID, in.Variables, r.Errors)
			}
			if in.Expect, err = verify.Hash(r.Data); err != nil {
				return fmt.Errorf("instance %s: the oracle's answer: %w", in.ID, err)
			}
			return nil
		})
	}
	return g.Wait()
}

// instanceRequest is the GraphQL request of in, its variables passed through
// JSON as a server receives them (numbers as json.Number, as gqlgen's own
// transport decodes them).
func instanceRequest(in workload.Instance) (*server.Request, error) {
	b, err := json.Marshal(in.Variables)
	if err != nil {
		return nil, fmt.Errorf("instance %s: %w", in.ID, err)
	}
	req := &server.Request{Query: in.Query}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&req.Variables); err != nil {
		return nil, fmt.Errorf("instance %s: %w", in.ID, err)
	}
	return req, nil
}

// Answerer returns the oracle as a function of a query and its variables:
// the data of the answer over d, the variables passed through JSON as a
// server receives them, or an error when the answer has errors (package
// task takes its right answers from it).
func Answerer(d *Data) func(ctx context.Context, query string, vars map[string]any) (json.RawMessage, error) {
	oracle := NewExecutor(d, server.Config{})
	return func(ctx context.Context, query string, vars map[string]any) (json.RawMessage, error) {
		req, err := instanceRequest(workload.Instance{ID: "task", Query: query, Variables: vars})
		if err != nil {
			return nil, err
		}
		r := oracle.Execute(ctx, req)
		if len(r.Errors) > 0 {
			return nil, fmt.Errorf("the oracle answered %v with errors: %v", vars, r.Errors)
		}
		return r.Data, nil
	}
}
