package dialect

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// The operations of a Rule.
const (
	// OpList replaces a connection, an object whose one member is "nodes",
	// by the list of its nodes.
	OpList = "list"
	// OpOne replaces a connection of at most one node by that node, or by
	// null when it has none; more than one node is an error.
	OpOne = "one"
	// OpMerge moves the members of an object into the object that holds
	// it, and removes it (a null one moves nothing). A member the holder
	// already has is an error.
	OpMerge = "merge"
	// OpNest wraps a value in an object of one member, Rule.Name.
	OpNest = "nest"
	// OpAggregate turns an aggregate's value into the benchmark's: a
	// decimal number written as a JSON string (PostgreSQL's bigint and
	// numeric, PostGraphile's BigInt and BigFloat) becomes that number, and
	// null — an aggregate over no rows in SQL — becomes 0.
	OpAggregate = "aggregate"
)

// Rule is one step of a Mapping: an operation on the values at a path.
type Rule struct {
	Op string
	// Path leads from the answer's data to the value the rule changes,
	// member by member. At a list the path goes on in every element; at a
	// null it ends there (a null object has nothing to map).
	Path []string
	Name string // OpNest: the member the value is wrapped in
}

// String is the rule as a template header writes it: "merge a.b".
func (r Rule) String() string {
	s := r.Op + " " + strings.Join(r.Path, ".")
	if r.Name != "" {
		s += " " + r.Name
	}
	return s
}

// Mapping turns a dialect template's answer into the answer the benchmark
// template gives: its rules applied in order, each to the shape the ones
// before it left.
type Mapping struct {
	Rules []Rule
}

// Apply maps data, a response's "data" member, and returns the mapped JSON.
// An answer that is not of the shape the rules expect — a member missing,
// a connection with other members than its nodes — is an error: a server
// that answers in another shape is not answering the template.
func (m *Mapping) Apply(data []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("not JSON: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("not JSON: more than one value")
	}
	for _, r := range m.Rules {
		if err := r.apply(v); err != nil {
			return nil, fmt.Errorf("%s: %w", r, err)
		}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// apply applies r to every value at its path in v.
func (r Rule) apply(v any) error {
	return holders(v, r.Path, func(obj map[string]any) error {
		key := r.Path[len(r.Path)-1]
		val, ok := obj[key]
		if !ok {
			return fmt.Errorf("no member %q", key)
		}
		switch r.Op {
		case OpList, OpOne:
			return connection(obj, key, val, r.Op == OpOne)
		case OpMerge:
			return merge(obj, key, val)
		case OpNest:
			obj[key] = map[string]any{r.Name: val}
		case OpAggregate:
			n, err := aggregate(val)
			if err != nil {
				return err
			}
			obj[key] = n
		default:
			return fmt.Errorf("unknown operation %q", r.Op)
		}
		return nil
	})
}

// holders calls f with every object that holds the value at path in v: the
// path is followed through objects, at a list into every element, and
// stops at a null.
func holders(v any, path []string, f func(map[string]any) error) error {
	switch x := v.(type) {
	case nil:
		return nil
	case []any:
		for _, e := range x {
			if err := holders(e, path, f); err != nil {
				return err
			}
		}
		return nil
	case map[string]any:
		if len(path) == 1 {
			return f(x)
		}
		next, ok := x[path[0]]
		if !ok {
			return fmt.Errorf("no member %q", path[0])
		}
		return holders(next, path[1:], f)
	}
	return fmt.Errorf("%q is reached through a %s, not an object", path[len(path)-1], kind(v))
}

// connection replaces obj[key], a connection, by its nodes (one: by its
// only node or null).
func connection(obj map[string]any, key string, val any, one bool) error {
	if val == nil {
		return nil
	}
	c, ok := val.(map[string]any)
	if !ok || len(c) != 1 {
		return fmt.Errorf("%q is not a connection of nodes alone: %s", key, brief(val))
	}
	nodes, ok := c["nodes"].([]any)
	if !ok {
		return fmt.Errorf("%q is not a connection of nodes alone: %s", key, brief(val))
	}
	switch {
	case !one:
		obj[key] = nodes
	case len(nodes) == 0:
		obj[key] = nil
	case len(nodes) == 1:
		obj[key] = nodes[0]
	default:
		return fmt.Errorf("%q has %d nodes where at most one is expected", key, len(nodes))
	}
	return nil
}

// merge moves the members of obj[key] into obj.
func merge(obj map[string]any, key string, val any) error {
	delete(obj, key)
	if val == nil {
		return nil
	}
	inner, ok := val.(map[string]any)
	if !ok {
		return fmt.Errorf("%q is a %s, not an object", key, kind(val))
	}
	for k, x := range inner {
		if _, dup := obj[k]; dup {
			return fmt.Errorf("%q's member %q is already a member of the object that holds it", key, k)
		}
		obj[k] = x
	}
	return nil
}

// aggregate is the benchmark's value of an aggregate's JSON value.
func aggregate(val any) (json.Number, error) {
	switch x := val.(type) {
	case nil:
		return "0", nil
	case json.Number:
		return x, nil
	case string:
		if !isDecimal(x) {
			return "", fmt.Errorf("%q is not a decimal number", x)
		}
		return json.Number(x), nil
	}
	return "", fmt.Errorf("an aggregate is a %s, not a number", kind(val))
}

// isDecimal reports whether s is a JSON number without exponent: what
// PostgreSQL prints for bigint and numeric.
func isDecimal(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	digits := func() int {
		j := i
		for i < len(s) && '0' <= s[i] && s[i] <= '9' {
			i++
		}
		return i - j
	}
	start := i
	if n := digits(); n == 0 || n > 1 && s[start] == '0' {
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

func kind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case []any:
		return "list"
	case map[string]any:
		return "object"
	case string:
		return "string"
	case bool:
		return "boolean"
	}
	return "number"
}

// brief is v as short JSON, for messages.
func brief(v any) string {
	b, _ := json.Marshal(v)
	if len(b) > 80 {
		return string(b[:80]) + "…"
	}
	return string(b)
}
