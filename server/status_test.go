package server

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"net"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	_ "github.com/jackc/pgx/v5/stdlib"
)

// refusedURL is a PostgreSQL nobody listens on: port 1 refuses at once.
const refusedURL = "postgres://u:p@127.0.0.1:1/db?connect_timeout=5"

func TestStatusFor(t *testing.T) {
	ctx := context.Background()
	_, dialErr := net.Dial("tcp", "127.0.0.1:1")
	_, pgErr := pgconn.Connect(ctx, refusedURL)
	db, err := sql.Open("pgx", refusedURL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	sqlErr := db.PingContext(ctx)
	expired, cancel := context.WithDeadline(ctx, time.Unix(0, 0))
	defer cancel()
	_, pgTimeout := pgconn.Connect(expired, refusedURL)
	_, dialTimeout := (&net.Dialer{Timeout: time.Nanosecond}).Dial("tcp", "127.0.0.1:1")

	for _, c := range []struct {
		name string
		err  error
		want int
	}{
		{"nil", nil, 200},                                             // no error
		{"refused dial", dialErr, 503},                                // a real refused TCP connection
		{"pgconn connect", pgErr, 503},                                // pgconn.ConnectError around it
		{"database/sql ping", sqlErr, 503},                            // through database/sql and the pgx driver
		{"wrapped", fmt.Errorf("resolve x: %w", dialErr), 503},        // wrapping is seen through
		{"bad conn", driver.ErrBadConn, 503},                          // a connection the driver gave up
		{"conn done", sql.ErrConnDone, 503},                           // a closed connection
		{"admin shutdown", &pgconn.PgError{Code: "57P01"}, 503},       // PostgreSQL shutting down
		{"too many connections", &pgconn.PgError{Code: "53300"}, 503}, // PostgreSQL full
		{"connection exception", &pgconn.PgError{Code: "08006"}, 503}, // class 08
		{"syntax error", &pgconn.PgError{Code: "42601"}, 500},         // a bug, not an outage
		{"deadline", context.DeadlineExceeded, 504},                   // the request's timeout
		{"wrapped deadline", fmt.Errorf("query: %w", context.DeadlineExceeded), 504},
		{"pgconn deadline", pgTimeout, 504},            // a connect cut short by the deadline
		{"dial timeout", dialTimeout, 504},             // a network timeout
		{"plain", errors.New("scan: wrong type"), 500}, // anything else
		{"cancelled", context.Canceled, 500},           // the client went away: nothing better
	} {
		if c.err == nil && c.name != "nil" {
			t.Fatalf("%s: no error to classify", c.name)
		}
		if got := StatusFor(c.err); got != c.want {
			t.Errorf("%s: StatusFor(%v) = %d, want %d", c.name, c.err, got, c.want)
		}
	}
}
