// Package benchdb is what both sides of a benchmark database know of it: the
// loader that fills it (package store) and the servers that read it. It owns
// the table that marks a dataset's load complete and keeps its metadata
// (MetaTable, ReadMeta, ErrIncomplete) and opening one connection with
// messages that say what to do (ConnectPostgres, OpenSQLite, read-only).
// The kind of a database is dbloc.Kind.
//
// It imports dataset, dbloc and the two drivers (pgx, the SQLite library),
// and must not import the loader (store) or a server: a server depends on
// this package, not on the loader.
package benchdb
