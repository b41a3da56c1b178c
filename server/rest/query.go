package rest

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// shape is a GET request without its values (nr, limit, offset): what its
// statement depends on. Plans are cached by shape.
type shape struct {
	kind   shapeKind
	c      *collection // the collection of the rows returned
	parent *collection // relation: the parent's collection
	rel    *relation   // relation: the list field
	fields []*field    // c's fields to return, in c's order (nullKind ones included)
	embeds []*embed    // in the order asked
	paged  bool        // LIMIT and OFFSET parameters
}

type shapeKind int

const (
	one     shapeKind = iota // /rest/C/{nr}
	related                  // /rest/C/{nr}/RELATION
	listing                  // /rest/C
)

// embed is one ?embed=NAME: a to-one field whose object replaces its id, or
// a list field added to the representation.
type embed struct {
	name   string
	ref    *field    // to-one
	rel    *relation // list
	target *collection
	fields []*field // the target's fields to return
}

// plan is the statement of a shape and how to read its rows: the columns
// of the returned rows' fields, of each to-one embed's and of the list
// embed's, in that order.
type plan struct {
	sql     string
	s       *shape
	main    []int   // column of each of s.fields (-1: no column, nullKind)
	embeds  [][]int // per embed, the column of each of its fields
	kinds   []kind  // per column
	refCol  []int   // per embed, the main column of its reference (-1 for the list embed)
	embedOf []int   // per field of s.fields, the embed that replaces it, or -1
	listIdx int     // index in s.embeds of the list embed, -1 for none
}

// sub writes alias a for the placeholder @ of model SQL.
func sub(sql, a string) string { return strings.ReplaceAll(sql, "@", a) }

// build writes the one statement of s. The rows returned come from a
// derived table m (filtered, ordered and paged), so that embeds join after
// paging; a relation's parent row is joined first, so that a parent that
// does not exist gives no row at all (404) and one with no children a row
// of NULLs (an empty list):
//
//	SELECT m.f0, …, e1.…, l.… FROM department p
//	LEFT JOIN (SELECT b.nr AS f0, …, b.nr AS o0 FROM graduateStudent b WHERE b.memberOf = ? ORDER BY b.nr LIMIT ? OFFSET ?) m ON 1 = 1
//	LEFT JOIN faculty e1 ON e1.nr = m.f6 AND EXISTS (SELECT 1 FROM professor e1q WHERE e1q.nr = e1.nr)
//	LEFT JOIN professor e1p ON e1p.nr = e1.nr
//	LEFT JOIN graduateStudentTakeCourse lj ON lj.graduateStudentID = m.f0 LEFT JOIN graduateCourse l ON l.nr = lj.graduateCourseID
//	WHERE p.nr = ? ORDER BY m.o0, l.nr
func build(s *shape) *plan {
	p := &plan{s: s, listIdx: -1}
	derived, outer, keys := p.returned(s)
	var joins []string
	for i, e := range s.embeds {
		a := "e" + strconv.Itoa(i+1)
		if e.rel != nil {
			a, p.listIdx = "l", i
		}
		var cols []int
		for _, f := range e.fields {
			if f.kind == nullKind {
				cols = append(cols, -1)
				continue
			}
			expr := f.expr
			if e.target == authors {
				expr = authorsEmbed.exprs[f.name]
			}
			outer = append(outer, sub(expr, a))
			p.kinds = append(p.kinds, f.kind)
			cols = append(cols, len(outer)-1)
		}
		p.embeds = append(p.embeds, cols)
		joins = append(joins, embedJoin(e, a, p, s))
	}

	var b strings.Builder
	b.WriteString("SELECT " + strings.Join(outer, ", ") + " FROM ")
	if s.kind == related {
		b.WriteString(sub(s.parent.table, "p") + " LEFT JOIN " + derived + " ON 1 = 1")
	} else {
		b.WriteString(derived)
	}
	for _, j := range joins {
		b.WriteString(j)
	}
	if s.kind == related {
		pc := []string{"p.nr = ?"}
		if s.parent.where != "" {
			pc = append(pc, sub(s.parent.where, "p"))
		}
		b.WriteString(whereClause(pc))
	}
	if p.listIdx >= 0 || s.kind != one {
		if p.listIdx >= 0 {
			o := s.embeds[p.listIdx].target.orderBy()
			if s.embeds[p.listIdx].target == authors {
				o = authorsEmbed.order
			}
			for _, x := range o {
				keys = append(keys, sub(x, "l"))
			}
		}
		b.WriteString(" ORDER BY " + strings.Join(keys, ", "))
	}
	p.sql = b.String()
	for _, f := range s.fields {
		p.embedOf = append(p.embedOf, slices.IndexFunc(s.embeds, func(e *embed) bool { return e.ref == f }))
	}
	return p
}

// returned is the derived table m of the rows s returns (their fields as
// f0, f1, …, their order as o0, …), filtered, ordered and paged; the outer
// select list of their fields, recorded in p; and the ORDER BY terms that
// keep their order.
func (p *plan) returned(s *shape) (derived string, outer, keys []string) {
	var inner []string
	for _, f := range s.fields {
		if f.kind == nullKind {
			p.main = append(p.main, -1)
			continue
		}
		inner = append(inner, sub(f.expr, "b")+" AS f"+strconv.Itoa(len(inner)))
		outer = append(outer, "m.f"+strconv.Itoa(len(outer)))
		p.kinds = append(p.kinds, f.kind)
		p.main = append(p.main, len(outer)-1)
	}
	order := s.c.orderBy()
	for i, o := range order {
		inner = append(inner, sub(o, "b")+" AS o"+strconv.Itoa(i))
		keys = append(keys, "m.o"+strconv.Itoa(i))
	}
	from := s.c.from("b")
	var conds []string
	if s.c.where != "" {
		conds = append(conds, sub(s.c.where, "b"))
	}
	switch {
	case s.kind == one:
		conds = append(conds, "b.nr = ?")
	case s.kind == related && s.rel.via != "":
		from += " JOIN " + s.rel.via + " bj ON bj." + s.rel.to + " = b.nr"
		conds = append(conds, "bj."+s.rel.from+" = ?")
	case s.kind == related:
		conds = append(conds, sub(s.rel.key, "b")+" = ?")
	}
	q := "SELECT " + strings.Join(inner, ", ") + " FROM " + from + whereClause(conds)
	if s.kind != one {
		q += " ORDER BY " + sub(strings.Join(order, ", "), "b")
	}
	if s.paged {
		q += " LIMIT ? OFFSET ?"
	}
	return "(" + q + ") m", outer, keys
}

// embedJoin is the joins of embed e under alias a, one table after the
// other; it records the main column a to-one embed follows. The target's
// condition goes into its own join's ON, so that a row that fails it is a
// NULL (no object, no item) and never removes the returned row.
func embedJoin(e *embed, a string, p *plan, s *shape) string {
	t := e.target
	id := "m.f" + strconv.Itoa(p.main[0])
	var j string
	switch {
	case t == authors:
		p.refCol = append(p.refCol, -1)
		return fmt.Sprintf(sub(authorsEmbed.joins, a), id)
	case e.rel != nil && e.rel.via != "":
		j = " LEFT JOIN " + e.rel.via + " " + a + "j ON " + a + "j." + e.rel.from + " = " + id +
			" LEFT JOIN " + sub(t.table, a) + " ON " + a + ".nr = " + a + "j." + e.rel.to
		p.refCol = append(p.refCol, -1)
	case e.rel != nil:
		j = " LEFT JOIN " + sub(t.table, a) + " ON " + sub(e.rel.key, a) + " = " + id
		p.refCol = append(p.refCol, -1)
	default:
		col := p.main[indexOf(s.fields, e.ref)]
		j = " LEFT JOIN " + sub(t.table, a) + " ON " + a + ".nr = m.f" + strconv.Itoa(col)
		p.refCol = append(p.refCol, col)
	}
	if t.where != "" {
		j += " AND " + sub(t.where, a)
	}
	if t.joins != "" {
		j += " " + sub(t.joins, a)
	}
	return j
}

func indexOf(fs []*field, f *field) int {
	for i, g := range fs {
		if g == f {
			return i
		}
	}
	return -1
}

func whereClause(conds []string) string {
	if len(conds) == 0 {
		return ""
	}
	return " WHERE " + strings.Join(conds, " AND ")
}
