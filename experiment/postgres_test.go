package experiment_test

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gqlbench/gqlbench/exitcode"
	"github.com/gqlbench/gqlbench/internal/pglocal/pgtest"
	"github.com/gqlbench/gqlbench/runfile"
	"github.com/jackc/pgx/v5"
)

// TestOptimizationsLocalPostgres runs §6.2 with --db postgres: a throwaway
// cluster in DIR/pg, removed at the end.
func TestOptimizationsLocalPostgres(t *testing.T) {
	dir := t.TempDir()
	code, stdout, stderr := gqlbench(context.Background(), append(optimizationsArgs, "--dir", dir, "--db", "postgres")...)
	if code != exitcode.OK {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	checkOptimizations(t, dir, "postgres")
	if _, err := os.Stat(filepath.Join(dir, "pg", "cluster.json")); !os.IsNotExist(err) {
		t.Errorf("the throwaway cluster is still there: %v", err)
	}
	checkReport(t, dir, "PostgreSQL")
	checkDatabaseWatched(t, filepath.Join(dir, "runs", "atpt-sf1-naive-QT03.jsonl"))
	checkStatements(t, dir)
}

// checkStatements checks the statements per request counted by the
// database (pg_stat_statements) against what each technique sends: QT3 is a
// chain of four single-row fetches (research group, department, head,
// university) in both; on QT5 batching sends fewer than one per object.
func checkStatements(t *testing.T, dir string) {
	t.Helper()
	per := map[string]float64{}
	for _, name := range []string{"naive-QT03", "batch-QT03", "naive-QT05", "batch-QT05"} {
		path := filepath.Join(dir, "runs", "atpt-sf1-"+name+".jsonl")
		f, err := runfile.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		st := f.Summary.Statements
		if st == nil || st.Missing != 0 || st.Requests == 0 {
			t.Fatalf("%s: statements %+v", path, st)
		}
		per[name] = st.PerRequest
	}
	if per["naive-QT03"] != 4 || per["batch-QT03"] != 4 || per["batch-QT05"] >= per["naive-QT05"] {
		t.Errorf("statements per request %v: want 4 for QT3 in both, fewer for batch on QT5", per)
	}
}

// checkDatabaseWatched checks that a run on the local cluster sampled the
// database beside the server: the postmaster with its backends, which ran
// the server's statements.
func checkDatabaseWatched(t *testing.T, path string) {
	t.Helper()
	f, err := runfile.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Header.Watch) != 2 || f.Header.Watch[1].Name != "postgres" {
		t.Fatalf("%s watches %+v: want the server and postgres", path, f.Header.Watch)
	}
	procs, cpu := 0, 0.0
	for _, iv := range f.Intervals {
		if len(iv.Procs) != 2 {
			t.Fatalf("interval %d samples %d processes", iv.Index, len(iv.Procs))
		}
		procs = max(procs, iv.Procs[1].Processes)
		cpu += iv.Procs[1].CPUPercent
	}
	// The postmaster, its helpers and at least one backend of the server's pool.
	if procs < 3 || cpu <= 0 {
		t.Errorf("the database tree: at most %d processes, %.1f CPU %% in all: its backends were not sampled", procs, cpu)
	}
}

// TestOptimizationsPostgresURL runs §6.2 on a server given by URL: a
// database per scale factor, dropped at the end.
func TestOptimizationsPostgresURL(t *testing.T) {
	dir := t.TempDir()
	admin := pgtest.Cluster(t).URL("")
	code, stdout, stderr := gqlbench(context.Background(), append(optimizationsArgs, "--dir", dir, "--db", admin)...)
	if code != exitcode.OK {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	checkOptimizations(t, dir, "postgres")
	secret := pgtest.Cluster(t).Password
	if strings.Contains(stderr+stdout, secret) {
		t.Error("the password reached the output")
	}
	for _, f := range []string{"report.html", "report.md", "runs/atpt-sf1-naive-QT03.jsonl"} {
		if b, _ := os.ReadFile(filepath.Join(dir, f)); strings.Contains(string(b), secret) {
			t.Errorf("the password is in %s", f)
		}
	}
	conn, err := pgx.Connect(context.Background(), admin)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	var n int
	if err := conn.QueryRow(context.Background(), "SELECT count(*) FROM pg_database WHERE datname LIKE 'gqlbench_sf%'").Scan(&n); err != nil || n != 0 {
		t.Errorf("%d experiment databases left (%v)", n, err)
	}
}

// TestQuickstartPostgresDSN runs the quickstart on a server given by a
// keyword/value DSN, the password quoted: the databases are created and
// reached through it (the servers get it in $GQLBENCH_DB), and the run
// files' command line shows it without the password.
func TestQuickstartPostgresDSN(t *testing.T) {
	u, err := url.Parse(pgtest.Cluster(t).URL(""))
	if err != nil {
		t.Fatal(err)
	}
	secret, _ := u.User.Password()
	pw := strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(secret)
	admin := fmt.Sprintf("host=%s port=%s user=%s password='%s' dbname=postgres sslmode=disable", u.Hostname(), u.Port(), u.User.Username(), pw)
	dir := t.TempDir()
	code, stdout, stderr := gqlbench(context.Background(), "quickstart", "--dir", dir, "--db", admin, "--variants", "naive",
		"--templates", "3", "--duration", "100ms", "--per-template", "2", "--ceiling=false")
	if code != exitcode.OK {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if strings.Contains(stderr+stdout, secret) {
		t.Error("the password reached the output")
	}
	f := runFiles(t, dir)["naive-QT03"]
	if f == nil {
		t.Fatal("no run file naive-QT03")
	}
	checkCorrect(t, "naive-QT03", f)
	if cmd := strings.Join(f.Header.Command, " "); strings.Contains(cmd, secret) || !strings.Contains(cmd, "password=xxxxx") {
		t.Errorf("the run file's command line: %s", cmd)
	}
}
