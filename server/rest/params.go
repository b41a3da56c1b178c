package rest

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// problem is a request refused with an HTTP status and a message, answered
// as an RFC 9457 problem document.
type problem struct {
	status int
	detail string
}

func (p *problem) Error() string { return p.detail }

func badRequest(format string, args ...any) *problem {
	return &problem{http.StatusBadRequest, fmt.Sprintf(format, args...)}
}

func notFound(format string, args ...any) *problem {
	return &problem{http.StatusNotFound, fmt.Sprintf(format, args...)}
}

// values are a GET's values: what its shape's statement is run with.
type values struct {
	nr            int64
	limit, offset *int64
}

// parseNr reads an id from a path segment: decimal digits, at most 2^63−1.
func parseNr(seg string) (int64, *problem) {
	if seg == "" || strings.TrimLeft(seg, "0123456789") != "" {
		return 0, badRequest("id %q is not an id: ids are non-negative integers (decimal digits)", clip(seg))
	}
	nr, err := strconv.ParseInt(seg, 10, 64)
	if err != nil {
		return 0, badRequest("id %s is too large: ids are at most %d", clip(seg), int64(1<<63-1))
	}
	return nr, nil
}

// query is a GET's query string, parsed and checked against what the
// request may take.
type query struct {
	fields      *string // nil: absent
	embed       *string
	embedFields map[string]string // fields[NAME]
	limit       *int64
	offset      *int64
}

// parseQuery reads the query string; paging says whether limit and offset
// are allowed (lists), params whether any parameter is.
func parseQuery(raw string, paging, params bool) (*query, *problem) {
	vals, err := url.ParseQuery(raw)
	if err != nil {
		return nil, badRequest("malformed query string: %v", err)
	}
	q := &query{embedFields: map[string]string{}}
	names := slices.Sorted(func(yield func(string) bool) {
		for k := range vals {
			if !yield(k) {
				return
			}
		}
	})
	for _, k := range names {
		v := vals[k]
		if !params {
			return nil, badRequest("unknown parameter %q: this request takes no parameters", clip(k))
		}
		if len(v) > 1 {
			return nil, badRequest("parameter %q given %d times: give it once (lists are comma-separated)", clip(k), len(v))
		}
		switch {
		case k == "fields":
			q.fields = &v[0]
		case k == "embed":
			q.embed = &v[0]
		case strings.HasPrefix(k, "fields[") && strings.HasSuffix(k, "]"):
			q.embedFields[k[len("fields["):len(k)-1]] = v[0]
		case (k == "limit" || k == "offset") && paging:
			n, p := count(k, v[0])
			if p != nil {
				return nil, p
			}
			if k == "limit" {
				q.limit = &n
			} else {
				q.offset = &n
			}
		case k == "limit" || k == "offset":
			return nil, badRequest("parameter %s applies to lists only: this request returns one resource", k)
		default:
			allowed := "fields, fields[EMBED], embed"
			if paging {
				allowed += ", limit, offset"
			}
			return nil, badRequest("unknown parameter %q: the parameters are %s", clip(k), allowed)
		}
	}
	return q, nil
}

// count reads limit or offset: a non-negative integer.
func count(name, v string) (int64, *problem) {
	if v == "" || strings.TrimLeft(v, "0123456789") != "" {
		return 0, badRequest("%s must be a non-negative integer, got %q", name, clip(v))
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return 0, badRequest("%s %s is too large: at most %d", name, clip(v), int64(1<<63-1))
	}
	return n, nil
}

// names splits a comma-separated list, refusing empty and repeated names.
func names(param, list string) ([]string, *problem) {
	if list == "" {
		return nil, badRequest("parameter %s is empty: give a comma-separated list of names", param)
	}
	out := strings.Split(list, ",")
	for i, n := range out {
		n = strings.TrimSpace(n)
		switch {
		case n == "":
			return nil, badRequest("parameter %s has an empty name in %q", param, clip(list))
		case slices.Contains(out[:i], n):
			return nil, badRequest("parameter %s names %q twice", param, clip(n))
		}
		out[i] = n
	}
	return out, nil
}

// selectFields is the fields of c that list names (all when list is
// absent), id always, in c's order; must are fields included in any case
// (the references that are embedded).
func selectFields(c *collection, param string, list *string, must []*field) ([]*field, *problem) {
	if list == nil {
		return c.fields, nil
	}
	want, p := names(param, *list)
	if p != nil {
		return nil, p
	}
	for _, n := range want {
		if c.field(n) != nil {
			continue
		}
		if c.relation(n) != nil {
			return nil, badRequest("%s: %s is a list, not a field of %s: ask for it with embed=%s (or GET its own URL)", param, n, c.typ, n)
		}
		return nil, badRequest("%s: unknown field %q: the fields of %s are %s", param, clip(n), c.typ, c.fieldNames())
	}
	var out []*field
	for _, f := range c.fields {
		if f.kind == idKind || slices.Contains(want, f.name) || slices.Contains(must, f) {
			out = append(out, f)
		}
	}
	return out, nil
}

// embeds reads ?embed= and the fields[NAME] of each embed.
func embeds(c *collection, q *query) ([]*embed, *problem) {
	var out []*embed
	if q.embed != nil {
		list, p := names("embed", *q.embed)
		if p != nil {
			return nil, p
		}
		firstList := ""
		for _, n := range list {
			e, p := embedOf(c, n)
			if p != nil {
				return nil, p
			}
			if e.rel != nil {
				if firstList != "" {
					return nil, badRequest("embed: at most one list can be embedded per request (%s and %s are both lists): GET the other one at its own URL", firstList, n)
				}
				firstList = n
			}
			fl, hasList := q.embedFields[n]
			var lp *string
			if hasList {
				lp = &fl
			}
			if e.fields, p = selectFields(e.target, "fields["+n+"]", lp, nil); p != nil {
				return nil, p
			}
			out = append(out, e)
		}
	}
	for n := range q.embedFields {
		if !slices.ContainsFunc(out, func(e *embed) bool { return e.name == n }) {
			return nil, badRequest("parameter fields[%s] names no embed: add embed=%s", clip(n), clip(n))
		}
	}
	// Lists go last in the representation, so the list embed comes last.
	slices.SortStableFunc(out, func(a, b *embed) int {
		switch {
		case a.rel == nil && b.rel != nil:
			return -1
		case a.rel != nil && b.rel == nil:
			return 1
		}
		return 0
	})
	return out, nil
}

// embedOf is embed NAME of c: a to-one field or a list field.
func embedOf(c *collection, name string) (*embed, *problem) {
	if strings.Contains(name, ".") {
		return nil, badRequest("embed: %q: embedding goes one level deep; GET the embedded resource's own URL for more", clip(name))
	}
	if f := c.field(name); f != nil && f.kind == refKind {
		return &embed{name: name, ref: f, target: f.target}, nil
	}
	if r := c.relation(name); r != nil {
		return &embed{name: name, rel: r, target: r.target}, nil
	}
	if c.field(name) != nil {
		return nil, badRequest("embed: %s is a field of %s, not a relation: it is always in the representation", name, c.typ)
	}
	var refs []string
	for _, f := range c.fields {
		if f.kind == refKind {
			refs = append(refs, f.name)
		}
	}
	for _, r := range c.relations {
		refs = append(refs, r.name)
	}
	if len(refs) == 0 {
		return nil, badRequest("embed: %s has no relations to embed", c.typ)
	}
	return nil, badRequest("embed: unknown relation %q: the relations of %s are %s", clip(name), c.typ, strings.Join(refs, ", "))
}

// clip shortens a client's string for an error message.
func clip(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}
