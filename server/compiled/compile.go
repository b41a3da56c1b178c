package compiled

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
)

// compiler turns one operation into one SQL statement. It is used once, by
// one goroutine; its output is a plan.
type compiler struct {
	d          dialect
	schema     *ast.Schema
	doc        *ast.QueryDocument
	vars       map[string]any // the coerced variables of the request that compiles
	params     []*param
	paramIndex map[string]int
	aliases    int                 // table aliases used so far: every alias is unique in the statement
	aggregates map[string]bool     // the aggregates the graduateStudentConnection being compiled uses
	memo       map[string]string   // the SQL of a field group at a row: see pairs
	laterals   map[string][]string // the joins a row's objects add to its query, by the row's alias: see ref
	err        error               // the first error
}

// compile compiles operation op of doc, with vars the coerced variables of
// the request at hand (only their shape matters, see shape).
func compile(d dialect, schema *ast.Schema, doc *ast.QueryDocument, op *ast.OperationDefinition, vars map[string]any) (*plan, error) {
	c := &compiler{d: d, schema: schema, doc: doc, vars: vars, paramIndex: map[string]int{}, memo: map[string]string{},
		laterals: map[string][]string{}}
	root := c.object("Query", row{}, op.SelectionSet)
	if c.err != nil {
		return nil, c.err
	}
	sql, params := finish("SELECT "+d.top(root), c.params)
	return &plan{sql: sql, params: params}, nil
}

func (c *compiler) fail(err error) {
	if c.err == nil {
		c.err = err
	}
}

// row is a table row in scope: a of table (for typ), and for professors and
// faculty rows p, the alias of the joined professor row.
type row struct {
	typ string // a GraphQL type, or "Faculty" for a faculty row that is a Professor or a Lecturer
	a   string
	p   string
}

// tables maps a row type to its table and the prefix of its aliases.
var tables = map[string][2]string{
	"University":           {"university", "u"},
	"Department":           {"department", "d"},
	"ResearchGroup":        {"researchGroup", "r"},
	"Faculty":              {"faculty", "f"},
	"Professor":            {"faculty", "f"},
	"Lecturer":             {"faculty", "f"},
	"GraduateStudent":      {"graduateStudent", "g"},
	"UndergraduateStudent": {"undergraduateStudent", "s"},
	"GraduateCourse":       {"graduateCourse", "c"},
	"UndergraduateCourse":  {"undergraduateCourse", "c"},
	"Publication":          {"publication", "b"},
}

// newRow is a row of typ with fresh aliases.
func (c *compiler) newRow(typ string) row {
	c.aliases++
	n := strconv.Itoa(c.aliases)
	return row{typ: typ, a: tables[typ][1] + n, p: "p" + n}
}

// alias is a fresh alias with prefix.
func (c *compiler) alias(prefix string) string {
	c.aliases++
	return prefix + strconv.Itoa(c.aliases)
}

// col is column name of r. A Professor's nr is its professor row's (see
// fromTable).
func (r row) col(name string) string {
	if r.typ == "Professor" && name == "nr" {
		return r.p + ".nr"
	}
	return r.a + "." + name
}

// from is the FROM clause of r's table; join says whether a Faculty row
// needs its professor row (to tell a Professor from a Lecturer).
func (r row) from(join bool) string { return r.fromTable(tables[r.typ][0], join) }

// fromTable is from with table t (a table name or a derived table) in
// place of r's table.
//
// A Professor's rows are its table's, professor, with its faculty row
// left-joined by key: a selection that reads no faculty column (an advisor's
// id) then costs one index lookup, as a peer that maps each table to a type
// does, because PostgreSQL and SQLite drop a left join to a unique key whose
// columns are never read. Every professor row has its faculty row (the
// dataset's foreign key), so the left join finds what an inner join would.
func (r row) fromTable(t string, join bool) string {
	if r.typ == "Professor" && t == tables[r.typ][0] {
		return "professor " + r.p + " LEFT JOIN faculty " + r.a + " ON " + r.a + ".nr = " + r.p + ".nr"
	}
	s := t + " " + r.a
	switch {
	case r.typ == "Professor":
		s += " JOIN professor " + r.p + " ON " + r.p + ".nr = " + r.a + ".nr"
	case r.typ == "Faculty" && join:
		s += " LEFT JOIN professor " + r.p + " ON " + r.p + ".nr = " + r.a + ".nr"
	}
	return s
}

// base is the condition every row of r's type meets: a Lecturer is a
// faculty row without a professor row.
func (r row) base() []string {
	if r.typ == "Lecturer" {
		return []string{"NOT EXISTS (SELECT 1 FROM professor " + r.p + " WHERE " + r.p + ".nr = " + r.a + ".nr)"}
	}
	return nil
}

// value is the JSON object that row r gives for the selection set, and
// whether it needs r's professor row joined. A faculty row is a Professor
// if it has a professor row, else a Lecturer: when the selection set asks
// different things of the two, the object is a CASE on the professor row,
// and the values both branches share are computed once, in a derived
// table, so that nested faculty selections do not double the SQL at every
// level.
func (c *compiler) value(r row, set ast.SelectionSet) (obj string, join bool) {
	if r.typ != "Faculty" {
		return c.object(r.typ, r, set), false
	}
	prof, lect := c.pairs("Professor", r, set), c.pairs("Lecturer", r, set)
	if slices.Equal(prof, lect) {
		return c.build(prof), false
	}
	x := c.alias("x")
	inBoth := map[string]bool{}
	for _, p := range prof {
		if slices.ContainsFunc(lect, func(q pair) bool { return q.value == p.value }) && strings.Contains(p.value, "SELECT") {
			inBoth[p.value] = true
		}
	}
	var cols []string
	hoisted := map[string]string{}
	hoist := func(ps []pair) []pair {
		out := make([]pair, len(ps))
		for i, p := range ps {
			out[i] = p
			if !inBoth[p.value] {
				continue
			}
			name, ok := hoisted[p.value]
			if !ok {
				name = "v" + strconv.Itoa(len(cols))
				hoisted[p.value] = name
				cols = append(cols, p.value+" AS "+name)
			}
			out[i].value = x + "." + name
		}
		return out
	}
	prof, lect = hoist(prof), hoist(lect)
	if len(cols) == 0 {
		return "CASE WHEN " + r.p + ".nr IS NOT NULL THEN " + c.build(prof) + " ELSE " + c.build(lect) + " END", true
	}
	return "(SELECT CASE WHEN " + x + ".professor THEN " + c.build(prof) + " ELSE " + c.build(lect) + " END FROM (SELECT " +
		r.p + ".nr IS NOT NULL AS professor, " + strings.Join(cols, ", ") + ") " + x + ")", true
}

// object is the JSON object of type typ (an object type) for row r.
func (c *compiler) object(typ string, r row, set ast.SelectionSet) string {
	return c.build(c.pairs(typ, r, set))
}

// pairs is the keys and values of the JSON object of type typ for row r.
// The value of a field group is compiled once per row (see value).
func (c *compiler) pairs(typ string, r row, set ast.SelectionSet) []pair {
	var out []pair
	for _, g := range c.collect(typ, set) {
		if g.name() == "__typename" {
			out = append(out, pair{g.key, quote(typ)})
			continue
		}
		key := r.a
		for _, f := range g.fields {
			key += fmt.Sprintf("/%p", f)
		}
		v, ok := c.memo[key]
		if !ok {
			v = c.field(typ, r, g)
			c.memo[key] = v
		}
		out = append(out, pair{g.key, v})
	}
	return out
}

// build is the JSON object of pairs.
func (c *compiler) build(pairs []pair) string {
	obj, ok := c.d.object(pairs)
	if !ok {
		c.fail(errors.New("a selection set has more fields than SQLite's json functions take"))
	}
	return obj
}

// group is the fields of a selection set that share a response key.
type group struct {
	key    string
	fields []*ast.Field
}

func (g *group) name() string { return g.fields[0].Name }

// set is the merged selection set of the group's fields.
func (g *group) set() ast.SelectionSet {
	if len(g.fields) == 1 {
		return g.fields[0].SelectionSet
	}
	var s ast.SelectionSet
	for _, f := range g.fields {
		s = append(s, f.SelectionSet...)
	}
	return s
}

// arg is argument name of the group's field (validation makes the fields of
// a group agree on their arguments).
func (c *compiler) arg(g *group, name string) *val {
	f := g.fields[0]
	def := f.Definition.Arguments.ForName(name)
	a := f.Arguments.ForName(name)
	if def == nil || a == nil {
		return nullVal
	}
	return c.resolve(a.Value, def.Type)
}

// collect groups the fields that set selects on an object of type typ by
// response key, in order (GraphQL's CollectFields): fragments apply when
// typ is, or implements, their type condition; @skip and @include apply.
func (c *compiler) collect(typ string, set ast.SelectionSet) []*group {
	var out []*group
	byKey := map[string]*group{}
	visited := map[string]bool{}
	var walk func(set ast.SelectionSet)
	walk = func(set ast.SelectionSet) {
		for _, sel := range set {
			switch s := sel.(type) {
			case *ast.Field:
				if !c.included(s.Directives) {
					continue
				}
				g := byKey[s.Alias]
				if g == nil {
					g = &group{key: s.Alias}
					byKey[s.Alias] = g
					out = append(out, g)
				}
				g.fields = append(g.fields, s)
			case *ast.InlineFragment:
				if c.included(s.Directives) && c.applies(s.TypeCondition, typ) {
					walk(s.SelectionSet)
				}
			case *ast.FragmentSpread:
				if !c.included(s.Directives) || visited[s.Name] {
					continue
				}
				visited[s.Name] = true
				if f := c.doc.Fragments.ForName(s.Name); f != nil && c.applies(f.TypeCondition, typ) {
					walk(f.SelectionSet)
				}
			}
		}
	}
	walk(set)
	return out
}

// applies says whether a fragment with type condition cond applies to an
// object of type typ.
func (c *compiler) applies(cond, typ string) bool {
	if cond == "" || cond == typ {
		return true
	}
	def := c.schema.Types[cond]
	if def == nil {
		return false
	}
	for _, t := range c.schema.GetPossibleTypes(def) {
		if t.Name == typ {
			return true
		}
	}
	return false
}

// included evaluates @skip and @include (their Boolean variables are part
// of the shape, so the answer holds for every request the plan serves).
func (c *compiler) included(ds ast.DirectiveList) bool {
	cond := func(name string) (bool, bool) {
		d := ds.ForName(name)
		if d == nil {
			return false, false
		}
		a := d.Arguments.ForName("if")
		if a == nil {
			return false, false
		}
		x, err := a.Value.Value(c.vars)
		if err != nil {
			c.fail(err)
		}
		return x == true, true
	}
	if skip, ok := cond("skip"); ok && skip {
		return false
	}
	if incl, ok := cond("include"); ok && !incl {
		return false
	}
	return true
}

// list describes the rows of a list field.
type list struct {
	r     row
	via   string   // a join table with alias, joined to r ("" for none)
	on    string   // the condition joining via and r
	where []string // conditions
	keys  []string // ORDER BY terms; nil: by nr
	// split is the column keys start with, ascending with nulls first, when
	// an index on it serves a page: see page. "" for none.
	split string
	// limit and offset are SQL expressions, or "".
	limit, offset string
}

// many is the JSON array of the rows of l, each as the selection set says:
// a correlated scalar subquery.
func (c *compiler) many(l list, set ast.SelectionSet) string {
	obj, join := c.value(l.r, set)
	keys := l.keys
	if keys == nil {
		keys = []string{l.r.col("nr")}
	}
	where := append(l.r.base(), l.where...)
	var from string
	switch {
	case l.limit != "" || l.offset != "":
		// Page in a derived table of the same alias, so that the JSON of
		// the rows that are skipped is never built.
		from = l.r.fromTable("("+c.page(l, keys, where)+")", join)
		where = nil
	case l.via != "":
		from = l.r.from(join) + " JOIN " + l.via + " ON " + l.on
	default:
		from = l.r.from(join)
	}
	from += c.lateral(l.r)
	return "(SELECT " + c.d.array(obj, keys) + " FROM " + from + whereClause(where) + ")"
}

// page is the query of the rows of list l (conditions where) on the page
// its limit and offset say, in the order of keys.
//
// The benchmark orders nulls first; PostgreSQL's indexes (and PostGraphile's
// orderings) put them last in ascending order, so an index on a column
// cannot hand over its rows in the order `column NULLS FIRST`, and a page of
// the first rows by a foreign key sorted every row of the table. With
// l.split, PostgreSQL reads the page in two parts that the index on
// (column, key) serves, the rows whose column is null and then the others in
// index order, each cut at the page's end (an incremental sort orders ties
// by the further keys), and sorts the at most twice limit + offset rows they
// give into the page. SQLite sorts nulls first in its indexes already.
func (c *compiler) page(l list, keys, where []string) string {
	order := " ORDER BY " + strings.Join(keys, ", ") + c.d.paging(l.limit, l.offset)
	if l.split == "" || l.limit == "" || !c.d.pg {
		return "SELECT " + l.r.a + ".* FROM " + l.r.from(false) + whereClause(where) + order
	}
	end := l.limit
	if l.offset != "" {
		end = "(" + l.limit + " + " + l.offset + ")"
	}
	col := l.r.col(l.split)
	part := func(cond string, keys []string) string {
		return "(SELECT " + l.r.a + ".* FROM " + l.r.from(false) + whereClause(append(slices.Clone(where), cond)) +
			" ORDER BY " + strings.Join(keys, ", ") + " LIMIT " + end + ")"
	}
	return "SELECT " + l.r.a + ".* FROM (" + part(col+" IS NULL", keys[1:]) + " UNION ALL " +
		part(col+" IS NOT NULL", append([]string{col}, keys[1:]...)) + ") " + l.r.a + order
}

// one is the JSON object of the row of r that meets where, or NULL: a
// correlated scalar subquery. first picks the row of least nr when several
// match (a department's head).
func (c *compiler) one(r row, where []string, first bool, set ast.SelectionSet) string {
	obj, join := c.value(r, set)
	q := "(SELECT " + obj + " FROM " + r.from(join) + c.lateral(r) + whereClause(append(r.base(), where...))
	if first {
		q += " ORDER BY " + r.col("nr") + " LIMIT 1"
	}
	return q + ")"
}

func whereClause(conds []string) string {
	if len(conds) == 0 {
		return ""
	}
	return " WHERE " + strings.Join(conds, " AND ")
}
