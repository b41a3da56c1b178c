package workload

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
	"github.com/vektah/gqlparser/v2/validator"
)

// maxQueryTokens bounds the work of parsing a query from a file.
const maxQueryTokens = 20000

// checkQuery reports whether q is t's query: the same text, or a text that
// parses, validates against the schema and means the same operation (it may
// differ in layout and in the order of arguments and object fields).
func (t *Template) checkQuery(q string) (err error) {
	if q == t.Query {
		return nil
	}
	doc, err := parseAndValidate(q)
	if err != nil {
		return err
	}
	if len(doc.Operations) != 1 || printCanonical(doc.Operations[0]) != t.canonical {
		return fmt.Errorf("the query is not template %s's query (an instance's query is its template's text; only the variables vary)", t.Name)
	}
	return nil
}

// parseAndValidate parses a query document from a file and validates it
// against the schema.
func parseAndValidate(q string) (doc *ast.QueryDocument, err error) {
	defer func() {
		// The parser and validator are not ours; a panic on hostile input
		// must not take the process down.
		if p := recover(); p != nil {
			doc, err = nil, fmt.Errorf("the query cannot be checked: %v", p)
		}
	}()
	doc, err = parser.ParseQueryWithTokenLimit(&ast.Source{Name: "query", Input: q}, maxQueryTokens)
	if err != nil {
		return nil, fmt.Errorf("the query does not parse: %w", err)
	}
	if errs := validator.ValidateWithRules(Schema(), doc, nil); len(errs) > 0 {
		return nil, fmt.Errorf("the query does not validate against the schema: %w", errs)
	}
	return doc, nil
}

// checkVars validates vars as t's variables: exactly t's names, values that
// GraphQL's variable coercion accepts (validator.VariableValues), and, more
// strictly than coercion, values of the JSON type the variable's type
// implies (no number for a String, enum values in their exact case, Int in
// 32 bits). It returns the values normalised as Generate makes them: IDs as
// strings, Int as int.
func (t *Template) checkVars(vars map[string]any) (map[string]any, error) {
	for name := range vars {
		if t.Var(name) == nil {
			return nil, fmt.Errorf("%s has no variable $%s (it takes %s)", t.Name, name, t.VarNames())
		}
	}
	if _, err := validator.VariableValues(Schema(), t.op, cloneMap(vars)); err != nil {
		return nil, fmt.Errorf("%s: %w", t.Name, err)
	}
	out := make(map[string]any, len(t.Vars))
	for _, v := range t.Vars {
		val, err := normalise(vars[v.Name], v)
		if err != nil {
			return nil, fmt.Errorf("%s: variable $%s: %w", t.Name, v.Name, err)
		}
		out[v.Name] = val
	}
	return out, nil
}

func cloneMap(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// normalise converts a variable value decoded from JSON (numbers as
// json.Number or float64) or built in Go to its canonical Go type.
func normalise(val any, v Var) (any, error) {
	switch v.Domain.graphQLType() {
	case "ID!":
		switch x := val.(type) {
		case string:
			return x, nil
		case json.Number:
			if _, err := strconv.ParseInt(x.String(), 10, 64); err == nil {
				return x.String(), nil
			}
		case int:
			return strconv.Itoa(x), nil
		}
		return nil, fmt.Errorf("want an ID (a string or an integer), got %s", describe(val))
	case "Int!":
		var n int64
		switch x := val.(type) {
		case json.Number:
			i, err := strconv.ParseInt(x.String(), 10, 64)
			if err != nil {
				return nil, fmt.Errorf("want an Int, got %s", x)
			}
			n = i
		case float64:
			if x != math.Trunc(x) {
				return nil, fmt.Errorf("want an Int, got %v", x)
			}
			n = int64(x)
		case int:
			n = int64(x)
		default:
			return nil, fmt.Errorf("want an Int, got %s", describe(val))
		}
		if n < math.MinInt32 || n > math.MaxInt32 {
			return nil, fmt.Errorf("%d is outside GraphQL's 32-bit Int", n)
		}
		return int(n), nil
	case "String!":
		if x, ok := val.(string); ok {
			return x, nil
		}
		return nil, fmt.Errorf("want a String, got %s", describe(val))
	default: // an enum
		if x, ok := val.(string); ok && slices.Contains(v.Domain.Values, x) {
			return x, nil
		}
		return nil, fmt.Errorf("want one of the %s values %v (exact case), got %s", v.Domain.Enum, v.Domain.Values, describe(val))
	}
}

func describe(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return strconv.Quote(x)
	case json.Number:
		return "the number " + x.String()
	case bool:
		return strconv.FormatBool(x)
	case []any:
		return "a list"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%v", v)
}
