package dataset

import (
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"
)

// Fingerprint identifies a dataset's content independently of row order, so
// the generator, a PostgreSQL database, a SQLite file and a loaded dump can be
// compared: per table, the row count and the sum (mod 2^64) of the FNV-1a hash
// of every row's canonical text (values as decimal or raw text, NULL as \N,
// separated by tabs).
type Fingerprint [NumTables]TableFingerprint

// TableFingerprint is one table's part of a Fingerprint.
type TableFingerprint struct {
	Rows int64
	Sum  uint64
}

// AddRow adds one row of table t.
func (f *Fingerprint) AddRow(t TableID, row []Value) {
	h := fnv.New64a()
	var buf [32]byte
	for i, v := range row {
		if i > 0 {
			h.Write([]byte{'\t'})
		}
		switch {
		case v.Null:
			h.Write([]byte(`\N`))
		case Tables[t].Columns[i].Kind == Int:
			h.Write(strconv.AppendInt(buf[:0], v.I, 10))
		default:
			h.Write([]byte(v.S))
		}
	}
	f[t].Rows++
	f[t].Sum += h.Sum64()
}

// AddBatch adds every row of b.
func (f *Fingerprint) AddBatch(b *Batch) {
	for t := range b.Tables {
		rows := &b.Tables[t]
		for i, n := 0, rows.Len(); i < n; i++ {
			f.AddRow(TableID(t), rows.Row(i))
		}
	}
}

// String lists the tables, one "name rows sum" line each.
func (f *Fingerprint) String() string {
	var sb strings.Builder
	for t, tf := range f {
		fmt.Fprintf(&sb, "%s %d %016x\n", Tables[t].Name, tf.Rows, tf.Sum)
	}
	return sb.String()
}
