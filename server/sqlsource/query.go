package sqlsource

import (
	"strconv"
	"strings"
)

// stmt is one SQL statement with ? placeholders and its arguments.
type stmt struct {
	sql  string
	args []any
}

// query is a fetch of rows of one type: those whose key expression equals
// a key (none for the root fields), that satisfy the further conditions,
// ordered by order and then by nr, paged by limit and offset. The naive
// and memo Sources run it for one key (single); the batch Sources for a
// set of keys in one statement (batch), the results split back per key.
type query[T any] struct {
	rows          *rows[T]
	join          string   // appended to the FROM clause
	key           string   // the key expression; "" for an unkeyed fetch
	where         []string // further conditions, with ? placeholders
	args          []any    // their arguments, in order
	order         string   // ORDER BY terms before the nr tie-breaker; "" for nr alone
	limit, offset *int
}

func (q *query[T]) from() string {
	if q.join == "" {
		return q.rows.from
	}
	return q.rows.from + " " + q.join
}

func (q *query[T]) orderBy() string {
	if q.order == "" {
		return q.rows.nr
	}
	return q.order + ", " + q.rows.nr
}

// conditions joins first (if not "") and the further conditions with AND.
func (q *query[T]) conditions(first string) string {
	conds := q.where
	if first != "" {
		conds = append([]string{first}, q.where...)
	}
	if len(conds) == 0 {
		return ""
	}
	return " WHERE " + strings.Join(conds, " AND ")
}

// single is the statement of the rows of key (of all rows when q.key is "").
func (q *query[T]) single(d dialect, key int64) stmt {
	var b strings.Builder
	var args []any
	b.WriteString("SELECT " + strings.Join(q.rows.cols, ", ") + " FROM " + q.from())
	first := ""
	if q.key != "" {
		first = q.key + " = ?"
		args = append(args, key)
	}
	b.WriteString(q.conditions(first))
	args = append(args, q.args...)
	b.WriteString(" ORDER BY " + q.orderBy())
	page, pargs := d.page(q.limit, q.offset)
	b.WriteString(page)
	return stmt{b.String(), append(args, pargs...)}
}

// batch is the statement of the rows of every key in keys, each row
// prefixed with its key, ordered by key and then as single orders them.
// Paging applies per key: ROW_NUMBER() OVER (PARTITION BY key ...) numbers
// each key's rows in order and the outer query keeps the page's numbers.
func (q *query[T]) batch(d dialect, keys []int64) stmt {
	cond, arg := d.keysIn(q.key, keys)
	args := append([]any{arg}, q.args...)
	where := q.conditions(cond)
	if q.limit == nil && q.offset == nil {
		return stmt{"SELECT " + q.key + ", " + strings.Join(q.rows.cols, ", ") + " FROM " + q.from() + where +
			" ORDER BY " + q.key + ", " + q.orderBy(), args}
	}
	var b strings.Builder
	if len(keys) == 1 { // one key pages with LIMIT/OFFSET, as single does: no window over all its rows
		b.WriteString("SELECT " + q.key + ", " + strings.Join(q.rows.cols, ", ") + ", 0 FROM " + q.from() + where +
			" ORDER BY " + q.orderBy())
		page, pargs := d.page(q.limit, q.offset)
		b.WriteString(page)
		return stmt{b.String(), append(args, pargs...)}
	}
	b.WriteString("SELECT * FROM (SELECT " + q.key + " AS k")
	for i, c := range q.rows.cols { // named, so that the derived table's columns are distinct
		b.WriteString(", " + c + " AS c" + strconv.Itoa(i))
	}
	b.WriteString(", ROW_NUMBER() OVER (PARTITION BY " + q.key + " ORDER BY " + q.orderBy() + ") AS n FROM " + q.from() + where + ") w")
	offset := 0
	if q.offset != nil {
		offset = *q.offset
	}
	b.WriteString(" WHERE w.n > ?")
	args = append(args, int64(offset))
	if q.limit != nil {
		b.WriteString(" AND w.n <= ?")
		args = append(args, int64(offset)+int64(*q.limit))
	}
	b.WriteString(" ORDER BY w.k, w.n")
	return stmt{b.String(), args}
}

// paged says whether the batch statement has the row number as its last column.
func (q *query[T]) paged() bool { return q.limit != nil || q.offset != nil }
