package experiment

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gqlbench/gqlbench/benchdb"
	"github.com/gqlbench/gqlbench/dataset"
	"github.com/gqlbench/gqlbench/dbloc"
	"github.com/gqlbench/gqlbench/internal/pglocal"
	"github.com/gqlbench/gqlbench/store"
)

// databases is where an experiment's datasets live: SQLite files in the
// results directory, a throwaway local PostgreSQL cluster, or a PostgreSQL
// server named by URL; one database per scale factor.
type databases struct {
	kind    string // "sqlite" or "postgres"
	dir     string // SQLite files, the local cluster's state
	admin   string // postgres: the URL databases are created through
	cluster *pglocal.Cluster
	keep    bool
	log     io.Writer
	created []string // postgres databases to drop at the end
	version string   // the database's version, for the report
}

// openDatabases prepares the place named by db: "sqlite", "postgres" (a
// local cluster started in dir/pg, removed at the end) or a PostgreSQL
// location (a postgres:// URL or a keyword/value DSN, see dbloc) of a user
// allowed to create databases.
func openDatabases(ctx context.Context, db, dir string, keep bool, log io.Writer) (*databases, error) {
	d := &databases{dir: dir, keep: keep, log: log}
	switch {
	case db == "" || db == "sqlite":
		d.kind = "sqlite"
		d.version = sqliteVersion()
	case db == "postgres":
		d.kind = "postgres"
		fmt.Fprintf(log, "starting a throwaway PostgreSQL in %s\n", filepath.Join(dir, "pg"))
		c, err := pglocal.Start(ctx, pglocal.Options{Dir: filepath.Join(dir, "pg"), Log: prefixed(log, "postgres: ")})
		if err != nil {
			return nil, fmt.Errorf("cannot start a local PostgreSQL (initdb, pg_ctl and postgres must be on PATH; or pass --db postgres://...): %w", err)
		}
		d.cluster, d.admin = c, c.URL("postgres")
	default:
		loc, err := dbloc.Parse(db)
		if errors.Is(err, dbloc.ErrUnsupported) || err == nil && loc.Kind() != dbloc.Postgres {
			return nil, fmt.Errorf("unsupported database %q: want sqlite, postgres (a throwaway local cluster), or a PostgreSQL server: postgres://USER:PASS@HOST:PORT/DB or a keyword/value DSN", dbloc.Redact(db))
		}
		if err != nil {
			return nil, err
		}
		d.kind, d.admin = "postgres", db
	}
	if d.kind == "postgres" {
		v, err := postgresVersion(ctx, d.admin)
		if err != nil {
			d.close(context.WithoutCancel(ctx))
			return nil, err
		}
		d.version = v
	}
	return d, nil
}

// dataset returns the URL of a database holding the dataset of scale sf
// and seed, and its metadata: generated now, or an SQLite file of an
// earlier run holding exactly that dataset.
func (d *databases) dataset(ctx context.Context, sf int, seed uint64) (string, *dataset.Meta, error) {
	cfg := dataset.Config{Seed: seed, Scale: sf}
	var url string
	var target store.Target
	switch d.kind {
	case "sqlite":
		path := filepath.Join(d.dir, fmt.Sprintf("sf%d-seed%d.db", sf, seed))
		url = "sqlite:" + path
		if m, err := benchdb.ReadMeta(ctx, url); err == nil && m.Scale == sf && m.Seed == seed && m.Version == dataset.Version {
			fmt.Fprintf(d.log, "dataset sf=%d seed=%d: reusing %s\n", sf, seed, path)
			return url, m, nil
		}
		target = &store.SQLiteTarget{Path: path, Force: true}
	default:
		name := fmt.Sprintf("gqlbench_sf%d_seed%d", sf, seed)
		u, err := pglocal.CreateDatabaseAt(ctx, d.admin, name)
		if err != nil {
			return "", nil, err
		}
		d.created = append(d.created, name)
		url = u
		target = &store.PostgresTarget{URL: url}
	}
	start := time.Now()
	m, err := store.Fill(ctx, target, cfg, store.FillOptions{})
	if err != nil {
		return "", nil, fmt.Errorf("generating sf=%d into %s: %w", sf, dbloc.Redact(url), err)
	}
	fmt.Fprintf(d.log, "dataset sf=%d seed=%d: %d rows into %s in %.1fs\n", sf, seed, m.TotalRows(), dbloc.Redact(url), time.Since(start).Seconds())
	return url, m, nil
}

// postmaster returns the local cluster's server process id, or 0.
func (d *databases) postmaster() int {
	if d.cluster == nil {
		return 0
	}
	b, err := os.ReadFile(filepath.Join(d.cluster.DataDir, "postmaster.pid"))
	if err != nil {
		return 0
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(strings.SplitN(string(b), "\n", 2)[0]))
	return pid
}

// where describes the databases for the report.
func (d *databases) where() string {
	switch {
	case d.kind == "sqlite":
		return "SQLite files in " + d.dir
	case d.cluster != nil:
		return fmt.Sprintf("a throwaway local PostgreSQL cluster (port %d), removed at the end", d.cluster.Port)
	}
	return "PostgreSQL at " + dbloc.Redact(d.admin)
}

// close drops the databases created (unless keep) and removes the local
// cluster (unless keep, then it is stopped).
func (d *databases) close(ctx context.Context) error {
	var errs []error
	if !d.keep && d.cluster == nil {
		for _, name := range d.created {
			if err := pglocal.DropDatabaseAt(ctx, d.admin, name); err != nil {
				errs = append(errs, err)
			}
		}
	}
	if d.cluster != nil {
		if d.keep {
			errs = append(errs, d.cluster.Stop(ctx))
			fmt.Fprintf(d.log, "stopped the local PostgreSQL; its databases are kept in %s (gqlbench pg start --dir %s)\n", d.cluster.Dir, d.cluster.Dir)
		} else {
			errs = append(errs, d.cluster.Destroy(ctx))
		}
	}
	return errors.Join(errs...)
}

// postgresVersion asks the server its version.
func postgresVersion(ctx context.Context, url string) (string, error) {
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return "", fmt.Errorf("cannot connect to %s: %w", dbloc.Redact(url), err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	var v string
	if err := conn.QueryRow(ctx, "SHOW server_version").Scan(&v); err != nil {
		return "", err
	}
	return "PostgreSQL " + v, nil
}

// sqliteVersion is the SQLite library's version.
func sqliteVersion() string {
	db, err := sql.Open("sqlite3", ":memory:")
	if err != nil {
		return "SQLite"
	}
	defer db.Close()
	var v string
	if db.QueryRow("SELECT sqlite_version()").Scan(&v) != nil {
		return "SQLite"
	}
	return "SQLite " + v
}

// isPostgres says whether db is a PostgreSQL location.
func isPostgres(db string) bool {
	loc, err := dbloc.Parse(db)
	return err == nil && loc.Kind() == dbloc.Postgres
}
