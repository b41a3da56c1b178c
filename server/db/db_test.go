package db

import (
	"testing"
	"time"
)

// TestPoolConfig: the pool holds the connections asked for and never closes
// one for its age or idleness, so no measured run pays for new backends.
func TestPoolConfig(t *testing.T) {
	cfg, err := poolConfig("postgres://u:p@127.0.0.1:5432/db?sslmode=disable", 7)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.MaxConns != 7 || cfg.MaxConnLifetime != 0 || cfg.MaxConnIdleTime < 100*365*24*time.Hour {
		t.Errorf("max %d connections, lifetime %v, idle time %v", cfg.MaxConns, cfg.MaxConnLifetime, cfg.MaxConnIdleTime)
	}
	if _, err := poolConfig("postgres://u:p@127.0.0.1:notaport/db", 1); err == nil {
		t.Error("a malformed URL is accepted")
	}
}
