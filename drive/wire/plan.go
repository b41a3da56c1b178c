package wire

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/gqlbench/gqlbench/queryfile"
)

// A plan (queryfile.Plan) is compiled once per request into planNodes: the
// entry's variables filled in, the parent's fields left as references to
// fill per object.

// planNode is one call of a compiled plan.
type planNode struct {
	method string
	segs   []pathSeg // the path: literals and parent fields
	body   any       // the body with the variables filled in; fieldRef values are the parent's fields
	as     []string  // nil: the answer is no part of the task's
	keep   keepTree  // nil: everything
	shape  *shape    // what is decoded of the answer: keep, what the calls after it read, under from
	status int
	then   []*planNode
	label  string // "GET /rest/x/{.y}", for messages
	// A GraphQL call's document (its body is the variables), or the whole
	// POST body of a request of one query (raw): its answer's data, errors
	// refused, is the call's answer, merged into the task's answer (merge).
	query string
	raw   []byte
	merge bool
	from  []string // the part of the answer that is the call's, or nil
}

// graphql says whether the call is a GraphQL request.
func (n *planNode) graphql() bool { return n.query != "" || n.raw != nil }

// oneQuery is the plan of a request of one GraphQL query: its POST body,
// whose data is the answer.
func oneQuery(q *Request) *planNode {
	return &planNode{method: "POST", segs: []pathSeg{{}}, raw: q.Body, merge: true, status: 200, label: "POST " + q.Template}
}

// pathSeg is a literal piece of a path, or a field of the parent object.
type pathSeg struct {
	lit   string
	field string
}

// fieldRef is a body value taken from the parent object's field.
type fieldRef string

// keepTree is a Keep compiled: per member, what is kept of it (nil: all).
type keepTree map[string]keepTree

// compilePlan compiles a request's plan with its variables.
func compilePlan(p queryfile.Plan, vars []byte) ([]*planNode, error) {
	values := map[string]any{}
	if len(vars) > 0 {
		dec := json.NewDecoder(bytes.NewReader(vars))
		dec.UseNumber()
		if err := dec.Decode(&values); err != nil {
			return nil, fmt.Errorf("variables: %w", err)
		}
	}
	var out []*planNode
	for i := range p {
		n, err := compileCall(&p[i], values)
		if err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, nil
}

func compileCall(c *queryfile.Call, vars map[string]any) (*planNode, error) {
	n := &planNode{method: c.Method, status: c.Status, label: c.Label(), query: c.Query}
	if c.As != "" {
		n.as = strings.Split(c.As, ".")
	}
	if c.From != "" {
		n.from = strings.Split(c.From, ".")
	}
	if n.status == 0 {
		n.status = 200
	}
	if n.query != "" {
		n.method = "POST"
	}
	rest := c.Path
	for {
		i := strings.IndexByte(rest, '{')
		if i < 0 {
			n.segs = append(n.segs, pathSeg{lit: rest})
			break
		}
		j := strings.IndexByte(rest, '}')
		n.segs = append(n.segs, pathSeg{lit: rest[:i]})
		name := rest[i+1 : j]
		if f, ok := strings.CutPrefix(name, "."); ok {
			n.segs = append(n.segs, pathSeg{field: f})
		} else {
			s, err := pathValue(vars[name])
			if err != nil {
				return nil, fmt.Errorf("%s: {%s}: %w", n.label, name, err)
			}
			n.segs = append(n.segs, pathSeg{lit: s})
		}
		rest = rest[j+1:]
	}
	if c.Body != nil {
		dec := json.NewDecoder(bytes.NewReader(c.Body))
		dec.UseNumber()
		var b any
		if err := dec.Decode(&b); err != nil {
			return nil, fmt.Errorf("%s: body: %w", n.label, err)
		}
		n.body = fillBody(b, vars)
	}
	if c.Keep != nil {
		n.keep = keepTree{}
		for _, k := range c.Keep {
			n.keep.add(strings.Split(k, "."))
		}
	}
	for i := range c.Then {
		k, err := compileCall(&c.Then[i], vars)
		if err != nil {
			return nil, err
		}
		n.then = append(n.then, k)
	}
	n.shape = n.decodes()
	return n, nil
}

// decodes is the shape of the answer that the task uses: what the call
// keeps and the members the calls after it read, under the part From names.
func (n *planNode) decodes() *shape {
	s := shapeOf(n.keep)
	if len(n.then) > 0 {
		if s == nil {
			s = &shape{rest: true} // every member kept, and the objects are needed
		}
		for _, k := range n.then {
			for _, seg := range k.segs {
				if seg.field != "" {
					s.need([]string{seg.field})
				}
			}
			refs(k.body, func(f string) { s.need(strings.Split(f, ".")) })
		}
	}
	for i := len(n.from) - 1; i >= 0; i-- {
		s = &shape{members: map[string]*member{n.from[i]: {name: n.from[i], sub: s}}}
	}
	return s
}

// refs calls f with every field a body takes from the parent object.
func refs(v any, f func(string)) {
	switch x := v.(type) {
	case fieldRef:
		f(string(x))
	case map[string]any:
		for _, e := range x {
			refs(e, f)
		}
	case []any:
		for _, e := range x {
			refs(e, f)
		}
	}
}

// add adds a kept path; a path that ends at a member keeps all of it.
func (k keepTree) add(path []string) {
	sub, seen := k[path[0]]
	switch {
	case len(path) == 1:
		k[path[0]] = nil
	case seen && sub == nil: // all of it is kept already
	default:
		if sub == nil {
			sub = keepTree{}
			k[path[0]] = sub
		}
		sub.add(path[1:])
	}
}

// fillBody replaces a body's variable placeholders by their values and its
// field placeholders by fieldRefs.
func fillBody(v any, vars map[string]any) any {
	switch x := v.(type) {
	case string:
		if name, ok := queryfile.BodyPlaceholder(x); ok {
			if f, ok := strings.CutPrefix(name, "."); ok {
				return fieldRef(f)
			}
			return vars[name]
		}
	case map[string]any:
		for k, e := range x {
			x[k] = fillBody(e, vars)
		}
	case []any:
		for i, e := range x {
			x[i] = fillBody(e, vars)
		}
	}
	return v
}

// pathValue writes a value into a path: a string, number or boolean,
// escaped; null or a structure cannot be.
func pathValue(v any) (string, error) {
	var s string
	switch x := v.(type) {
	case string:
		s = x
	case json.Number:
		s = x.String()
	case bool:
		s = fmt.Sprint(x)
	case json.RawMessage:
		if v, ok := rawScalar(x); ok {
			return pathValue(v)
		}
		return "", fmt.Errorf("an object or a list is no value for a path")
	case nil:
		return "", errNull
	default:
		return "", fmt.Errorf("an object or a list is no value for a path")
	}
	return escapeValue(s), nil
}

var errNull = fmt.Errorf("null")

// escapeValue escapes every byte but RFC 3986's unreserved ones, so that a
// value means the same in a path segment and in a query.
func escapeValue(s string) string {
	const hex = "0123456789ABCDEF"
	var b []byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~' {
			if b != nil {
				b = append(b, c)
			}
			continue
		}
		if b == nil {
			b = append(make([]byte, 0, len(s)+8), s[:i]...)
		}
		b = append(b, '%', hex[c>>4], hex[c&15])
	}
	if b == nil {
		return s
	}
	return string(b)
}

// fill returns the node's path and body for the parent object obj (nil for
// a root call), or skip when a field it needs is null: the relation is not
// there, and the call is not made.
func (n *planNode) fill(obj map[string]any) (path string, body []byte, skip bool, err error) {
	var b strings.Builder
	for _, s := range n.segs {
		if s.field == "" {
			b.WriteString(s.lit)
			continue
		}
		v, ok := obj[s.field]
		if !ok {
			return "", nil, false, fmt.Errorf("%s: the answer it depends on has no member %q", n.label, s.field)
		}
		p, err := pathValue(v)
		if err == errNull {
			return "", nil, true, nil
		}
		if err != nil {
			return "", nil, false, fmt.Errorf("%s: {.%s}: %w", n.label, s.field, err)
		}
		b.WriteString(p)
	}
	if n.raw != nil {
		return b.String(), n.raw, false, nil
	}
	var v any
	if n.body != nil {
		if v, err = bodyFields(n.body, obj); err != nil {
			return "", nil, false, fmt.Errorf("%s: body: %w", n.label, err)
		}
	}
	switch {
	case n.query != "":
		body, err = json.Marshal(gqlBody{Query: n.query, Variables: v})
	case n.body != nil:
		body, err = json.Marshal(v)
	}
	return b.String(), body, false, err
}

// gqlBody is a GraphQL call's POST body.
type gqlBody struct {
	Query     string `json:"query"`
	Variables any    `json:"variables,omitempty"`
}

// bodyFields returns a copy of body with its fieldRefs taken from obj.
func bodyFields(v any, obj map[string]any) (any, error) {
	switch x := v.(type) {
	case fieldRef:
		// a dotted path ({.a.b}) goes through objects; a null on the way
		// is null
		var f any = obj
		for _, name := range strings.Split(string(x), ".") {
			if f == nil {
				break
			}
			o, isObj := f.(map[string]any)
			if !isObj {
				return nil, fmt.Errorf("the answer it depends on has no object on the way to %q", string(x))
			}
			var ok bool
			if f, ok = o[name]; !ok {
				return nil, fmt.Errorf("the answer it depends on has no member %q", string(x))
			}
		}
		return f, nil
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			var err error
			if out[k], err = bodyFields(e, obj); err != nil {
				return nil, err
			}
		}
		return out, nil
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			var err error
			if out[i], err = bodyFields(e, obj); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	return v, nil
}

// objects returns the objects an answer holds: itself, or a list's
// elements (nulls skipped); anything else is an error.
func objects(v any) ([]map[string]any, error) {
	switch x := v.(type) {
	case map[string]any:
		return []map[string]any{x}, nil
	case []any:
		out := make([]map[string]any, 0, len(x))
		for _, e := range x {
			switch o := e.(type) {
			case map[string]any:
				out = append(out, o)
			case nil:
			default:
				return nil, fmt.Errorf("a list element is not an object")
			}
		}
		return out, nil
	case nil:
		return nil, nil
	}
	return nil, fmt.Errorf("the answer is neither an object nor a list of objects")
}

// project returns what keep keeps of v: of an object the kept members
// (a member missing is an error), of a list each element's, and of a
// reference (an id) selected as {id} the object {"id": v}.
func project(v any, keep keepTree) (any, error) {
	if keep == nil {
		return v, nil
	}
	switch x := v.(type) {
	case nil:
		return nil, nil
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			var err error
			if out[i], err = project(e, keep); err != nil {
				return nil, err
			}
		}
		return out, nil
	case map[string]any:
		out := make(map[string]any, len(keep))
		for name, sub := range keep {
			m, ok := x[name]
			if !ok {
				return nil, fmt.Errorf("no member %q in the answer", name)
			}
			p, err := project(m, sub)
			if err != nil {
				return nil, fmt.Errorf("%s.%w", name, err)
			}
			out[name] = p
		}
		return out, nil
	case string, json.Number:
		if _, id := keep["id"]; id && len(keep) == 1 {
			return map[string]any{"id": x}, nil
		}
	case json.RawMessage: // decoded whole: a scalar, or a member also needed whole
		if len(x) > 0 && (x[0] == '{' || x[0] == '[') {
			d, err := decodeShape(x, shapeOf(keep))
			if err != nil {
				return nil, err
			}
			return project(d, keep)
		}
		if _, id := keep["id"]; id && len(keep) == 1 && len(x) > 0 && x[0] != 't' && x[0] != 'f' {
			return map[string]any{"id": x}, nil
		}
		if s, ok := rawScalar(x); ok {
			v = s // for the message
		}
	}
	return nil, fmt.Errorf("cannot select %s of a %T", strings.Join(slices.Sorted(mapKeys(keep)), ","), v)
}

func mapKeys(k keepTree) func(func(string) bool) {
	return func(yield func(string) bool) {
		for name := range k {
			if !yield(name) {
				return
			}
		}
	}
}

// attach puts v at path in obj: members on the way that are not objects
// become objects, and a list put where a list is appends to it.
func attach(obj map[string]any, path []string, v any) {
	for _, p := range path[:len(path)-1] {
		next, ok := obj[p].(map[string]any)
		if !ok {
			next = map[string]any{}
			obj[p] = next
		}
		obj = next
	}
	last := path[len(path)-1]
	if old, ok := asList(obj[last]); ok {
		if l, ok := asList(v); ok {
			obj[last] = append(old, l...)
			return
		}
	}
	obj[last] = v
}

// asList returns v as a list, decoding a raw answer that is one.
func asList(v any) ([]any, bool) {
	switch x := v.(type) {
	case []any:
		return x, true
	case projected:
		return asList(json.RawMessage(x))
	case json.RawMessage:
		if t := bytes.TrimSpace(x); len(t) > 0 && t[0] == '[' {
			dec := json.NewDecoder(bytes.NewReader(t))
			dec.UseNumber()
			var l []any
			if dec.Decode(&l) == nil {
				return l, true
			}
		}
	}
	return nil, false
}
