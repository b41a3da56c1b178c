package operation

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
	"github.com/vektah/gqlparser/v2/validator"
)

// IntrospectionQuery asks a server for its schema: every type with its
// fields, arguments, input fields, interfaces, possible types and enum
// values (deprecated ones included), and every directive. Type references
// are followed eight levels deep ([[T!]!]! takes five). It leaves out the
// fields added to introspection after the 2018 specification
// (isRepeatable, specifiedByURL, includeDeprecated on arguments), which
// older servers refuse.
const IntrospectionQuery = `query IntrospectionQuery {
  __schema {
    queryType { name }
    mutationType { name }
    subscriptionType { name }
    types { ...FullType }
    directives { name description locations args { ...InputValue } }
  }
}

fragment FullType on __Type {
  kind
  name
  description
  fields(includeDeprecated: true) {
    name
    description
    args { ...InputValue }
    type { ...TypeRef }
    isDeprecated
    deprecationReason
  }
  inputFields { ...InputValue }
  interfaces { ...TypeRef }
  enumValues(includeDeprecated: true) { name description isDeprecated deprecationReason }
  possibleTypes { ...TypeRef }
}

fragment InputValue on __InputValue {
  name
  description
  type { ...TypeRef }
  defaultValue
}

fragment TypeRef on __Type {
  kind name
  ofType { kind name ofType { kind name ofType { kind name ofType { kind name
    ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } } } } } }
}
`

// maxIntrospectionBytes bounds an introspection answer read from a server.
const maxIntrospectionBytes = 64 << 20

// FetchSchema posts IntrospectionQuery to the GraphQL endpoint url (with
// header, which may be nil) and converts the answer with
// SchemaFromIntrospection.
func FetchSchema(ctx context.Context, client *http.Client, url string, header http.Header) (*ast.Schema, error) {
	if client == nil {
		client = http.DefaultClient
	}
	body, err := json.Marshal(map[string]any{"query": IntrospectionQuery, "operationName": "IntrospectionQuery", "variables": map[string]any{}})
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	for k, vs := range header {
		req.Header[k] = vs
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/graphql-response+json, application/json")
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("introspection of %s: %w", url, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxIntrospectionBytes+1))
	if err != nil {
		return nil, fmt.Errorf("introspection of %s: %w", url, err)
	}
	if len(data) > maxIntrospectionBytes {
		return nil, fmt.Errorf("introspection of %s: the answer is longer than %d bytes", url, maxIntrospectionBytes)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, &StatusError{URL: url, Status: resp.StatusCode, Text: resp.Status, Body: clip(string(data))}
	}
	s, err := SchemaFromIntrospection(data, "introspection of "+url)
	if err != nil {
		return nil, fmt.Errorf("introspection of %s: %w", url, err)
	}
	return s, nil
}

// StatusError is an introspection request answered with an HTTP status
// other than 200: 401 or 403 when the endpoint wants credentials.
type StatusError struct {
	URL    string
	Status int    // e.g. 401
	Text   string // e.g. "401 Unauthorized"
	Body   string // the start of the answer
}

func (e *StatusError) Error() string {
	return fmt.Sprintf("introspection of %s: HTTP %s: %s", e.URL, e.Text, e.Body)
}

// SchemaFromIntrospection converts an introspection result, as
// {"data":{"__schema":…}} or {"__schema":…}, to SDL (IntrospectionSDL) and
// loads it; name is the source name its errors carry.
func SchemaFromIntrospection(data []byte, name string) (*ast.Schema, error) {
	sdl, err := IntrospectionSDL(data)
	if err != nil {
		return nil, err
	}
	s, err := gqlparser.LoadSchema(&ast.Source{Name: name, Input: sdl})
	if err != nil {
		return nil, fmt.Errorf("the schema it describes does not load: %w", err)
	}
	return s, nil
}

// The introspection result, as IntrospectionQuery asks for it.
type (
	introSchema struct {
		QueryType        *introName       `json:"queryType"`
		MutationType     *introName       `json:"mutationType"`
		SubscriptionType *introName       `json:"subscriptionType"`
		Types            []introType      `json:"types"`
		Directives       []introDirective `json:"directives"`
	}
	introName struct {
		Name string `json:"name"`
	}
	introType struct {
		Kind          string       `json:"kind"`
		Name          string       `json:"name"`
		Description   *string      `json:"description"`
		Fields        []introField `json:"fields"`
		InputFields   []introInput `json:"inputFields"`
		Interfaces    []introRef   `json:"interfaces"`
		EnumValues    []introEnum  `json:"enumValues"`
		PossibleTypes []introRef   `json:"possibleTypes"`
	}
	introField struct {
		Name              string       `json:"name"`
		Description       *string      `json:"description"`
		Args              []introInput `json:"args"`
		Type              *introRef    `json:"type"`
		IsDeprecated      bool         `json:"isDeprecated"`
		DeprecationReason *string      `json:"deprecationReason"`
	}
	introInput struct {
		Name         string    `json:"name"`
		Description  *string   `json:"description"`
		Type         *introRef `json:"type"`
		DefaultValue *string   `json:"defaultValue"`
	}
	introEnum struct {
		Name              string  `json:"name"`
		Description       *string `json:"description"`
		IsDeprecated      bool    `json:"isDeprecated"`
		DeprecationReason *string `json:"deprecationReason"`
	}
	introRef struct {
		Kind   string    `json:"kind"`
		Name   *string   `json:"name"`
		OfType *introRef `json:"ofType"`
	}
	introDirective struct {
		Name        string       `json:"name"`
		Description *string      `json:"description"`
		Locations   []string     `json:"locations"`
		Args        []introInput `json:"args"`
	}
)

// decodeIntrospection finds __schema in an introspection result.
func decodeIntrospection(data []byte) (*introSchema, error) {
	var env struct {
		Data *struct {
			Schema *introSchema `json:"__schema"`
		} `json:"data"`
		Schema *introSchema               `json:"__schema"`
		Errors []struct{ Message string } `json:"errors"`
	}
	if err := json.Unmarshal(data, &env); err != nil {
		return nil, fmt.Errorf("not an introspection result: %v", err)
	}
	s := env.Schema
	if env.Data != nil && env.Data.Schema != nil {
		s = env.Data.Schema
	}
	if s == nil {
		var msgs []string
		for _, e := range env.Errors {
			msgs = append(msgs, e.Message)
		}
		if len(msgs) > 0 {
			return nil, fmt.Errorf("the server answered errors: %s", strings.Join(msgs, "; "))
		}
		return nil, fmt.Errorf(`not an introspection result: no "__schema" (want {"data":{"__schema":…}} or {"__schema":…})`)
	}
	if s.QueryType == nil || s.QueryType.Name == "" {
		return nil, fmt.Errorf("the introspection result has no query type")
	}
	return s, nil
}

// prelude holds the names of the types and directives every gqlparser
// schema has already (validator.Prelude): the SDL leaves them out.
var prelude = func() map[string]bool {
	doc, err := parser.ParseSchema(validator.Prelude)
	if err != nil {
		panic("operation: gqlparser's prelude does not parse: " + err.Error())
	}
	m := map[string]bool{}
	for _, d := range doc.Definitions {
		m[d.Name] = true
	}
	for _, d := range doc.Directives {
		m["@"+d.Name] = true
	}
	return m
}()

// IntrospectionSDL converts an introspection result ({"data":{"__schema":…}}
// or {"__schema":…}) to SDL: a schema definition naming the root types,
// then every type but the introspection types and the built-in scalars,
// then every directive gqlparser does not define itself; with
// descriptions, default values and deprecations.
func IntrospectionSDL(data []byte) (string, error) {
	s, err := decodeIntrospection(data)
	if err != nil {
		return "", err
	}
	w := &sdlWriter{}
	w.printf("schema {\n  query: %s\n", s.QueryType.Name)
	if s.MutationType != nil && s.MutationType.Name != "" {
		w.printf("  mutation: %s\n", s.MutationType.Name)
	}
	if s.SubscriptionType != nil && s.SubscriptionType.Name != "" {
		w.printf("  subscription: %s\n", s.SubscriptionType.Name)
	}
	w.printf("}\n")
	for _, t := range s.Types {
		if strings.HasPrefix(t.Name, "__") || prelude[t.Name] {
			continue
		}
		w.typ(t)
	}
	for _, d := range s.Directives {
		if !prelude["@"+d.Name] {
			w.directive(d)
		}
	}
	if w.err != nil {
		return "", w.err
	}
	return w.b.String(), nil
}
