// Package dbloc names where a benchmark database is — an SQLite file or a
// PostgreSQL server — and keeps the password of a PostgreSQL location out of
// everything that is printed.
//
// Parse reads the three forms gqlbench takes, the PostgreSQL ones as pgx
// (and libpq) read them:
//
//	sqlite:PATH                                     (or sqlite://PATH)
//	postgres://USER:PASSWORD@HOST:PORT/DB?KEY=VALUE (or postgresql://)
//	host=HOST port=PORT user=USER password='PASS WORD' dbname=DB
//
// A Location prints redacted in every fmt verb (%v, %+v, %#v, %s, %q ...):
// only ConnString, the text for the driver, holds the secret. Redact hides
// the secret of any string, one that does not parse included, and Parse's
// errors quote only that redacted text.
//
// The secrets are the password of a URL's user part and the value of every
// URL query parameter or keyword named as a secret (password, sslpassword,
// token, access_token, api_key, secret, key, sig, ...); each is replaced by
// xxxxx. So is any other part whose text holds "password", as a password
// written in the wrong place may.
//
// Redact is also the one redaction of the URLs of HTTP endpoints (a
// GraphQL --target, --reference, a schema's URL): the same secrets, and a
// user part without a password (a token written as https://TOKEN@host)
// whole. Secrets lists what Redact hides, for scrubbing a message that
// quotes a secret in another form.
//
// The package imports only the standard library, so that every package that
// prints a database location can use it.
package dbloc

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Kind is the sort of database a Location names, and the SQL dialect
// gqlbench writes for it: gqlbench's one name for a database kind (the
// loader's DDL and dumps, the servers' SQL).
type Kind uint8

const (
	// SQLite is a database file, opened through the SQLite library.
	SQLite Kind = iota + 1
	// Postgres is a PostgreSQL server, reached through pgx.
	Postgres
	// MySQL is a database gqlbench writes SQL dumps for (gqlbench gen
	// --format mysql) but never opens: no Location is of this kind.
	MySQL
)

// kindNames are the databases' names, by Kind.
var kindNames = [...]string{SQLite: "SQLite", Postgres: "PostgreSQL", MySQL: "MySQL"}

// String is the database's name: "SQLite", "PostgreSQL" or "MySQL".
func (k Kind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// ErrUnsupported is wrapped by Parse's error for a string that is none of
// the forms it reads (as opposed to one of them, malformed).
var ErrUnsupported = errors.New("unsupported database")

// want lists the forms Parse reads, for its errors.
const want = "want postgres://USER:PASS@HOST:PORT/DB, a keyword/value DSN, or sqlite:PATH"

// mask replaces every secret.
const mask = "xxxxx"

// Location is where a database is: a parsed sqlite: path, PostgreSQL URL or
// keyword/value DSN. Its zero value names nothing. Every fmt verb prints its
// redacted form; ConnString is the only way to the secret.
type Location struct {
	kind     Kind
	conn     string // as given: the driver's connection string
	path     string // SQLite: the file
	redacted string // conn with every secret masked
	secrets  string // the secrets as written and as decoded, longest first, NUL-separated (Parse refuses a NUL)
}

// Parse reads s: sqlite:PATH (or sqlite://PATH), a postgres:// or
// postgresql:// URL, or a PostgreSQL keyword/value DSN. Its errors say what
// is wrong and quote s redacted, never its secret.
func Parse(s string) (Location, error) {
	switch {
	case strings.HasPrefix(s, "sqlite:"):
		path := strings.TrimPrefix(strings.TrimPrefix(s, "sqlite:"), "//")
		if path == "" {
			return Location{}, errors.New("sqlite: needs a path, e.g. sqlite:gqlbench.db")
		}
		return Location{kind: SQLite, conn: s, path: path, redacted: s}, nil
	case isURL(s):
		p, err := parseURL(s)
		if err != nil {
			return Location{}, err
		}
		return p.location(), nil
	case isKeyValue(s):
		p, err := parseKeyValue(s)
		if err != nil {
			return Location{}, err
		}
		return p.location(), nil
	}
	return Location{}, fmt.Errorf("%w %q: %s", ErrUnsupported, redactLoose(s), want)
}

// Kind is the sort of database; 0 for the zero Location.
func (l Location) Kind() Kind { return l.kind }

// SQLitePath is the file of an SQLite location, "" for any other.
func (l Location) SQLitePath() string { return l.path }

// ConnString is the location as given, secret included: for the driver
// (pgx.ParseConfig, pgx.Connect, pgxpool) and for a child process's
// environment, never for output.
func (l Location) ConnString() string { return l.conn }

// Redacted is the location as given with every secret replaced by xxxxx.
func (l Location) Redacted() string { return l.redacted }

// String is Redacted, so that printing a Location shows no secret.
func (l Location) String() string { return l.redacted }

// Format prints the redacted form in every verb, %#v and %d included
// (fmt would otherwise print the fields, secret and all).
func (l Location) Format(f fmt.State, verb rune) {
	fmt.Fprintf(f, fmt.FormatString(f, verb), l.redacted)
}

// Scrub returns text with every secret of l, as written and as decoded,
// replaced by xxxxx: for a driver's message, which may quote what it was
// given. A very short secret makes the result hard to read, never unsafe.
func (l Location) Scrub(text string) string {
	if l.secrets == "" {
		return text
	}
	for _, s := range strings.Split(l.secrets, "\x00") {
		text = strings.ReplaceAll(text, s, mask)
	}
	return text
}

// WithDatabase returns the location of database name on the same
// PostgreSQL server, as the same user with the same parameters.
func (l Location) WithDatabase(name string) (Location, error) {
	if l.kind != Postgres {
		return Location{}, fmt.Errorf("%s is not a PostgreSQL location", l.redacted)
	}
	if name == "" || strings.IndexByte(name, 0) >= 0 {
		return Location{}, fmt.Errorf("database name %q: want a non-empty name without NUL bytes", name)
	}
	var s string
	if isURL(l.conn) {
		p, err := parseURL(l.conn)
		if err != nil {
			return Location{}, err
		}
		at := p.db[0]
		s = l.conn[:at[0]] + "/" + escapeURL(name) + l.conn[at[1]:]
	} else {
		p, err := parseKeyValue(l.conn)
		if err != nil {
			return Location{}, err
		}
		s = strings.TrimSpace(strings.TrimSpace(cut(l.conn, p.db)) + " dbname=" + quoteValue(name))
	}
	return Parse(s)
}

// parsed is a PostgreSQL connection string cut into its parts.
type parsed struct {
	s       string
	hide    [][2]int // the spans redaction masks: secrets, parts that hold "password"
	secrets []string // every secret, as written and as decoded
	db      [][2]int // URL: the span of "/DB" (empty where it would go); DSN: of each dbname pair
}

// secret records the secret written at span, decoded as value.
func (p *parsed) secret(span [2]int, value string) {
	if span[0] == span[1] {
		return
	}
	p.hide = append(p.hide, span)
	if value != "" {
		p.secrets = append(p.secrets, p.s[span[0]:span[1]], value)
	}
}

// part records a part that is no secret, unless its text holds "password".
func (p *parsed) part(span [2]int) {
	if a, _ := findPassword(p.s[span[0]:span[1]]); a >= 0 {
		p.hide = append(p.hide, span)
	}
}

// location is the parsed PostgreSQL Location.
func (p parsed) location() Location {
	secrets := slices.Clone(p.secrets)
	slices.SortFunc(secrets, func(a, b string) int { // longest first: a secret may hold another
		if d := len(b) - len(a); d != 0 {
			return d
		}
		return strings.Compare(a, b)
	})
	secrets = slices.Compact(secrets)
	return Location{kind: Postgres, conn: p.s, redacted: maskSpans(p.s, p.hide), secrets: strings.Join(secrets, "\x00")}
}

// cut returns s without the spans (in order, not overlapping).
func cut(s string, spans [][2]int) string {
	var b strings.Builder
	last := 0
	for _, sp := range spans {
		b.WriteString(s[last:sp[0]])
		last = sp[1]
	}
	b.WriteString(s[last:])
	return b.String()
}
