package compiled

import (
	"strconv"
	"strings"

	"github.com/gqlbench/gqlbench/dataset"

	"github.com/vektah/gqlparser/v2/ast"
)

// This file compiles the arguments: where inputs, string and number
// matching, orderings, paging; and the two fields that are not plain
// relationships, Publication.authors and University.graduateStudentConnection.

// id is the parameter of ID value v (a non-null leaf).
func (c *compiler) id(v *val, what string) string {
	return c.param(v.leaf, convID, sqlInt, what)
}

// count is the parameter of a limit or offset, or "" when v is null.
func (c *compiler) count(v *val, what string) string {
	if v.isNull() {
		return ""
	}
	return c.param(v.leaf, convCount, sqlInt, what)
}

// enum is the SQL that branch gives for enum value v of type enumType (its
// value is known when compiling: see shape).
func (c *compiler) enum(v *val, enumType, what string, branch func(value string) string) string {
	return branch(c.constEnum(v.leaf, c.schema.Types[enumType], what))
}

// never is the condition of a StringMatching or NumberMatching that lacks
// its criterion or its pattern: it never holds ("a null value never
// matches"), as the resolver-based variants read the schema.
const never = "1 = 0"

// complete says whether the StringMatching or NumberMatching m gives both
// a criterion and a pattern.
func complete(m *val) bool {
	return !m.field("criterion").isNull() && !m.field("pattern").isNull()
}

// stringMatch is the condition "col matches m" (a complete StringMatching).
func (c *compiler) stringMatch(m *val, col, what string) string {
	return c.enum(m.field("criterion"), "StringCriterion", what+".criterion", func(crit string) string {
		return c.d.match(crit, col, func(k conv) string {
			return c.param(m.field("pattern").leaf, k, sqlText, what+".pattern")
		})
	})
}

// numberMatch is the condition "col matches m" (a complete NumberMatching).
func (c *compiler) numberMatch(m *val, col, what string) string {
	p := c.param(m.field("pattern").leaf, convInt, sqlInt, what+".pattern")
	return c.enum(m.field("criterion"), "NumberCriterion", what+".criterion", func(crit string) string {
		switch crit {
		case "MORETHAN":
			return col + " > " + p
		case "LESSTHAN":
			return col + " < " + p
		default:
			return col + " = " + p
		}
	})
}

// gradWhere is the conjunction of the conditions of GraduateStudentWhereInput
// w on graduate student t: AND lists at any depth, with null or absent
// conditions ignored (an empty ProfessorWhereInput holds for every student).
//
// few says t's rows are few: a list under a parent object, whose rows the
// index on the parent's key hands over (a university's graduates). A
// condition on the advisor's research interest is then the advisor looked
// up by key for each of those rows. Written as EXISTS, PostgreSQL plans it
// as a semi-join and, pricing a LIKE like an equality, prefers to scan
// every professor with the pattern and hash them (QT13 at sf=10: 5,906
// patterns matched to keep 2 of 15 students, 1.2 ms, against 15 key lookups,
// 0.1 ms). At the root, where t may be every student, the semi-join stays,
// and the planner chooses.
func (c *compiler) gradWhere(t row, w *val, few bool) []string {
	if w.isNull() {
		return nil
	}
	var out []string
	if and := w.field("AND"); !and.isNull() {
		for _, el := range and.list {
			out = append(out, c.gradWhere(t, el, few)...)
		}
	}
	if adv := w.field("advisor"); !adv.isNull() {
		if nr := adv.field("nr"); !nr.isNull() {
			out = append(out, t.col("advisor")+" = "+c.id(nr, "where.advisor.nr"))
		}
		if m := adv.field("researchInterest"); !m.isNull() && !complete(m) {
			out = append(out, never)
		} else if !m.isNull() {
			p := c.alias("p")
			match := c.stringMatch(m, p+".researchInterest", "where.advisor.researchInterest")
			if few { // NULL (no advisor, no interest) is false, as EXISTS is
				out = append(out, "(SELECT "+match+" FROM professor "+p+" WHERE "+p+".nr = "+t.col("advisor")+")")
			} else {
				out = append(out, "EXISTS (SELECT 1 FROM professor "+p+" WHERE "+p+".nr = "+t.col("advisor")+" AND "+match+")")
			}
		}
	}
	if nr := w.field("university").field("nr"); !nr.isNull() {
		out = append(out, t.col("undergraduateDegreeFrom")+" = "+c.id(nr, "where.university.nr"))
	}
	if m := w.field("age"); !m.isNull() && !complete(m) {
		out = append(out, never)
	} else if !m.isNull() {
		out = append(out, c.numberMatch(m, t.col("age"), "where.age"))
	}
	return out
}

// gradColumns are the columns of the GraduateStudentField values:
// relationship fields order by the related object's nr, which is the
// foreign key.
var gradColumns = map[string]string{
	"id": "nr", "telephone": "telephone", "emailAddress": "emailAddress",
	"memberOf": "memberOf", "undergraduateDegreeFrom": "undergraduateDegreeFrom", "advisor": "advisor",
}

// gradOrder is the ORDER BY terms of order o ([GraduateStudentField], each
// ascending, null first), then nr; and split, the column the order starts
// with when it is a foreign-key column (see list.split), else "". The key
// never holds a null, so it is ordered without NULLS FIRST, which lets the
// database read it from the primary key's index.
func (c *compiler) gradOrder(t row, o *val) (keys []string, split string) {
	def := c.schema.Types["GraduateStudentField"]
	if !o.isNull() {
		for _, el := range o.list {
			if el.isNull() {
				continue
			}
			col := gradColumns[c.constEnum(el.leaf, def, "order")]
			if col == "nr" {
				keys = append(keys, t.col(col))
				continue
			}
			if len(keys) == 0 && foreignKey("graduateStudent", col) {
				split = col
			}
			keys = append(keys, t.col(col)+" NULLS FIRST")
		}
	}
	return append(keys, t.col("nr")), split
}

// foreignKey says whether column col of table is a foreign key: gen
// indexes every one, on the column and the key (store.CreateIndex).
func foreignKey(table, col string) bool {
	if t := dataset.TableByName(table); t != nil {
		for _, r := range t.Refs {
			if r.Column == col {
				return true
			}
		}
	}
	return false
}

// publicationOrder is the ORDER BY terms of PublicationSortCriterion o:
// by field in direction (ASC when null; null titles count as least), then
// by nr; by nr alone when o or its field is null.
func (c *compiler) publicationOrder(t row, o *val) []string {
	f := o.field("field")
	if f.isNull() {
		return nil
	}
	col := t.col(c.constEnum(f.leaf, c.schema.Types["PublicationField"], "order.field"))
	if dir := o.field("direction"); !dir.isNull() && c.constEnum(dir.leaf, c.schema.Types["SortDirection"], "order.direction") == "DESC" {
		return []string{col + " DESC NULLS LAST", t.col("nr")}
	}
	return []string{col + " NULLS FIRST", t.col("nr")}
}

// search is publicationSearch's condition on publication t: the generated
// publications whose field matches (written ones, in the reserved range,
// are not searched).
func (c *compiler) search(t row, g *group) string {
	col := c.enum(c.arg(g, "field"), "PublicationField", "field", func(name string) string { return t.col(name) })
	m := &val{obj: map[string]*val{"criterion": c.arg(g, "criterion"), "pattern": c.arg(g, "pattern")}}
	return c.stringMatch(m, col, "publicationSearch") + " AND " + t.col("nr") + " < " + strconv.FormatInt(dataset.Reserved, 10)
}

// authors is Publication.authors of publication b: the main author (a
// faculty row) first, then the graduate co-authors ascending by nr.
func (c *compiler) authors(b row, set ast.SelectionSet) string {
	f := c.newRow("Faculty")
	fobj, join := c.value(f, set)
	v := c.alias("t")
	g := c.newRow("GraduateStudent")
	gobj := c.object("GraduateStudent", g, set)
	a := c.alias("a")
	q := "SELECT 0 AS k, " + f.col("nr") + " AS n, " + fobj + " AS j FROM " + f.from(join) + c.lateral(f) +
		" WHERE " + f.col("nr") + " = " + b.col("mainAuthor") +
		" UNION ALL SELECT 1, " + g.col("nr") + ", " + gobj + " FROM coAuthorOfPublication " + v +
		" JOIN graduateStudent " + g.a + " ON " + g.col("nr") + " = " + v + ".graduateStudentID" + c.lateral(g) +
		" WHERE " + v + ".publicationID = " + b.col("nr")
	return "(SELECT " + c.d.array(a+".j", []string{a + ".k", a + ".n"}) + " FROM (" + q + ") " + a + ")"
}

// connection is University.graduateStudentConnection of university u: the
// selection over one row of the aggregates it needs, over the graduate
// students whose undergraduate degree is from u (a count alone reads no
// ages).
func (c *compiler) connection(u row, set ast.SelectionSet) string {
	a := row{a: c.alias("a")}
	c.aggregates = map[string]bool{}
	obj := c.object("CollectionOfEdgesToUgStudents", a, set)
	t := c.alias("g")
	cols := []string{"count(*) AS n"}
	for _, f := range []string{"sum", "max", "min"} {
		if c.aggregates[f] {
			cols = append(cols, f+"("+t+".age) AS "+f)
		}
	}
	return "(SELECT " + obj + " FROM (SELECT " + strings.Join(cols, ", ") + " FROM graduateStudent " + t +
		" WHERE " + t + ".undergraduateDegreeFrom = " + u.col("nr") + ") " + a.a + ")"
}

// aggregateField is a field of the aggregate types over the aggregates of
// row a (see connection): 0 over no rows, avg the exact mean sum / count.
func (c *compiler) aggregateField(a row, g *group) string {
	agg := func(f string) string {
		c.aggregates[f] = true
		return "coalesce(" + a.col(f) + ", 0)"
	}
	switch g.name() {
	case "aggregate":
		return c.object("AggregateUgStudents", a, g.set())
	case "age":
		return c.object("AgeAggregationOfUgStudents", a, g.set())
	case "count":
		return a.col("n")
	case "avg":
		return c.d.float("coalesce(" + c.d.float(agg("sum")) + " / nullif(" + a.col("n") + ", 0), 0)")
	default: // sum, max, min
		return c.d.float(agg(g.name()))
	}
}
