package dataset

import "unsafe"

// Value is one cell. Which field is meaningful depends on the column's Kind;
// Null marks SQL NULL (an undergraduate without advisor, a course without
// teaching assistant, a professor who heads no department).
type Value struct {
	I    int64
	S    string
	Null bool
}

// Rows holds the rows of one table generated for one unit (a university or
// the university pool), row-major: row r is Vals[r*w : (r+1)*w] with w the
// number of columns.
type Rows struct {
	Table *Table
	Vals  []Value
}

// Len is the number of rows.
func (r *Rows) Len() int { return len(r.Vals) / len(r.Table.Columns) }

// Row returns row i.
func (r *Rows) Row(i int) []Value {
	w := len(r.Table.Columns)
	return r.Vals[i*w : (i+1)*w : (i+1)*w]
}

func (r *Rows) add(vs ...Value) { r.Vals = append(r.Vals, vs...) }

// Batch is everything generated for one university (or, for the pool, the
// university table alone): one Rows per table.
type Batch struct {
	// Unit is the university index, or -1 for the pool of universities.
	Unit   int
	Tables [NumTables]Rows
	// Out is free for a Stream's parallel stage to pass a result (such as the
	// batch encoded for a database) to the ordered stage.
	Out any
	// Words marks the words the batch drew, per word kind (TitleWords, ...).
	Words [numWordKinds]WordSet
	arena arena
}

func (b *Batch) reset(unit int) {
	b.Unit = unit
	for i := range b.Tables {
		b.Tables[i].Table = Tables[i]
		b.Tables[i].Vals = b.Tables[i].Vals[:0]
	}
	b.arena.reset()
	b.Words = [numWordKinds]WordSet{}
}

// RowCount is the number of rows over all tables.
func (b *Batch) RowCount() int {
	n := 0
	for i := range b.Tables {
		n += b.Tables[i].Len()
	}
	return n
}

// arena hands out strings carved from large byte chunks, so generating a
// university allocates a few chunks instead of one string per cell. A string
// stays valid for as long as the Batch is not reset: chunks are never written
// again once a string points into them, and reset keeps only the newest chunk,
// whose strings the next university overwrites only after the Batch has been
// consumed.
type arena struct {
	buf  []byte
	open int // start of the string being built
}

const chunkSize = 256 << 10

func (a *arena) reset() {
	a.buf = a.buf[:0]
	a.open = 0
}

// start begins a new string of at most n bytes; append them to a.buf, then
// call end.
func (a *arena) start(n int) {
	if cap(a.buf)-len(a.buf) < n {
		a.buf = make([]byte, 0, max(chunkSize, n))
	}
	a.open = len(a.buf)
}

func (a *arena) end() string {
	n := len(a.buf) - a.open
	if n == 0 {
		return ""
	}
	return unsafe.String(&a.buf[a.open], n)
}
