package enginebench

import (
	"bytes"
	"context"
	"fmt"
	"runtime/debug"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
	"github.com/vektah/gqlparser/v2/validator"
	"github.com/vektah/gqlparser/v2/validator/rules"

	"github.com/gqlbench/gqlbench/server"
	"github.com/gqlbench/gqlbench/server/graph"
	"github.com/gqlbench/gqlbench/server/source"
)

// The phases.
const (
	Parse       = "parse"
	Validate    = "validate"
	Execute     = "execute"
	CompileMiss = "compile-miss"
	CompileHit  = "compile-hit"
)

// GqlgenOps returns the timed operations of engine gqlgen for shape s, the
// data coming from factory (f.Data: the in-memory dataset; the tests give
// a broken one):
//
//	parse     gqlparser's ParseQuery: the document, its operations counted
//	validate  gqlgen's validation: its default rules over the parsed document
//	execute   server/graph's Executor with the document cached: variables
//	          coerced, fields resolved, the data written as JSON; the JSON
//	          must equal the oracle's byte for byte
func GqlgenOps(f *Fixture, factory source.Factory, s Shape) (map[string]Op, error) {
	req, err := s.Request()
	if err != nil {
		return nil, err
	}
	want, ok := f.Oracle(s.Name)
	if !ok {
		return nil, fmt.Errorf("shape %s: no oracle answer", s.Name)
	}
	doc, perr := parser.ParseQuery(&ast.Source{Input: s.Query})
	if perr != nil {
		return nil, fmt.Errorf("shape %s: %v", s.Name, perr)
	}
	ops := len(doc.Operations)
	schema := gqlgenSchema()
	ex := graph.NewExecutor(factory, server.Config{})
	ctx := context.Background()
	return map[string]Op{
		Parse: func() error {
			d, err := parser.ParseQuery(&ast.Source{Input: s.Query})
			if err != nil || len(d.Operations) != ops {
				return fmt.Errorf("shape %s: parse: %v", s.Name, err)
			}
			return nil
		},
		Validate: func() error {
			if errs := validator.ValidateWithRules(schema, doc, rules.NewDefaultRules()); len(errs) > 0 {
				return fmt.Errorf("shape %s: validate: %v", s.Name, errs)
			}
			return nil
		},
		Execute: func() error {
			r := ex.Execute(ctx, req)
			if len(r.Errors) > 0 {
				return fmt.Errorf("shape %s: execute: %v", s.Name, r.Errors)
			}
			if !bytes.Equal(r.Data, want.Raw) {
				// Not the oracle's bytes: equal answers may still differ
				// in key order or number spelling, so compare properly.
				if err := f.check(s.Name, r.Data); err != nil {
					return err
				}
			}
			return nil
		},
	}, nil
}

// gqlgenSchema is the schema gqlgen's executor validates against.
func gqlgenSchema() *ast.Schema {
	return graph.NewExecutableSchema(graph.Config{Resolvers: &graph.Resolver{}}).Schema()
}

// gqlgenVersion is gqlgen's module version in this build.
func gqlgenVersion() string { return moduleVersion("github.com/99designs/gqlgen") }

// moduleVersion is a dependency's version in this build, "" when unknown.
func moduleVersion(path string) string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	for _, m := range bi.Deps {
		if m.Path == path {
			return m.Version
		}
	}
	return ""
}
