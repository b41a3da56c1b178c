package store

import (
	"fmt"
	"strings"

	"github.com/gqlbench/gqlbench/benchdb"
	"github.com/gqlbench/gqlbench/dataset"
	"github.com/gqlbench/gqlbench/dbloc"
)

// Schema options.
type Options struct {
	// NoIndexes skips the indexes on foreign-key columns (LinGBM creates
	// none; gqlbench does by default). Primary keys are always created.
	NoIndexes bool
	// NoForeignKeys skips the foreign-key constraints (LinGBM declares them;
	// generic servers such as PostGraphile derive relations from them).
	NoForeignKeys bool
	// Trigram adds pg_trgm's GIN indexes on the text columns that
	// publicationSearch searches (TrigramDDL): the index a deployment would
	// add for substring search, which serves LIKE '%…%' (PostGraphile's
	// `includes`, compiled's CONTAINS). PostgreSQL only; off by default, as
	// LinGBM creates no such index.
	Trigram bool
	// PostgreSQL only: the loader's choices that a PostgreSQL-wire
	// distributed database may lack, each turned off (engines.go picks
	// them per engine; false is PostgreSQL's fastest).
	Wire WireOptions
}

// WireOptions turn off, one by one, the PostgreSQL loader's choices that
// CockroachDB, YugabyteDB or Citus may not take (docs/distributed.md).
type WireOptions struct {
	// CopyText streams COPY in its text format instead of the binary one.
	CopyText bool
	// NoFreeze copies without FREEZE, and so without the TRUNCATE in the
	// COPY's own transaction that FREEZE needs (the tables are new).
	NoFreeze bool
	// ValidFKs adds each foreign key validated at once, instead of NOT
	// VALID and then VALIDATE CONSTRAINT.
	ValidFKs bool
	// NoCollateC leaves text columns in the database's default collation
	// instead of COLLATE "C" (byte order): the lists ordered by text then
	// follow the database's collation, which must be byte order for the
	// answers to be the benchmark's.
	NoCollateC bool
	// KeysFirst declares the primary keys in CREATE TABLE, before the
	// data, instead of adding them after it.
	KeysFirst bool
}

// Check says whether a dataset for a database of kind d can have o.
func (o Options) Check(d dbloc.Kind) error {
	if o.Trigram && d != dbloc.Postgres {
		return fmt.Errorf("trigram indexes are PostgreSQL's (pg_trgm), not %s's", d)
	}
	return nil
}

// TrigramColumns are the columns the trigram indexes cover: the ones
// publicationSearch searches (its PublicationField values).
var TrigramColumns = [][2]string{{"publication", "title"}, {"publication", "abstract"}}

// TrigramDDL creates pg_trgm (a trusted extension: the database's owner may
// create it) and a GIN index on each of TrigramColumns.
func TrigramDDL() []string {
	out := []string{"CREATE EXTENSION IF NOT EXISTS pg_trgm"}
	for _, c := range TrigramColumns {
		out = append(out, fmt.Sprintf("CREATE INDEX %s_%s_trgm_idx ON %s USING gin (%s gin_trgm_ops)", strings.ToLower(c[0]), strings.ToLower(c[1]), c[0], c[1]))
	}
	return out
}

// Schema is the DDL of the dataset in one dialect, in the order to run it.
type Schema struct {
	Drop   []string // drop the data tables (not benchdb.MetaTable)
	Create []string // create the data tables, without secondary structures where they load faster after the data
	After  []string // primary keys (PostgreSQL), indexes and foreign keys, once the data is in
}

// DDL returns the schema of the dataset in dialect d.
func DDL(d dbloc.Kind, o Options) Schema {
	var s Schema
	for i := len(dataset.Tables) - 1; i >= 0; i-- {
		t := dataset.Tables[i]
		drop := "DROP TABLE IF EXISTS " + t.Name
		if d == dbloc.Postgres {
			drop += " CASCADE"
		}
		s.Drop = append(s.Drop, drop)
	}
	for _, t := range dataset.Tables {
		s.Create = append(s.Create, createTable(d, t, o))
		if d == dbloc.Postgres && !o.Wire.KeysFirst {
			s.After = append(s.After, fmt.Sprintf("ALTER TABLE %s ADD PRIMARY KEY (%s)", t.Name, strings.Join(t.Key, ", ")))
		}
	}
	for _, t := range dataset.Tables {
		for _, r := range t.Refs {
			if o.NoIndexes || r.Column == t.Key[0] { // the primary key's index serves
				continue
			}
			s.After = append(s.After, CreateIndex(t, r))
		}
	}
	if o.Trigram && d == dbloc.Postgres {
		s.After = append(s.After, TrigramDDL()...)
	}
	if d != dbloc.SQLite && !o.NoForeignKeys { // SQLite declares them inline
		for _, t := range dataset.Tables {
			for _, r := range t.Refs {
				s.After = append(s.After, fmt.Sprintf("ALTER TABLE %s ADD CONSTRAINT %s FOREIGN KEY (%s) REFERENCES %s (%s)",
					t.Name, ForeignKeyName(t, r), r.Column, r.RefTable, r.RefColumn))
			}
		}
	}
	return s
}

// CreateIndex is the statement that indexes foreign-key column r of t,
// followed by t's key: every list of the schema is a parent's rows in key
// order (the benchmark's ordering rule), so the index hands them over in
// that order — no sort, and a page (LIMIT/OFFSET) reads only its rows and
// the ones it skips, not all of the parent's. It serves lookups by the
// foreign key alone as well as an index of that column only.
func CreateIndex(t *dataset.Table, r dataset.ForeignKey) string {
	cols := []string{r.Column}
	for _, k := range t.Key {
		if k != r.Column {
			cols = append(cols, k)
		}
	}
	return fmt.Sprintf("CREATE INDEX %s ON %s (%s)", IndexName(t, r), t.Name, strings.Join(cols, ", "))
}

// IndexName is the name of the index on foreign-key column r of t.
func IndexName(t *dataset.Table, r dataset.ForeignKey) string {
	return strings.ToLower(t.Name + "_" + r.Column + "_idx")
}

// ForeignKeyName is the name of the constraint of foreign key r of t.
func ForeignKeyName(t *dataset.Table, r dataset.ForeignKey) string {
	return strings.ToLower(t.Name + "_" + r.Column + "_fkey")
}

func createTable(d dbloc.Kind, t *dataset.Table, o Options) string {
	var b strings.Builder
	fmt.Fprintf(&b, "CREATE TABLE %s (", t.Name)
	single := len(t.Key) == 1
	for i, c := range t.Columns {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(c.Name + " " + columnType(d, c, o))
		if c.Name == t.Key[0] || (!single && contains(t.Key, c.Name)) {
			b.WriteString(" NOT NULL")
		}
		if d == dbloc.SQLite {
			if single && c.Name == t.Key[0] {
				b.WriteString(" PRIMARY KEY")
			}
			for _, r := range t.Refs {
				if r.Column == c.Name && !o.NoForeignKeys {
					fmt.Fprintf(&b, " REFERENCES %s (%s)", r.RefTable, r.RefColumn)
				}
			}
		}
	}
	if (d == dbloc.SQLite && !single) || d == dbloc.MySQL || d == dbloc.Postgres && o.Wire.KeysFirst {
		fmt.Fprintf(&b, ", PRIMARY KEY (%s)", strings.Join(t.Key, ", "))
	}
	b.WriteString(")")
	switch {
	case d == dbloc.SQLite && !single:
		b.WriteString(" WITHOUT ROWID")
	case d == dbloc.MySQL:
		b.WriteString(" ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin")
	}
	return b.String()
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func columnType(d dbloc.Kind, c dataset.Column, o Options) string {
	switch {
	case d == dbloc.Postgres && o.Wire.NoCollateC && c.Kind != dataset.Int:
		if c.Size == 0 {
			return "TEXT"
		}
		return fmt.Sprintf("VARCHAR(%d)", c.Size)
	case c.Kind == dataset.Int && d == dbloc.SQLite:
		return "INTEGER" // a single INTEGER PRIMARY KEY is the rowid: the fastest table SQLite has
	case c.Kind == dataset.Int:
		return "BIGINT"
	case c.Size == 0 && d == dbloc.MySQL:
		return "TEXT"
	case c.Size == 0 && d == dbloc.Postgres:
		return `TEXT COLLATE "C"`
	case c.Size == 0:
		return "TEXT"
	case d == dbloc.Postgres:
		// Byte order, as DESIGN's answer semantics require (and SQLite's default).
		return fmt.Sprintf(`VARCHAR(%d) COLLATE "C"`, c.Size)
	default:
		return fmt.Sprintf("VARCHAR(%d)", c.Size)
	}
}

// MetaDDL creates benchdb.MetaTable if it does not exist.
func MetaDDL(d dbloc.Kind) string {
	text := "TEXT"
	if d == dbloc.MySQL {
		text = "LONGTEXT"
	}
	return fmt.Sprintf("CREATE TABLE IF NOT EXISTS %s (id INTEGER NOT NULL PRIMARY KEY, status VARCHAR(16) NOT NULL, version INTEGER NOT NULL, meta %s)", benchdb.MetaTable, text)
}
