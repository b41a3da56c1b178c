package pglocal

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/gqlbench/gqlbench/dbloc"
)

// TestLifecycle walks one cluster through its life: start, idempotent start,
// databases, roles, stop, restart, destroy.
func TestLifecycle(t *testing.T) {
	ctx := testCtx(t)
	dir := enterableDir(t)
	var log bytes.Buffer
	c := startCluster(t, Options{Dir: dir, Log: &log})
	checkStarted(t, c, dir, log.String())
	l := &lifecycle{ctx: ctx, c: c, dir: dir}
	t.Run("select 1", l.selectOne)
	t.Run("settings", l.settings)
	t.Run("start again is idempotent", l.startAgain)
	t.Run("open", l.open)
	t.Run("create database twice", l.createDatabaseTwice)
	t.Run("create database through a keyword/value DSN", l.createDatabaseKeywordValue)
	t.Run("roles", l.roles)
	t.Run("stop and start", l.stopAndStart)
	t.Run("destroy", l.destroy)
}

// checkStarted checks what Start returned for dir, the progress log it wrote
// and the state file.
func checkStarted(t *testing.T, c *Cluster, dir, log string) {
	if c.Dir != dir || c.DataDir != filepath.Join(dir, "data") || c.User != "postgres" || c.Port <= 0 || len(c.Password) < 20 {
		t.Fatalf("Start returned %+v", c)
	}
	for _, want := range []string{"initdb", "started on port"} {
		if !strings.Contains(log, want) {
			t.Errorf("progress log lacks %q:\n%s", want, log)
		}
	}
	fi, err := os.Stat(filepath.Join(dir, stateFile))
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("state file mode %v, want 0600", fi.Mode().Perm())
	}
	if !c.Running() {
		t.Fatal("Running() = false after Start")
	}
}

// lifecycle is the cluster the subtests of TestLifecycle walk through its
// life, in order.
type lifecycle struct {
	ctx context.Context
	c   *Cluster
	dir string
}

// clusterSettings are the server settings a started cluster has.
var clusterSettings = []struct{ name, want string }{
	{"listen_addresses", "127.0.0.1"},
	{"shared_buffers", "256MB"},
	{"max_connections", "200"},
	{"max_wal_size", "4GB"},
	{"checkpoint_timeout", "30min"},
	{"fsync", "on"},
	{"server_encoding", "UTF8"},
	{"lc_collate", "C"},
	{"password_encryption", "scram-sha-256"},
}

// wrongPasswords are logins the cluster refuses once role reader exists: a
// wrong password, or none.
var wrongPasswords = []struct{ user, password string }{
	{"reader", "wrong"},
	{"postgres", "wrong"},
	{"reader", ""},
}

// selectOne runs a query on the new cluster.
func (l *lifecycle) selectOne(t *testing.T) {
	var one int
	if err := connectT(t, l.c.URL("")).QueryRow(l.ctx, "select 1").Scan(&one); err != nil || one != 1 {
		t.Fatalf("select 1 = %d, %v", one, err)
	}
}

// settings checks the clusterSettings.
func (l *lifecycle) settings(t *testing.T) {
	for _, tc := range clusterSettings {
		if got := queryString(t, l.c.URL(""), "SHOW "+tc.name); got != tc.want {
			t.Errorf("%s = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// startAgain starts the running cluster again: the same cluster, and an
// error for another port.
func (l *lifecycle) startAgain(t *testing.T) {
	ctx, c, dir := l.ctx, l.c, l.dir
	var log bytes.Buffer
	again, err := Start(ctx, Options{Dir: dir, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	if *again != *c {
		t.Errorf("second Start = %+v, want %+v", again, c)
	}
	if !strings.Contains(log.String(), "already running") {
		t.Errorf("progress log: %q", log.String())
	}
	if _, err := Start(ctx, Options{Dir: dir, Port: c.Port + 1}); err == nil || !strings.Contains(err.Error(), "already runs on port") {
		t.Errorf("Start on another port while running: %v", err)
	}
}

// open opens the running cluster from its directory.
func (l *lifecycle) open(t *testing.T) {
	opened, err := Open(l.dir)
	if err != nil {
		t.Fatal(err)
	}
	if *opened != *l.c {
		t.Errorf("Open = %+v, want %+v", opened, l.c)
	}
}

// createDatabaseTwice creates a database, then creates it again, empty.
func (l *lifecycle) createDatabaseTwice(t *testing.T) {
	ctx, c := l.ctx, l.c
	u, err := c.CreateDatabase(ctx, "bench db")
	if err != nil {
		t.Fatal(err)
	}
	if u != c.URL("bench db") {
		t.Errorf("URL %s, want %s", u, c.URL("bench db"))
	}
	conn := connectT(t, u)
	if _, err := conn.Exec(ctx, "CREATE TABLE leftover(x int)"); err != nil {
		t.Fatal(err)
	}
	// The open connection must not stop the database from being recreated.
	u2, err := c.CreateDatabase(ctx, "bench db")
	if err != nil {
		t.Fatal(err)
	}
	if got := queryString(t, u2, "SELECT current_database() || ':' || count(*) FROM pg_tables WHERE schemaname = 'public'"); got != "bench db:0" {
		t.Errorf("recreated database: %s, want it empty", got)
	}
}

// createDatabaseKeywordValue creates and drops a database through a
// keyword/value DSN of the superuser.
func (l *lifecycle) createDatabaseKeywordValue(t *testing.T) {
	ctx, c := l.ctx, l.c
	pw := strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(c.Password)
	admin := fmt.Sprintf("host=127.0.0.1 port=%d user=%s password='%s' dbname=postgres sslmode=disable", c.Port, c.user(), pw)
	u, err := CreateDatabaseAt(ctx, admin, "kv db")
	if err != nil {
		t.Fatal(err)
	}
	if got := queryString(t, u, "SELECT current_database()"); got != "kv db" {
		t.Errorf("connected to %s, want kv db", got)
	}
	if err := DropDatabaseAt(ctx, admin, "kv db"); err != nil {
		t.Error(err)
	}
}

// roles creates a plain role, alters it into a superuser and refuses to
// change the cluster's superuser.
func (l *lifecycle) roles(t *testing.T) {
	ctx, c := l.ctx, l.c
	const password = `it's a \secret`
	u, err := c.CreateRole(ctx, "reader", password, false)
	if err != nil {
		t.Fatal(err)
	}
	if u != c.urlFor("reader", password, "postgres") {
		t.Errorf("role URL %s", dbloc.Redact(u))
	}
	conn := connectT(t, u)
	if got := queryString(t, u, "SELECT current_user"); got != "reader" {
		t.Errorf("current_user = %s", got)
	}
	_, err = conn.Exec(ctx, "CREATE TABLE t(x int)")
	if sqlState(err) != "42501" {
		t.Errorf("CREATE TABLE as a plain role: %v, want SQLSTATE 42501", err)
	}

	for _, tc := range wrongPasswords {
		_, err := pgx.Connect(ctx, c.urlFor(tc.user, tc.password, "postgres"))
		if sqlState(err) != "28P01" {
			t.Errorf("connecting as %s with password %q: %v, want SQLSTATE 28P01", tc.user, tc.password, err)
		}
	}

	// Again, now a superuser: the role is altered.
	u, err = c.CreateRole(ctx, "reader", "other", true)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := connectT(t, u).Exec(ctx, "CREATE TABLE t(x int)"); err != nil {
		t.Errorf("CREATE TABLE as a superuser: %v", err)
	}

	if _, err := c.CreateRole(ctx, "postgres", "x", true); err == nil {
		t.Error("CreateRole may change the cluster's superuser")
	}
	u, err = c.CreateRole(ctx, "random", "", false)
	if err != nil {
		t.Fatal(err)
	}
	connectT(t, u)
}

// stopAndStart stops the cluster, twice, and starts it again on the same
// port with its databases.
func (l *lifecycle) stopAndStart(t *testing.T) {
	ctx, c := l.ctx, l.c
	if err := c.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	if c.Running() {
		t.Fatal("Running() = true after Stop")
	}
	if err := c.Stop(ctx); err != nil {
		t.Fatalf("Stop when stopped: %v", err)
	}
	if _, err := pgx.Connect(ctx, c.URL("")); err == nil {
		t.Fatal("connected to a stopped server")
	}
	_, err := c.CreateDatabase(ctx, "late")
	if err == nil || !strings.Contains(err.Error(), "`gqlbench pg start`") || strings.Contains(err.Error(), c.Password) {
		t.Errorf("CreateDatabase on a stopped server: %v", err)
	}
	again, err := Start(ctx, Options{Dir: l.dir})
	if err != nil {
		t.Fatal(err)
	}
	if *again != *c {
		t.Errorf("Start after Stop = %+v, want %+v (the same port)", again, c)
	}
	if got := queryString(t, again.URL("bench db"), "SELECT current_database()"); got != "bench db" {
		t.Errorf("current_database() = %s", got)
	}
}

// destroy removes the cluster and its directories, twice.
func (l *lifecycle) destroy(t *testing.T) {
	ctx, c := l.ctx, l.c
	if err := c.Destroy(ctx); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{l.dir, c.DataDir} {
		if _, err := os.Stat(path); !os.IsNotExist(err) {
			t.Errorf("%s still exists after Destroy (%v)", path, err)
		}
	}
	if c.Running() {
		t.Error("Running() = true after Destroy")
	}
	if _, err := Open(l.dir); !errors.Is(err, ErrNoCluster) {
		t.Errorf("Open after Destroy: %v", err)
	}
	if err := c.Destroy(ctx); err != nil {
		t.Errorf("Destroy twice: %v", err)
	}
}

// TestStartConcurrent starts one cluster from several goroutines at once, in
// a t.TempDir, which the postgres user cannot enter when the tests run as
// root: the data directory must then move under os.TempDir.
func TestStartConcurrent(t *testing.T) {
	ctx := testCtx(t)
	dir := filepath.Join(t.TempDir(), "state")
	clusters := make([]*Cluster, 3)
	errs := make([]error, len(clusters))
	var wg sync.WaitGroup
	for i := range clusters {
		wg.Go(func() { clusters[i], errs[i] = Start(ctx, Options{Dir: dir}) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("Start %d: %v", i, err)
		}
	}
	c := clusters[0]
	t.Cleanup(func() { c.Destroy(context.Background()) })
	for _, other := range clusters[1:] {
		if *other != *c {
			t.Errorf("concurrent Starts returned %+v and %+v", c, other)
		}
	}
	wantData := filepath.Join(dir, "data")
	if os.Geteuid() == 0 {
		wantData = filepath.Join(os.TempDir(), relocatedPrefix+shortHash(dir), "data")
	}
	if c.DataDir != wantData {
		t.Errorf("DataDir = %s, want %s", c.DataDir, wantData)
	}
	if got := queryString(t, c.URL(""), "SELECT 'ok'"); got != "ok" {
		t.Errorf("select: %s", got)
	}
	if err := c.Destroy(ctx); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{dir, filepath.Dir(c.DataDir)} {
		if _, err := os.Stat(path); !os.IsNotExist(err) {
			t.Errorf("%s still exists after Destroy (%v)", path, err)
		}
	}
}

// TestStartPortTaken asks for a port in use: the error must show the log.
func TestStartPortTaken(t *testing.T) {
	port, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	l, err := netListen(port)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	dir := enterableDir(t)
	_, err = Start(testCtx(t), Options{Dir: dir, Port: port})
	t.Cleanup(func() {
		if c, err := Open(dir); err == nil {
			c.Destroy(context.Background())
		}
	})
	if err == nil {
		t.Fatal("Start on a taken port succeeded")
	}
	t.Logf("error, as a user sees it:\n%v", err)
	for _, want := range []string{"pg_ctl start", "postgres.log", "already in use"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q: %v", want, err)
		}
	}
}
