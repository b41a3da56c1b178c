package benchdb

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"syscall"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/gqlbench/gqlbench/dbloc"
)

// ConnectPostgres opens one connection to the PostgreSQL location rawURL (see
// dbloc.Parse) and turns the usual failures into messages that say what to
// do. No message shows the password.
func ConnectPostgres(ctx context.Context, rawURL string) (*pgx.Conn, error) {
	loc, err := dbloc.Parse(rawURL)
	if err != nil {
		return nil, err
	}
	if loc.Kind() != dbloc.Postgres {
		return nil, fmt.Errorf("%s is not a PostgreSQL location", loc)
	}
	cfg, err := pgx.ParseConfig(loc.ConnString())
	if err != nil {
		// pgx's message quotes the location, redacted by pgx; Scrub makes sure.
		return nil, fmt.Errorf("malformed PostgreSQL location: %s (want postgres://USER:PASSWORD@HOST:PORT/DATABASE)", loc.Scrub(err.Error()))
	}
	if cfg.ConnectTimeout == 0 {
		cfg.ConnectTimeout = 10e9
	}
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return nil, ExplainPostgres(err, cfg.Host, cfg.Port, cfg.User, cfg.Database)
	}
	return conn, nil
}

// ExplainPostgres maps PostgreSQL's connection and permission errors to
// messages that say what to do (the loader's statements' errors too).
func ExplainPostgres(err error, host string, port uint16, user, database string) error {
	where := fmt.Sprintf("%s:%d", host, port)
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		switch pgErr.Code {
		case "28P01", "28000":
			return fmt.Errorf("PostgreSQL at %s refused user %q: authentication failed (check the user and password in the URL): %w", where, user, err)
		case "3D000":
			return fmt.Errorf("PostgreSQL at %s has no database %q (create it with `createdb %s`, or use an existing one): %w", where, database, database, err)
		case "42501":
			return fmt.Errorf("permission denied for user %q in database %q: it needs to create and drop tables (PostgreSQL 15+ grants no CREATE on schema public to ordinary roles: `GRANT CREATE ON SCHEMA public TO %s`, or use a database the user owns): %w", user, database, user, err)
		case "53300":
			return fmt.Errorf("PostgreSQL at %s has no free connection slots (raise max_connections or close other clients): %w", where, err)
		}
		return err
	}
	if errors.Is(err, syscall.ECONNREFUSED) {
		return fmt.Errorf("cannot connect to PostgreSQL at %s: connection refused (is the server running? `gqlbench pg start` runs a local one): %w", where, err)
	}
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		return fmt.Errorf("cannot connect to PostgreSQL: unknown host %q: %w", host, err)
	}
	if errors.Is(err, context.DeadlineExceeded) || strings.Contains(err.Error(), "timeout") {
		return fmt.Errorf("cannot connect to PostgreSQL at %s: timed out: %w", where, err)
	}
	return fmt.Errorf("cannot connect to PostgreSQL at %s: %w", where, err)
}
