package operation

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/validator"
)

// LoadSchema loads a schema from src: an http:// or https:// URL is a
// GraphQL endpoint, asked with the introspection query (FetchSchema, with
// client, nil for http.DefaultClient); a file ending in .json is an
// introspection result (SchemaFromIntrospection); any other file is SDL
// (.graphql, .graphqls, .gql).
func LoadSchema(ctx context.Context, src string, client *http.Client) (*ast.Schema, error) {
	if strings.HasPrefix(src, "http://") || strings.HasPrefix(src, "https://") {
		return FetchSchema(ctx, client, src, nil)
	}
	b, err := os.ReadFile(src)
	if err != nil {
		return nil, err
	}
	switch strings.ToLower(filepath.Ext(src)) {
	case ".json":
		s, err := SchemaFromIntrospection(b, src)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", src, err)
		}
		return s, nil
	case ".graphql", ".graphqls", ".gql":
		s, err := gqlparser.LoadSchema(&ast.Source{Name: src, Input: string(b)})
		if err != nil {
			return nil, fmt.Errorf("schema %w", err)
		}
		return s, nil
	}
	return nil, fmt.Errorf("%s: a schema is SDL (.graphql, .graphqls), an introspection result (.json) or an endpoint's URL", src)
}

// Validate validates every operation, with the fragments it uses, against
// schema with gqlparser's validator (the rules of the GraphQL
// specification), and keeps schema in s.Schema: Bind then checks values
// against it, and Literal prints enums as enums. Errors name the file, line
// and column.
func (s *Set) Validate(schema *ast.Schema) error {
	var errs []error
	seen := map[string]bool{}
	for _, op := range s.Ops {
		doc := &ast.QueryDocument{Operations: ast.OperationList{op.def}}
		for _, f := range op.frags {
			doc.Fragments = append(doc.Fragments, f.def)
		}
		for _, e := range validator.ValidateWithRules(schema, doc, nil) {
			msg := validationError(e, op)
			if !seen[msg] { // a fragment's error comes once per operation using it
				seen[msg] = true
				errs = append(errs, fmt.Errorf("%s", msg))
			}
		}
	}
	if len(errs) > 0 {
		return joinErrors(errs)
	}
	s.Schema = schema
	return nil
}

// validationError writes e as file:line:col: message.
func validationError(e *gqlerror.Error, op *Operation) string {
	file, _ := e.Extensions["file"].(string)
	if file == "" {
		file = op.File
	}
	if len(e.Locations) == 0 {
		return fmt.Sprintf("%s: operation %s: %s", file, op.Name, e.Message)
	}
	return fmt.Sprintf("%s:%d:%d: %s", file, e.Locations[0].Line, e.Locations[0].Column, e.Message)
}
