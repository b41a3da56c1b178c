package sqlsource

import (
	"strconv"

	"github.com/gqlbench/gqlbench/dbloc"
	"github.com/gqlbench/gqlbench/server/source"
)

// dialect holds every difference between the SQL gqlbench writes for
// PostgreSQL and for SQLite; the rest of the package writes one SQL for both
// (with ? placeholders, which db.Rebind turns into $n for PostgreSQL).
type dialect dbloc.Kind

// inSet is the condition "expr is one of the keys of the set argument";
// setArg makes that argument. PostgreSQL takes an int8[] array (one
// statement text whatever the number of keys, so pgx's statement cache
// keeps serving it); SQLite, which has no arrays, a JSON array read by
// json_each (no limit on the number of keys, unlike host parameters).
// keysIn is the condition "expr is one of keys" with its argument: plain
// equality for a batch of one, which plans better than a set (a level of
// one object, common in the templates, gains a third of its time).
func (d dialect) keysIn(expr string, keys []int64) (string, any) {
	if len(keys) == 1 {
		return expr + " = ?", keys[0]
	}
	return d.inSet(expr), d.setArg(keys)
}

func (d dialect) inSet(expr string) string {
	if dbloc.Kind(d) == dbloc.Postgres {
		return expr + " = ANY(?)"
	}
	return expr + " IN (SELECT value FROM json_each(?))"
}

func (d dialect) setArg(keys []int64) any {
	if dbloc.Kind(d) == dbloc.Postgres {
		return keys
	}
	b := make([]byte, 0, 2+len(keys)*8)
	b = append(b, '[')
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, k, 10)
	}
	return string(append(b, ']'))
}

// match is the condition "col matches m": case-sensitive in both databases
// and with no wildcards at all, so %, _, \ and quotes in the pattern are
// ordinary characters (the pattern is always a parameter). LIKE is not
// used: SQLite's is case-insensitive for ASCII. Lengths and substrings
// count characters in both databases. A NULL col never matches.
func (d dialect) match(col string, m source.StringMatch) (string, []any) {
	const p = "CAST(? AS TEXT)" // PostgreSQL cannot infer length(unknown)
	switch m.Criterion {
	case source.StartsWith:
		return "substr(" + col + ", 1, length(" + p + ")) = " + p, []any{m.Pattern, m.Pattern}
	case source.EndsWith:
		return "(length(" + col + ") >= length(" + p + ") AND substr(" + col + ", length(" + col + ") - length(" + p + ") + 1) = " + p + ")",
			[]any{m.Pattern, m.Pattern, m.Pattern}
	case source.Equals:
		return col + " = " + p, []any{m.Pattern}
	default: // source.Contains
		find := "instr"
		if dbloc.Kind(d) == dbloc.Postgres {
			find = "strpos"
		}
		return find + "(" + col + ", " + p + ") > 0", []any{m.Pattern}
	}
}

// page is the LIMIT/OFFSET clause (with a leading space) for the given
// limit and offset, either of which may be nil.
func (d dialect) page(limit, offset *int) (string, []any) {
	switch {
	case limit != nil && offset != nil:
		return " LIMIT ? OFFSET ?", []any{int64(*limit), int64(*offset)}
	case limit != nil:
		return " LIMIT ?", []any{int64(*limit)}
	case offset != nil && dbloc.Kind(d) == dbloc.SQLite:
		return " LIMIT -1 OFFSET ?", []any{int64(*offset)} // SQLite has no OFFSET without LIMIT
	case offset != nil:
		return " OFFSET ?", []any{int64(*offset)}
	}
	return "", nil
}
