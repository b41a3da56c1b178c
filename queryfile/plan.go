package queryfile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// Plan is a REST client's way to a task's answer: the calls it makes, each
// after the call whose answer it needs, and how their answers assemble into
// one answer, the same as the GraphQL form's data. The root calls start
// together; a call's Then calls start when its answer is in, once for its
// answer when that is an object and once for every element when it is a
// list (a client-side N+1, as REST clients make it). See docs/tasks.md.
type Plan []Call

// Call is one HTTP call of a plan and where its answer goes: a REST call
// (Method and Path) or, in an entry's GraphQLPlan, a GraphQL request (Query).
type Call struct {
	// Method is GET, POST, PUT, PATCH or DELETE.
	Method string
	// Path is the request's path and query, from the REST base URL on
	// ("/rest/faculty/{facultyID}"): {name} is the entry's variable name,
	// {.field} the field of the object this call depends on (an element of
	// its parent call's answer), both written escaped for a URL.
	Path string
	// Query is a GraphQL call's document, sent to the GraphQL endpoint
	// with Body as its variables; its answer must have no errors, and its
	// data is the answer. A call has a Query or a Method and Path.
	Query string
	// Body is the JSON body of a POST, PUT or PATCH, or a GraphQL call's
	// variables (an object); a string member that is exactly "{name}" or
	// "{.field}" is replaced by that value (typed); "{.a.b}" is member b of
	// member a of the object the call depends on.
	Body json.RawMessage
	// From, when set, is the part of the answer the call's answer is: a
	// dotted path of member names ("createPublication" of a mutation's
	// data). Keep, Then and As apply to that part.
	From string
	// As is where the answer goes: a dotted path of member names, from the
	// object the call depends on (the whole answer for a root call).
	// Members on the way that hold a reference (an id) or nothing become
	// objects; a list put where a list is already is appended to it. Empty
	// on a call without Keep and Then: the answer is no part of the task's
	// (a delete), the call's status and, for GraphQL, the absence of errors
	// are its check.
	As string
	// Keep are the members kept of the answer's object (of each of its
	// elements for a list), as dotted paths; "advisor.id" keeps a
	// reference "advisor":"12" as {"id":"12"}, as GraphQL writes it. The
	// members the Then calls put in are kept too. Nil keeps everything.
	Keep []string
	// Status is the HTTP status a right answer has; 0 means 200.
	Status int
	// Then are the calls that need this call's answer.
	Then []Call
}

// Limits of a plan, so that a mistaken file cannot make a task unbounded
// before a single call is made.
const (
	MaxPlanCalls = 256 // calls written in a plan (not counting a list's fan-out)
	MaxPlanDepth = 16  // calls in a chain
)

// planCall is a Call as written; a nil Keep is absent, an empty one [].
type planCall struct {
	Call      string          `json:"call,omitempty"`
	Query     string          `json:"query,omitempty"`
	Body      json.RawMessage `json:"body,omitempty"`
	Variables json.RawMessage `json:"variables,omitempty"`
	From      string          `json:"from,omitempty"`
	As        string          `json:"as,omitempty"`
	Keep      *[]string       `json:"keep,omitempty"`
	Status    int             `json:"status,omitempty"`
	Then      []Call          `json:"then,omitempty"`
}

// MarshalJSON writes the call as {"call":"GET /path","as":…}, a GraphQL
// call as {"query":…,"variables":…,"as":…}; a Keep that is empty but not
// nil is written as [] (keep only what Then puts in).
func (c Call) MarshalJSON() ([]byte, error) {
	p := planCall{Call: c.Method + " " + c.Path, Body: c.Body, From: c.From, As: c.As, Status: c.Status, Then: c.Then}
	if c.Query != "" {
		p.Call, p.Body, p.Query, p.Variables = "", nil, c.Query, c.Body
	}
	if c.Keep != nil {
		p.Keep = &c.Keep
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	err := enc.Encode(p)
	return bytes.TrimRight(b.Bytes(), "\n"), err
}

// UnmarshalJSON reads a call as written; Check validates it. Unknown
// members are an error: a misspelt "then" must not drop calls silently.
func (c *Call) UnmarshalJSON(b []byte) error {
	var p planCall
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return err
	}
	*c = Call{Query: p.Query, From: p.From, As: p.As, Status: p.Status}
	switch {
	case p.Query != "" && (p.Call != "" || p.Body != nil):
		return fmt.Errorf(`a call has a "query" (GraphQL, with "variables") or a "call" (REST, with "body"), not both`)
	case p.Query != "":
		p.Body = p.Variables
	case p.Variables != nil:
		return fmt.Errorf(`a call with "variables" is a GraphQL call (a step): give its document as "query", not "call"; a REST call has a "body"`)
	default:
		method, path, ok := strings.Cut(p.Call, " ")
		if !ok {
			return fmt.Errorf(`"call" must be "METHOD /path" (or a GraphQL call's "query"), got %.80q`, p.Call)
		}
		c.Method, c.Path = method, path
	}
	if len(p.Then) > 0 {
		c.Then = p.Then
	}
	if b := bytes.TrimSpace(p.Body); len(b) > 0 && string(b) != "null" {
		c.Body = b
	}
	if p.Keep != nil {
		c.Keep = *p.Keep
		if c.Keep == nil {
			c.Keep = []string{}
		}
	}
	if c.Body != nil {
		var cb bytes.Buffer
		if err := json.Compact(&cb, c.Body); err != nil {
			return fmt.Errorf("body: %w", err)
		}
		c.Body = cb.Bytes()
	}
	return nil
}

// Check reports the first thing wrong with the plan: a call that is not
// METHOD /path, a placeholder of a variable vars does not hold (or holds
// as an object or list), a {.field} in a root call, an empty or malformed
// "as" or "keep" path, a body on a method without one or a body that is not
// JSON, a status out of range, or more than MaxPlanCalls calls or
// MaxPlanDepth in a chain. vars is the entry's variables (nil: none).
// Every call of a plan is a REST call.
func (p Plan) Check(vars json.RawMessage) error { return p.check(vars, false) }

// CheckGraphQL is Check for an entry's GraphQLPlan, whose calls are GraphQL calls
// (a Query, and variables that are a JSON object).
func (p Plan) CheckGraphQL(vars json.RawMessage) error { return p.check(vars, true) }

func (p Plan) check(vars json.RawMessage, graphql bool) error {
	if len(p) == 0 {
		return fmt.Errorf("a plan needs at least one call")
	}
	values := map[string]json.RawMessage{}
	if len(vars) > 0 {
		if err := json.Unmarshal(vars, &values); err != nil {
			return fmt.Errorf("variables: %w", err)
		}
	}
	n := 0
	where := "plan"
	if graphql {
		where = "steps"
	}
	return checkCalls(p, values, graphql, 1, &n, where)
}

func checkCalls(calls []Call, vars map[string]json.RawMessage, graphql bool, depth int, n *int, where string) error {
	if depth > MaxPlanDepth {
		return fmt.Errorf("%s: calls chained more than %d deep", where, MaxPlanDepth)
	}
	for i := range calls {
		c := &calls[i]
		*n++
		if *n > MaxPlanCalls {
			return fmt.Errorf("more than %d calls in the plan", MaxPlanCalls)
		}
		at := fmt.Sprintf("%s[%d] (%s)", where, i, c.Label())
		if err := c.check(vars, graphql, depth > 1); err != nil {
			return fmt.Errorf("%s: %w", at, err)
		}
		if err := checkCalls(c.Then, vars, graphql, depth+1, n, at+".then"); err != nil {
			return err
		}
	}
	return nil
}

// Label names the call in messages: "GET /rest/x/{.y}", or a GraphQL
// call's document, shortened.
func (c *Call) Label() string {
	if c.Query == "" {
		return c.Method + " " + c.Path
	}
	q := strings.Join(strings.Fields(c.Query), " ")
	if len(q) > 60 {
		q = q[:57] + "..."
	}
	return "GraphQL " + q
}

// check validates one call (not its Then) of a plan, or with graphql of
// Steps; nested says it has a parent.
func (c *Call) check(vars map[string]json.RawMessage, graphql, nested bool) error {
	refs, err := c.checkForm(graphql)
	if err != nil {
		return err
	}
	inPath := len(refs)
	if c.Body != nil {
		var v any
		if err := json.Unmarshal(c.Body, &v); err != nil {
			return fmt.Errorf("body: %w", err)
		}
		refs = append(refs, bodyPlaceholders(v)...)
	}
	for i, r := range refs {
		if field, ok := strings.CutPrefix(r, "."); ok {
			if !nested {
				return fmt.Errorf("{.%s}: a root call has no object to take a field from", field)
			}
			continue
		}
		v, ok := vars[r]
		if !ok {
			return fmt.Errorf("{%s}: the entry has no variable %s", r, r)
		}
		// a body takes any JSON value; a path only a string, number or boolean
		if t := bytes.TrimSpace(v); i < inPath && len(t) > 0 && (t[0] == '{' || t[0] == '[') {
			return fmt.Errorf("{%s}: the variable is an object or a list, not a value for a path", r)
		}
	}
	if c.As != "" || c.Keep != nil || len(c.Then) > 0 {
		if err := checkPath(c.As); err != nil {
			return fmt.Errorf(`"as": %w (only a call without "keep" and "then" may leave it out)`, err)
		}
	}
	if c.From != "" {
		if err := checkPath(c.From); err != nil {
			return fmt.Errorf(`"from": %w`, err)
		}
	}
	for _, k := range c.Keep {
		if err := checkPath(k); err != nil {
			return fmt.Errorf(`"keep" %q: %w`, k, err)
		}
	}
	if c.Status != 0 && (c.Status < 100 || c.Status > 599) {
		return fmt.Errorf(`"status" %d is not an HTTP status`, c.Status)
	}
	return nil
}

// checkForm checks a call's kind — a REST call in a plan, a GraphQL call
// in Steps — and returns its path's placeholders.
func (c *Call) checkForm(graphql bool) ([]string, error) {
	switch {
	case graphql && c.Query == "":
		return nil, fmt.Errorf(`a step is a GraphQL call: "query" and "variables", not "call"`)
	case graphql && c.Body != nil && c.Body[0] != '{':
		return nil, fmt.Errorf(`"variables" must be a JSON object`)
	case graphql:
		return nil, nil
	case c.Query != "":
		return nil, fmt.Errorf(`a plan's calls are REST calls ("call": "METHOD /path"); GraphQL calls go in "steps"`)
	}
	switch c.Method {
	case "GET", "DELETE":
		if c.Body != nil {
			return nil, fmt.Errorf("a %s has no body", c.Method)
		}
	case "POST", "PUT", "PATCH":
	default:
		return nil, fmt.Errorf("method %.20q: want GET, POST, PUT, PATCH or DELETE", c.Method)
	}
	if !strings.HasPrefix(c.Path, "/") || strings.ContainsAny(c.Path, " \t\r\n") {
		return nil, fmt.Errorf("the path must start with / and hold no spaces")
	}
	return Placeholders(c.Path)
}

// Placeholders returns the names of the placeholders of a path template in
// order: "facultyID" for {facultyID}, ".advisor" for {.advisor}. A brace
// that does not open a well-formed placeholder is an error.
func Placeholders(path string) ([]string, error) {
	var out []string
	for rest := path; ; {
		i := strings.IndexAny(rest, "{}")
		if i < 0 {
			return out, nil
		}
		if rest[i] == '}' {
			return nil, fmt.Errorf("a } without its {")
		}
		j := strings.IndexByte(rest[i:], '}')
		if j < 0 {
			return nil, fmt.Errorf("a { without its }")
		}
		name := rest[i+1 : i+j]
		if !isName(strings.TrimPrefix(name, ".")) {
			return nil, fmt.Errorf("{%s}: want {variable} or {.field}", name)
		}
		out = append(out, name)
		rest = rest[i+j+1:]
	}
}

// bodyPlaceholders returns the placeholders of a body: its string values
// that are exactly {name} or {.field}.
func bodyPlaceholders(v any) []string {
	var out []string
	switch x := v.(type) {
	case string:
		if name, ok := BodyPlaceholder(x); ok {
			out = append(out, name)
		}
	case map[string]any:
		for _, e := range x {
			out = append(out, bodyPlaceholders(e)...)
		}
	case []any:
		for _, e := range x {
			out = append(out, bodyPlaceholders(e)...)
		}
	}
	return out
}

// BodyPlaceholder reports whether a body's string value s is a placeholder,
// and of what: "name" for "{name}", ".field" for "{.field}", ".a.b" for
// "{.a.b}" (member b of member a).
func BodyPlaceholder(s string) (string, bool) {
	if len(s) < 3 || s[0] != '{' || s[len(s)-1] != '}' {
		return "", false
	}
	name := s[1 : len(s)-1]
	if field, ok := strings.CutPrefix(name, "."); ok {
		return name, checkPath(field) == nil // {.a.b}: a member of a member
	}
	return name, isName(name)
}

// checkPath checks a dotted path of member names.
func checkPath(p string) error {
	if p == "" {
		return fmt.Errorf("empty")
	}
	for _, s := range strings.Split(p, ".") {
		if !isName(s) {
			return fmt.Errorf("%q is not a member name", s)
		}
	}
	return nil
}

// isName reports whether s is a GraphQL-style name: a letter or _, then
// letters, digits and _.
func isName(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range []byte(s) {
		if !(c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || i > 0 && '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

// Calls returns the number of calls written in the plan (a list's fan-out
// not counted).
func (p Plan) Calls() int {
	n := 0
	for _, c := range p {
		n += 1 + Plan(c.Then).Calls()
	}
	return n
}
