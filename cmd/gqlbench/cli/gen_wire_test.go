package cli

import (
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gqlbench/gqlbench/exitcode"
	"github.com/gqlbench/gqlbench/internal/pglocal/pgtest"
	"github.com/gqlbench/gqlbench/store"
)

// TestGenTargetDBAnswers: with every --target-db preset, the dataset loads
// into PostgreSQL and a server over it gives the oracle's answer to every
// template.
func TestGenTargetDBAnswers(t *testing.T) {
	for _, name := range store.Engines() {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			url := pgtest.URL(t)
			if code, _, stderr := run("gen", "--sf", "1", "--db", url, "--target-db", name, "--quiet"); code != exitcode.OK {
				t.Fatalf("gen: exit %d: %s", code, stderr)
			}
			q := filepath.Join(dir, "q.jsonl")
			if code, _, stderr := run("queries", "--db", url, "--per-template", "2", "--expect", "-o", q); code != exitcode.OK {
				t.Fatalf("queries: exit %d: %s", code, stderr)
			}
			l, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			addr := l.Addr().String()
			l.Close()
			srv, _ := startChild(t, "serve", "batch", "--db", url, "--addr", addr)
			defer func() { srv.Process.Signal(syscall.SIGTERM); srv.Wait() }()
			for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
				if r, err := http.Get("http://" + addr + "/healthz"); err == nil {
					r.Body.Close()
					break
				}
				if time.Now().After(deadline) {
					t.Fatal("the server did not come up")
				}
			}
			out := filepath.Join(dir, "run.jsonl")
			if code, _, stderr := run("load", "--target", "http://"+addr+"/graphql", "--queries", q, "--mode", "sequential", "--passes", "1",
				"--warmup-passes", "0", "--quiet", "-o", out); code != exitcode.OK {
				t.Fatalf("load: exit %d: %s", code, stderr)
			}
			s := readRun(t, out).Summary
			if s.Total.Wrong != 0 || s.Total.Verified < 30 {
				t.Errorf("%d answers verified, %d wrong", s.Total.Verified, s.Total.Wrong)
			}
		})
	}
	// The wire flags are for a PostgreSQL-wire database.
	if code, _, stderr := run("gen", "--sf", "1", "--db", "sqlite:"+filepath.Join(t.TempDir(), "x.db"), "--target-db", "cockroach"); code != exitcode.Usage || !strings.Contains(stderr, "postgres://") {
		t.Errorf("--target-db with SQLite: exit %d: %s", code, stderr)
	}
}
