package write

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/gqlbench/gqlbench/dataset"
	"github.com/gqlbench/gqlbench/dbloc"
	"github.com/gqlbench/gqlbench/server/db"
)

// The sandbox's rows (dataset.SandboxUniversity and the rest), inserted
// unless they are there. Nothing generated refers to them: the university is
// not in the pool of degrees, the department and its members are in no
// generated list.
var sandboxInserts = []string{
	"INSERT INTO university (nr, name) VALUES (%[1]d, 'sandbox') ON CONFLICT DO NOTHING",
	"INSERT INTO department (nr, name, subOrganizationOf) VALUES (%[1]d, 'sandbox', %[1]d) ON CONFLICT DO NOTHING",
	"INSERT INTO faculty (nr, name, telephone, emailAddress, undergraduateDegreeFrom, masterDegreeFrom, doctoralDegreeFrom, worksFor) VALUES " +
		"(%[2]d, 'sandboxProfessor', '000-000-0000', 'sandboxProfessor@sandbox.invalid', %[1]d, %[1]d, %[1]d, %[1]d), " +
		"(%[3]d, 'sandboxLecturer', '000-000-0001', 'sandboxLecturer@sandbox.invalid', %[1]d, %[1]d, %[1]d, %[1]d) ON CONFLICT DO NOTHING",
	"INSERT INTO professor (nr, professorType, researchInterest, headOf) VALUES (%[2]d, 'fullProfessor', 'sandbox', %[1]d) ON CONFLICT DO NOTHING",
	"INSERT INTO lecturer (nr) VALUES (%[3]d) ON CONFLICT DO NOTHING",
}

// sequenceTable is SQLite's counter of written nrs, one row per entity's
// table (PostgreSQL has sequences).
const sequenceTable = "gqlbench_sequence"

// sequence is the name of the PostgreSQL sequence of e's nrs.
func sequence(e *Entity) string { return "gqlbench_" + strings.ToLower(e.Table) + "_nr" }

// makeSandbox inserts the sandbox's rows and makes the counters of written
// nrs, in one transaction. Two processes may do it at once: PostgreSQL may
// then refuse one CREATE SEQUENCE IF NOT EXISTS with a unique violation,
// and that one tries again.
func makeSandbox(ctx context.Context, d *db.DB) error {
	err := d.Write(ctx, func(tx *db.Tx) error { return sandboxIn(ctx, d, tx) })
	var pg *pgconn.PgError
	if errors.As(err, &pg) && (pg.Code == "23505" || pg.Code == "42P07") {
		err = d.Write(ctx, func(tx *db.Tx) error { return sandboxIn(ctx, d, tx) })
	}
	if err != nil {
		return fmt.Errorf("cannot make the write sandbox (the rows written rows refer to): %w", err)
	}
	return nil
}

func sandboxIn(ctx context.Context, d *db.DB, tx *db.Tx) error {
	for _, q := range sandboxInserts {
		if _, err := tx.Exec(ctx, fmt.Sprintf(q, dataset.SandboxUniversity, dataset.SandboxProfessor, dataset.SandboxLecturer)); err != nil {
			return err
		}
	}
	r := strconv.FormatInt(dataset.Reserved, 10)
	for _, e := range Entities {
		var q string
		if d.Loc.Kind() == dbloc.Postgres {
			q = "CREATE SEQUENCE IF NOT EXISTS " + sequence(e) + " AS bigint MINVALUE " + r + " START WITH " + r
		} else {
			if _, err := tx.Exec(ctx, "CREATE TABLE IF NOT EXISTS "+sequenceTable+" (tbl TEXT NOT NULL PRIMARY KEY, next INTEGER NOT NULL)"); err != nil {
				return err
			}
			// Past every written row already there, should the counter be new.
			q = "INSERT INTO " + sequenceTable + " (tbl, next) SELECT '" + e.Table + "', COALESCE(MAX(nr) + 1, " + r + ") FROM " +
				e.Table + " WHERE nr >= " + r + " ON CONFLICT DO NOTHING"
		}
		if _, err := tx.Exec(ctx, q); err != nil {
			return err
		}
	}
	return nil
}

// isSandbox says whether nr is the nr of a sandbox row of table.
func isSandbox(table string, nr int64) bool {
	switch table {
	case "faculty":
		return nr == dataset.SandboxProfessor || nr == dataset.SandboxLecturer
	case "professor":
		return nr == dataset.SandboxProfessor
	case "department":
		return nr == dataset.SandboxDepartment
	}
	return false
}
