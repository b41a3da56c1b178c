// Package store gets a generated dataset somewhere: PostgreSQL (every table
// streamed through binary COPY on its own connection, then keys, indexes and
// foreign keys in parallel), a SQLite file (the embedded default), SQL dumps
// for PostgreSQL and MySQL, N-Triples and CSV. Each destination is a Target;
// Fill runs the generator (package dataset) into one and returns the
// dataset's metadata, which a database also keeps beside the data
// (benchdb.ReadMeta reads it back). No destination looks complete before it is: PostgreSQL
// marks the dataset "loading" until the last step, and SQLite and the files
// are written under a temporary name and renamed into place at the end.
//
//	target := &store.SQLiteTarget{Path: "lingbm.db"} // or &store.PostgresTarget{URL: url}, store.NewFile(format, path, opts)
//	meta, err := store.Fill(ctx, target, dataset.Config{Seed: 0, Scale: 1}, store.FillOptions{})
//
// PostgreSQL-wire databases that lack some of the PostgreSQL loader's
// choices (binary COPY, COPY FREEZE, NOT VALID foreign keys, COLLATE "C",
// keys after the data) get them turned off one by one (Options.Wire), or
// by an engine's preset (EngineByName: cockroach, yugabyte, citus).
//
// ExampleFill runs it and checks the tables against the pinned fingerprint
// (FingerprintDB). `gqlbench gen` is this call with flags.
package store
