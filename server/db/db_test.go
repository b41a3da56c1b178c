package db

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gqlbench/gqlbench/dbloc"
)

// TestPoolConfig: the pool holds the connections asked for and never closes
// one for its age or idleness, so no measured run pays for new backends.
func TestPoolConfig(t *testing.T) {
	loc, err := dbloc.Parse("postgres://u:p@127.0.0.1:5432/db?sslmode=disable")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := poolConfig(loc, 7)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.MaxConns != 7 || cfg.MaxConnLifetime != 0 || cfg.MaxConnIdleTime < 100*365*24*time.Hour {
		t.Errorf("max %d connections, lifetime %v, idle time %v", cfg.MaxConns, cfg.MaxConnLifetime, cfg.MaxConnIdleTime)
	}
	// dbloc reads pool_max_conns as any parameter; pgxpool refuses this one.
	bad, err := dbloc.Parse("postgres://u:s3cr3t-XYZ@127.0.0.1:5432/db?pool_max_conns=many")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := poolConfig(bad, 1); err == nil || strings.Contains(err.Error(), "s3cr3t") || !strings.Contains(err.Error(), "pool_max_conns") {
		t.Errorf("a setting pgxpool refuses: %v", err)
	}
}

// TestOpenMalformed: a location that cannot be read is refused before any
// connection, with a message that shows it redacted.
func TestOpenMalformed(t *testing.T) {
	for _, url := range []string{
		"postgres://u:s3cr3t-XYZ@127.0.0.1:notaport/db",
		"postgres://u:s3cr3t XYZ@127.0.0.1:5432/db",
		"host=127.0.0.1 password=s3cr3t XYZ",
		"mysql://u:s3cr3t-XYZ@127.0.0.1/db",
	} {
		_, err := Open(context.Background(), url, 1)
		if err == nil || strings.Contains(err.Error(), "s3cr3t") || !strings.Contains(err.Error(), "xxxxx") {
			t.Errorf("Open(%q): %v", strings.ReplaceAll(url, "s3cr3t", "..."), err)
		}
	}
}
