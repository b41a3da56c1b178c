package server

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"net"
	"net/http"
	"strings"
	"syscall"

	"github.com/jackc/pgx/v5/pgconn"
)

// StatusFor is the HTTP status for a request that failed with err, for a
// variant to put in Response.Status when a resolver's error comes from the
// database:
//
//	504  the request's deadline passed (context.DeadlineExceeded), or a
//	     network timeout (connecting or waiting for the database)
//	503  the database is unreachable: a failed connection attempt
//	     (*pgconn.ConnectError, dial, DNS, refused, reset, closed or bad
//	     connections) or PostgreSQL refusing service (SQLSTATE class 08
//	     connection exception, 53300 too many connections, 57P01-57P03
//	     shutting down or starting up)
//	500  anything else (a bug, a failing statement)
//
// and 200 for a nil err.
func StatusFor(err error) int {
	var ne net.Error
	switch {
	case err == nil:
		return http.StatusOK
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		return http.StatusGatewayTimeout
	case unreachable(err):
		return http.StatusServiceUnavailable
	}
	return http.StatusInternalServerError
}

// unreachable says whether err means the database cannot be reached or
// refuses service.
func unreachable(err error) bool {
	var (
		ce  *pgconn.ConnectError
		op  *net.OpError
		dns *net.DNSError
		pg  *pgconn.PgError
	)
	switch {
	case errors.As(err, &ce), errors.As(err, &op), errors.As(err, &dns),
		errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.ECONNRESET),
		errors.Is(err, syscall.EPIPE), errors.Is(err, net.ErrClosed),
		errors.Is(err, driver.ErrBadConn), errors.Is(err, sql.ErrConnDone):
		return true
	case errors.As(err, &pg):
		switch pg.Code {
		case "53300", "57P01", "57P02", "57P03":
			return true
		}
		return strings.HasPrefix(pg.Code, "08")
	}
	return false
}
