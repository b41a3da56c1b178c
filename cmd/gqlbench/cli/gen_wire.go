package cli

import (
	"flag"
	"strings"

	"github.com/gqlbench/gqlbench/dbloc"
	"github.com/gqlbench/gqlbench/store"
)

// wireFlags are gen's flags for PostgreSQL-wire databases other than
// PostgreSQL: a preset (--target-db) and each of the loader's choices
// turned off alone (docs/distributed.md).
type wireFlags struct {
	targetDB, copyFormat                      string
	noFreeze, validFKs, noCollateC, keysFirst bool
}

func (f *wireFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.targetDB, "target-db", "postgres", "the PostgreSQL-wire database --db is: "+strings.Join(store.Engines(), ", ")+"; picks the loader's choices it takes (docs/distributed.md; only postgres is tested here)")
	fs.StringVar(&f.copyFormat, "copy-format", "binary", "PostgreSQL-wire: COPY's format, binary or text")
	fs.BoolVar(&f.noFreeze, "no-freeze", false, "PostgreSQL-wire: COPY without FREEZE (and without the TRUNCATE in its transaction that FREEZE needs)")
	fs.BoolVar(&f.validFKs, "validate-fks-now", false, "PostgreSQL-wire: add each foreign key validated at once, not NOT VALID and then VALIDATE CONSTRAINT")
	fs.BoolVar(&f.noCollateC, "no-collate-c", false, "PostgreSQL-wire: text columns in the database's default collation, not COLLATE \"C\" (it must sort by bytes for the benchmark's answers)")
	fs.BoolVar(&f.keysFirst, "keys-first", false, "PostgreSQL-wire: primary keys in CREATE TABLE, not added after the data")
}

// options returns the choices turned off: the preset's and the flags'.
// They apply to a PostgreSQL-wire --db and to --format sql-postgres (its
// DDL: collation and keys).
func (f *wireFlags) options(set map[string]bool, db, format string) (store.WireOptions, error) {
	e, err := store.EngineByName(f.targetDB)
	if err != nil {
		return store.WireOptions{}, usagef("--target-db: %v", err)
	}
	if f.copyFormat != "binary" && f.copyFormat != "text" {
		return store.WireOptions{}, usagef("--copy-format must be binary or text, got %q", f.copyFormat)
	}
	w := e.Wire.Or(store.WireOptions{CopyText: f.copyFormat == "text", NoFreeze: f.noFreeze, ValidFKs: f.validFKs, NoCollateC: f.noCollateC, KeysFirst: f.keysFirst})
	given := false
	for _, n := range []string{"target-db", "copy-format", "no-freeze", "validate-fks-now", "no-collate-c", "keys-first"} {
		given = given || set[n]
	}
	if !given {
		return w, nil
	}
	pg := format == "sql-postgres"
	if loc, err := dbloc.Parse(db); err == nil && db != "" {
		pg = loc.Kind() == dbloc.Postgres
	}
	if !pg {
		return w, usagef("--target-db and the loader's PostgreSQL-wire flags apply to a postgres:// --db (or --format sql-postgres)")
	}
	return w, nil
}
