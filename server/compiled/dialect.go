package compiled

import (
	"strings"

	"github.com/gqlbench/gqlbench/dbloc"
)

// dialect writes the SQL that differs between PostgreSQL and SQLite: how a
// JSON object and a JSON array are built, casts, string matching and paging.
// Everything else the compiler writes is common SQL.
//
// PostgreSQL builds json (not jsonb, which would reorder the keys) with
// json_build_object and json_agg. SQLite builds its binary JSONB with
// jsonb_object and jsonb_group_array, which keep the keys in insertion order
// and, unlike JSON text, stay JSON when they cross a subquery (a text value
// loses its JSON subtype there and would be embedded as a string); json()
// turns the whole answer into text once, at the top.
type dialect struct {
	pg bool
}

func dialectOf(k dbloc.Kind) dialect { return dialect{pg: k == dbloc.Postgres} }

// pgMaxPairs is how many key/value pairs one json_build_object call takes
// (PostgreSQL functions take at most 100 arguments).
const pgMaxPairs = 50

// sqliteMaxPairs is how many key/value pairs one jsonb_object call takes
// (SQLITE_MAX_FUNCTION_ARG is 1000 in the bundled SQLite).
const sqliteMaxPairs = 500

// pair is one key of a JSON object and the SQL expression of its value.
type pair struct {
	key, value string
}

// object is a JSON object with pairs in order; ok is false when SQLite
// cannot build one that large.
func (d dialect) object(pairs []pair) (sql string, ok bool) {
	args := func(ps []pair) string {
		var b strings.Builder
		for i, p := range ps {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(quote(p.key) + ", " + p.value)
		}
		return b.String()
	}
	if !d.pg {
		if len(pairs) > sqliteMaxPairs {
			return "", false
		}
		return "jsonb_object(" + args(pairs) + ")", true
	}
	if len(pairs) <= pgMaxPairs {
		return "json_build_object(" + args(pairs) + ")", true
	}
	// More pairs than one call takes: splice the texts of several objects,
	// each stripped of its braces, into one.
	var parts []string
	for len(pairs) > 0 {
		n := min(len(pairs), pgMaxPairs)
		parts = append(parts, "left(substr(CAST(json_build_object("+args(pairs[:n])+") AS text), 2), -1)")
		pairs = pairs[n:]
	}
	return "CAST('{' || " + strings.Join(parts, " || ', ' || ") + " || '}' AS json)", true
}

// array aggregates obj over the rows of a query, in the order of keys, into
// a JSON array that is [] (never NULL) over no rows.
func (d dialect) array(obj string, keys []string) string {
	order := ""
	if len(keys) > 0 {
		order = " ORDER BY " + strings.Join(keys, ", ")
	}
	if d.pg {
		return "coalesce(json_agg(" + obj + order + "), CAST('[]' AS json))"
	}
	return "jsonb_group_array(" + obj + order + ")"
}

// top turns the JSON value of the whole answer into the text the statement returns.
func (d dialect) top(obj string) string {
	if d.pg {
		return obj
	}
	return "json(" + obj + ")"
}

// param casts a parameter placeholder to its SQL type where the dialect
// needs it (PostgreSQL infers nothing from json_build_object's arguments or
// from overloaded functions such as length).
func (d dialect) param(marker, sqlType string) string {
	if !d.pg {
		return marker
	}
	return "CAST(" + marker + " AS " + sqlType + ")"
}

// Parameter types.
const (
	sqlInt  = "bigint"
	sqlText = "text"
)

// text is expression x as text (ids serialise as JSON strings).
func (d dialect) text(x string) string { return "CAST(" + x + " AS text)" }

// float is expression x as a floating-point number.
func (d dialect) float(x string) string {
	if d.pg {
		return "CAST(" + x + " AS double precision)"
	}
	return "CAST(" + x + " AS REAL)"
}

// String criteria, as the schema's StringCriterion enum names them.
const (
	critContains  = "CONTAINS"
	critStartWith = "START_WITH"
	critEndWith   = "END_WITH"
	critEquals    = "EQUALS"
)

// match is the condition "col matches the pattern under criterion crit":
// case-sensitive, with no wildcard characters. p gives the pattern's
// parameter as conversion k makes it (it may be called several times).
// A NULL col never matches.
//
// PostgreSQL's is LIKE with the pattern's %, _ and \ escaped (convLike*):
// byte for byte what strpos, left and right say on gqlbench's COLLATE "C"
// columns, and the condition a trigram index (gen --trigram) serves, where
// no index serves strpos. SQLite's LIKE ignores case, so SQLite compares
// substrings.
func (d dialect) match(crit, col string, p func(k conv) string) string {
	switch {
	case crit == critEquals:
		return col + " = " + p(convString)
	case d.pg && crit == critContains:
		return col + " LIKE " + p(convLikeContains)
	case d.pg && crit == critStartWith:
		return col + " LIKE " + p(convLikePrefix)
	case d.pg && crit == critEndWith:
		return col + " LIKE " + p(convLikeSuffix)
	case crit == critContains:
		return "instr(" + col + ", " + p(convString) + ") > 0"
	case crit == critStartWith:
		q := p(convString)
		return "substr(" + col + ", 1, length(" + q + ")) = " + q
	default: // END_WITH in SQLite, whose substr counts a start <= 0 from the end
		q := p(convString)
		return "(length(" + col + ") >= length(" + q + ") AND substr(" + col + ", length(" + col + ") - length(" + q + ") + 1) = " + q + ")"
	}
}

// paging is the LIMIT/OFFSET clause for limit and offset (SQL expressions,
// "" when absent), with a leading space, or "".
func (d dialect) paging(limit, offset string) string {
	switch {
	case limit == "" && offset == "":
		return ""
	case offset == "":
		return " LIMIT " + limit
	case limit != "":
		return " LIMIT " + limit + " OFFSET " + offset
	case d.pg:
		return " OFFSET " + offset
	default: // SQLite has no OFFSET without LIMIT; a negative LIMIT is none
		return " LIMIT -1 OFFSET " + offset
	}
}

// quote is s as an SQL string literal. Only names (GraphQL response keys,
// type and enum value names) are ever quoted: user values are parameters.
func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
