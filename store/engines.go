package store

import (
	"fmt"
	"slices"
	"strings"
)

// Engine is a PostgreSQL-wire database the loader can target, and the
// loader's choices it turns off for it (gen --target-db). The choices are
// read from each engine's documentation (docs/distributed.md cites the
// pages); none of the engines but PostgreSQL is tested here.
type Engine struct {
	Name string
	Wire WireOptions
	// Why says, per choice turned off, what the engine's documentation
	// says; the docs and gen's help print it.
	Why string
}

// engines are the presets, by name.
var engines = []Engine{
	{Name: "postgres", Why: "every choice on: binary COPY, COPY FREEZE, NOT VALID foreign keys validated after, COLLATE \"C\", keys after the data"},
	{Name: "cockroach", Wire: WireOptions{NoFreeze: true, NoCollateC: true, KeysFirst: true},
		Why: "no FREEZE (COPY ... WITH FREEZE is listed as unsupported, and TRUNCATE is a non-transactional schema change); " +
			"no COLLATE \"C\" (its collations are locale tags; uncollated STRINGs already sort by their UTF-8 bytes); " +
			"primary keys in CREATE TABLE (a table created without one gets a hidden rowid key, and changing it is a rewrite); " +
			"binary COPY and NOT VALID foreign keys are documented and kept"},
	{Name: "yugabyte", Wire: WireOptions{NoFreeze: true, ValidFKs: true, KeysFirst: true},
		Why: "no FREEZE (a YugabyteDB table is not frozen: the option only gives a notice, and TRUNCATE is not transactional); " +
			"foreign keys validated as they are added (VALIDATE CONSTRAINT of a NOT VALID key is not implemented); " +
			"primary keys in CREATE TABLE (adding one after the data re-distributes the table); " +
			"binary COPY and COLLATE \"C\" (a deterministic collation) are kept"},
	{Name: "citus", Why: "every choice on: gen creates plain tables on the coordinator, which are PostgreSQL's; " +
		"distributing them (create_distributed_table, create_reference_table) is a step of its own, after gen"},
}

// Engines lists the presets' names.
func Engines() []string {
	var out []string
	for _, e := range engines {
		out = append(out, e.Name)
	}
	return out
}

// EngineByName returns the preset of name, or an error that lists them.
func EngineByName(name string) (Engine, error) {
	i := slices.IndexFunc(engines, func(e Engine) bool { return e.Name == name })
	if i < 0 {
		return Engine{}, fmt.Errorf("unknown database engine %q: want %s", name, strings.Join(Engines(), ", "))
	}
	return engines[i], nil
}

// Or returns the choices turned off in w or in x.
func (w WireOptions) Or(x WireOptions) WireOptions {
	return WireOptions{CopyText: w.CopyText || x.CopyText, NoFreeze: w.NoFreeze || x.NoFreeze, ValidFKs: w.ValidFKs || x.ValidFKs,
		NoCollateC: w.NoCollateC || x.NoCollateC, KeysFirst: w.KeysFirst || x.KeysFirst}
}
