package pglocal

import (
	"context"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/gqlbench/gqlbench/dbloc"
)

// maxIdentifier is the longest identifier PostgreSQL keeps whole, in bytes.
const maxIdentifier = 63

// CreateDatabase creates the empty database name, dropping any database of
// that name first (with its connections), and returns its URL.
func (c *Cluster) CreateDatabase(ctx context.Context, name string) (url string, err error) {
	return createDatabase(ctx, c.URL("postgres"), name, localHint)
}

// CreateDatabaseAt creates the empty database name on the server that
// adminURL (a PostgreSQL location dbloc.Parse reads, of a user allowed to
// create databases) points to, dropping any database of that name first,
// and returns the location of the new database: adminURL with its database
// replaced.
func CreateDatabaseAt(ctx context.Context, adminURL, name string) (string, error) {
	return createDatabase(ctx, adminURL, name, "")
}

// createDatabase is CreateDatabaseAt, with hint added to connection errors.
func createDatabase(ctx context.Context, adminURL, name, hint string) (string, error) {
	if err := checkDatabase(name); err != nil {
		return "", err
	}
	admin, err := dbloc.Parse(adminURL)
	if err != nil {
		return "", err
	}
	target, err := admin.WithDatabase(name)
	if err != nil {
		return "", err
	}
	conn, err := connect(ctx, adminURL, hint)
	if err != nil {
		return "", err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	id := pgx.Identifier{name}.Sanitize()
	if _, err := conn.Exec(ctx, "DROP DATABASE IF EXISTS "+id+" WITH (FORCE)"); err != nil {
		return "", fmt.Errorf("dropping database %s: %w", name, err)
	}
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+id); err != nil {
		return "", fmt.Errorf("creating database %s: %w", name, err)
	}
	return target.ConnString(), nil
}

// DropDatabaseAt drops the database name, if it exists, on the server that
// adminURL points to, ending its connections.
func DropDatabaseAt(ctx context.Context, adminURL, name string) error {
	if err := checkDatabase(name); err != nil {
		return err
	}
	conn, err := connect(ctx, adminURL, "")
	if err != nil {
		return err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if _, err := conn.Exec(ctx, "DROP DATABASE IF EXISTS "+pgx.Identifier{name}.Sanitize()+" WITH (FORCE)"); err != nil {
		return fmt.Errorf("dropping database %s: %w", name, err)
	}
	return nil
}

// CreateRole creates the login role name with password (a random one if
// empty), a superuser or not, or updates it if it exists, and returns a URL
// that connects as that role to the database "postgres".
func (c *Cluster) CreateRole(ctx context.Context, name, password string, superuser bool) (url string, err error) {
	if err := checkIdentifier("role", name); err != nil {
		return "", err
	}
	if name == c.user() {
		return "", fmt.Errorf("refusing to change the cluster's superuser %q", name)
	}
	if password == "" {
		password = randomPassword()
	}
	conn, err := connect(ctx, c.URL("postgres"), localHint)
	if err != nil {
		return "", err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	var exists bool
	if err := conn.QueryRow(ctx, "SELECT EXISTS (SELECT FROM pg_roles WHERE rolname = $1)", name).Scan(&exists); err != nil {
		return "", fmt.Errorf("looking up role %s: %w", name, err)
	}
	verb, doing, attr := "CREATE", "creating", "NOSUPERUSER"
	if exists {
		verb, doing = "ALTER", "altering"
	}
	if superuser {
		attr = "SUPERUSER"
	}
	// Utility statements take no parameters, hence the quoted literal.
	sql := fmt.Sprintf("%s ROLE %s WITH LOGIN %s PASSWORD %s", verb, pgx.Identifier{name}.Sanitize(), attr, quoteLiteral(password))
	if _, err := conn.Exec(ctx, sql); err != nil {
		return "", fmt.Errorf("%s role %s: %w", doing, name, err)
	}
	return c.urlFor(name, password, "postgres"), nil
}

// localHint says what to do when the local cluster refuses connections.
const localHint = " (is it running? `gqlbench pg start`)"

// connect connects to url; hint follows the location in the error, which
// shows it redacted.
func connect(ctx context.Context, url, hint string) (*pgx.Conn, error) {
	loc, err := dbloc.Parse(url)
	if err != nil {
		return nil, err
	}
	conn, err := pgx.Connect(ctx, loc.ConnString())
	if err != nil {
		return nil, fmt.Errorf("connecting to %s%s: %w", loc, hint, err)
	}
	return conn, nil
}

// checkIdentifier fails unless name can be a whole PostgreSQL identifier.
func checkIdentifier(kind, name string) error {
	switch {
	case name == "":
		return fmt.Errorf("empty %s name", kind)
	case len(name) > maxIdentifier:
		return fmt.Errorf("%s name %q is longer than %d bytes", kind, name, maxIdentifier)
	case strings.ContainsRune(name, 0):
		return fmt.Errorf("%s name %q contains a NUL byte", kind, name)
	}
	return nil
}

// checkDatabase fails unless name can be a whole identifier and is not the
// name of a system database.
func checkDatabase(name string) error {
	switch name {
	case "postgres", "template0", "template1":
		return fmt.Errorf("refusing to recreate or drop the system database %q", name)
	}
	return checkIdentifier("database", name)
}

// quoteLiteral quotes s as an SQL string literal, whatever the setting of
// standard_conforming_strings.
func quoteLiteral(s string) string {
	q := "'" + strings.ReplaceAll(s, "'", "''") + "'"
	if strings.Contains(s, `\`) {
		q = "E" + strings.ReplaceAll(q, `\`, `\\`)
	}
	return q
}
