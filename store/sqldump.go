package store

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/gqlbench/gqlbench/benchdb"
	"github.com/gqlbench/gqlbench/dataset"
	"github.com/gqlbench/gqlbench/dbloc"
)

// The SQL dumps follow the protocol of the database targets: the metadata
// row says 'loading' before the data tables are touched and 'complete' only
// at the very end, so a dump whose load died half-way never looks complete.

// pgDump writes the sql-postgres format: one transaction for psql, the data
// as COPY ... FROM stdin blocks in COPY's text format.
type pgDump struct {
	schema Schema
	copy   [dataset.NumTables]string // "COPY t (cols) FROM stdin;\n"
}

func newPGDump(o Options) *pgDump {
	d := &pgDump{schema: DDL(dbloc.Postgres, o)}
	for i, t := range dataset.Tables {
		d.copy[i] = "COPY " + t.Name + " (" + columnList(t, ", ") + ") FROM stdin;\n"
	}
	return d
}

func columnList(t *dataset.Table, sep string) string {
	names := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		names[i] = c.Name
	}
	return strings.Join(names, sep)
}

func (d *pgDump) comment() string { return "--" }
func (d *pgDump) rowBytes() int   { return 80 }

func (d *pgDump) begin(dst []byte) []byte {
	dst = append(dst, "-- Load with: psql -v ON_ERROR_STOP=1 -f FILE [DATABASE-URL]\n"+
		"-- One transaction: it replaces the gqlbench tables of the database, or changes nothing.\n"...)
	return pgPrologue(dst, d.schema)
}

// pgPrologue opens the transaction, marks the dataset as loading and
// (re)creates the tables.
func pgPrologue(dst []byte, s Schema) []byte {
	dst = append(dst, "\\set ON_ERROR_STOP on\n"+
		"SET client_encoding = 'UTF8';\n"+
		"SET standard_conforming_strings = on;\n"+
		"BEGIN;\n"...)
	dst = appendStatements(dst, MetaDDL(dbloc.Postgres))
	dst = appendMetaStatus(dst, "loading", "NULL")
	dst = appendStatements(dst, s.Drop...)
	return appendStatements(dst, s.Create...)
}

// pgEpilogue builds keys, indexes and foreign keys, records the metadata as
// complete and commits.
func pgEpilogue(dst []byte, s Schema, m *dataset.Meta) ([]byte, error) {
	js, err := json.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("encode the metadata: %w", err)
	}
	dst = appendStatements(dst, s.After...)
	dst = appendStatements(dst, "ANALYZE")
	// standard_conforming_strings is on (see pgPrologue): only quotes need doubling.
	lit := "'" + strings.ReplaceAll(string(js), "'", "''") + "'"
	dst = appendMetaStatus(dst, "complete", lit)
	return append(dst, "COMMIT;\n"...), nil
}

// appendMetaStatus replaces the metadata row; meta is an SQL literal.
func appendMetaStatus(dst []byte, status, meta string) []byte {
	dst = append(dst, "DELETE FROM "+benchdb.MetaTable+";\n"...)
	dst = append(dst, "INSERT INTO "+benchdb.MetaTable+" VALUES (1, '"+status+"', "...)
	dst = strconv.AppendInt(dst, dataset.Version, 10)
	dst = append(dst, ", "...)
	dst = append(dst, meta...)
	return append(dst, ");\n"...)
}

func appendStatements(dst []byte, stmts ...string) []byte {
	for _, s := range stmts {
		dst = append(dst, s...)
		dst = append(dst, ";\n"...)
	}
	return dst
}

func (d *pgDump) encode(dst []byte, b *dataset.Batch) []byte {
	for i := range b.Tables {
		rows := &b.Tables[i]
		if rows.Len() == 0 {
			continue
		}
		dst = append(dst, d.copy[i]...)
		dst = appendCopyText(dst, rows)
		dst = append(dst, "\\.\n"...)
	}
	return dst
}

// appendCopyText appends rows in COPY's text format: tab-separated, \N for
// NULL, one row per line.
func appendCopyText(dst []byte, rows *dataset.Rows) []byte {
	cols := rows.Table.Columns
	for i, n := 0, rows.Len(); i < n; i++ {
		for j, v := range rows.Row(i) {
			if j > 0 {
				dst = append(dst, '\t')
			}
			switch {
			case v.Null:
				dst = append(dst, `\N`...)
			case cols[j].Kind == dataset.Int:
				dst = strconv.AppendInt(dst, v.I, 10)
			default:
				dst = appendCopyString(dst, v.S)
			}
		}
		dst = append(dst, '\n')
	}
	return dst
}

// appendCopyString escapes the bytes COPY's text format gives a meaning.
func appendCopyString(dst []byte, s string) []byte {
	return appendEscaped(dst, s, &copyEscapes)
}

func (d *pgDump) commit(dst []byte, m *dataset.Meta) ([]byte, error) {
	return pgEpilogue(dst, d.schema, m)
}

// pgCSVScript is the load.sql of a csv directory: the same transaction as
// the sql-postgres dump, with psql's \copy reading the CSV files (paths
// relative to the directory psql runs in).
func pgCSVScript(o Options, m *dataset.Meta) ([]byte, error) {
	s := DDL(dbloc.Postgres, o)
	dst := []byte(strings.TrimRight(string(fileHeader(nil, "--", m)), " \n"))
	dst = append(dst, "\n-- Load from inside this directory: psql -v ON_ERROR_STOP=1 -f load.sql [DATABASE-URL]\n"...)
	dst = pgPrologue(dst, s)
	for _, t := range dataset.Tables {
		dst = append(dst, "\\copy "+t.Name+" ("+columnList(t, ", ")+") FROM '"+t.Name+".csv' WITH (FORMAT csv)\n"...)
	}
	return pgEpilogue(dst, s, m)
}

// mysqlDump writes the sql-mysql format: multi-row INSERT statements, with
// the checks MySQL would otherwise run per row switched off during the load.
type mysqlDump struct {
	schema Schema
	insert [dataset.NumTables]string // "INSERT INTO t (cols) VALUES "
}

// Limits of one INSERT statement, well below MySQL's default
// max_allowed_packet (16 MB in MariaDB and older MySQL).
const (
	mysqlRowsPerInsert  = 1000
	mysqlBytesPerInsert = 1 << 20
)

func newMySQLDump(o Options) *mysqlDump {
	d := &mysqlDump{schema: DDL(dbloc.MySQL, o)}
	for i, t := range dataset.Tables {
		d.insert[i] = "INSERT INTO " + t.Name + " (" + columnList(t, ",") + ") VALUES "
	}
	return d
}

func (d *mysqlDump) comment() string { return "--" }
func (d *mysqlDump) rowBytes() int   { return 85 }

func (d *mysqlDump) begin(dst []byte) []byte {
	dst = append(dst, "-- Load with: mysql DATABASE < FILE (or: mariadb DATABASE < FILE)\n"+
		"-- It replaces the gqlbench tables of the database.\n"+
		"SET NAMES utf8mb4;\n"+
		// Strict (over-long values fail instead of being cut) and without
		// NO_BACKSLASH_ESCAPES, which the string literals below rely on.
		"SET SESSION sql_mode = 'STRICT_TRANS_TABLES,NO_ENGINE_SUBSTITUTION';\n"+
		"SET foreign_key_checks = 0;\n"+
		"SET unique_checks = 0;\n"...)
	dst = appendStatements(dst, MetaDDL(dbloc.MySQL))
	dst = appendMetaStatus(dst, "loading", "NULL")
	dst = appendStatements(dst, d.schema.Drop...)
	dst = appendStatements(dst, d.schema.Create...)
	// DDL commits implicitly in MySQL; the data goes in as one transaction.
	return append(dst, "SET autocommit = 0;\n"...)
}

func (d *mysqlDump) encode(dst []byte, b *dataset.Batch) []byte {
	for i := range b.Tables {
		rows := &b.Tables[i]
		cols := rows.Table.Columns
		inStmt, stmtStart := 0, 0
		for r, n := 0, rows.Len(); r < n; r++ {
			if inStmt == 0 {
				stmtStart = len(dst)
				dst = append(dst, d.insert[i]...)
			} else {
				dst = append(dst, ',')
			}
			dst = append(dst, '(')
			for j, v := range rows.Row(r) {
				if j > 0 {
					dst = append(dst, ',')
				}
				switch {
				case v.Null:
					dst = append(dst, "NULL"...)
				case cols[j].Kind == dataset.Int:
					dst = strconv.AppendInt(dst, v.I, 10)
				default:
					dst = appendMySQLString(dst, v.S)
				}
			}
			dst = append(dst, ')')
			inStmt++
			if inStmt == mysqlRowsPerInsert || len(dst)-stmtStart >= mysqlBytesPerInsert {
				dst = append(dst, ";\n"...)
				inStmt = 0
			}
		}
		if inStmt > 0 {
			dst = append(dst, ";\n"...)
		}
	}
	return dst
}

// appendMySQLString appends s as a MySQL string literal (for the default
// sql_mode, in which backslash escapes).
func appendMySQLString(dst []byte, s string) []byte {
	dst = append(dst, '\'')
	dst = appendEscaped(dst, s, &mysqlEscapes)
	return append(dst, '\'')
}

func (d *mysqlDump) commit(dst []byte, m *dataset.Meta) ([]byte, error) {
	js, err := json.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("encode the metadata: %w", err)
	}
	dst = append(dst, "COMMIT;\nSET autocommit = 1;\n"...)
	dst = appendStatements(dst, d.schema.After...)
	dst = appendMetaStatus(dst, "complete", string(appendMySQLString(nil, string(js))))
	return append(dst, "SET unique_checks = 1;\nSET foreign_key_checks = 1;\n"...), nil
}
