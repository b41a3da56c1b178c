package dbloc_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/gqlbench/gqlbench/dbloc"
)

// secret is the password in the tests; its pieces are long enough that
// none can be part of the rest of any input.
const secret = "s3cr3t-XYZ"

// leak returns the piece of pw (the whole, or a part between the
// characters a malformed password is cut at) that out shows, or "".
func leak(out, pw string) string {
	if strings.Contains(out, pw) {
		return pw
	}
	for _, piece := range strings.FieldsFunc(pw, func(r rune) bool { return strings.ContainsRune(" @/%:&='\\", r) }) {
		if len(piece) >= 4 && strings.Contains(out, piece) {
			return piece
		}
	}
	return ""
}

// redactCases have the password pw in every place and form a location may
// hold one, well-formed or not, and what Redact makes of them.
var redactCases = []struct {
	name, in, pw, want string
}{
	// URLs that parse: exactly the secret is masked.
	{"URL", "postgres://bob:" + secret + "@127.0.0.1:5432/db?sslmode=disable", secret, "postgres://bob:xxxxx@127.0.0.1:5432/db?sslmode=disable"},
	{"postgresql scheme", "postgresql://bob:" + secret + "@h/db", secret, "postgresql://bob:xxxxx@h/db"},
	{"empty user", "postgres://:" + secret + "@h/db", secret, "postgres://:xxxxx@h/db"},
	{"percent-encoded password", "postgres://bob:s3cr3t%20XYZ9%40%25@h/db", "s3cr3t%20XYZ9%40%25", "postgres://bob:xxxxx@h/db"},
	{"several hosts", "postgres://bob:" + secret + "@h1:5432,h2:5433/db", secret, "postgres://bob:xxxxx@h1:5432,h2:5433/db"},
	{"IPv6 host", "postgres://bob:" + secret + "@[::1]:5432/db", secret, "postgres://bob:xxxxx@[::1]:5432/db"},
	{"password parameter", "postgres://bob@h/db?sslmode=disable&password=" + secret + "&application_name=x", secret, "postgres://bob@h/db?sslmode=disable&password=xxxxx&application_name=x"},
	{"sslpassword parameter", "postgres://bob@h/db?sslpassword=" + secret, secret, "postgres://bob@h/db?sslpassword=xxxxx"},
	{"encoded parameter name", "postgres://bob@h/db?pass%77ord=" + secret, secret, "postgres://bob@h/db?pass%77ord=xxxxx"},
	{"upper-case parameter name", "postgres://bob@h/db?PASSWORD=" + secret, secret, "postgres://bob@h/db?PASSWORD=xxxxx"},
	{"password as the database", "postgres://h/password=" + secret, secret, "postgres://h/xxxxx"},
	{"password in another parameter", "postgres://h/db?options=-c%20password%3D" + secret, secret, "postgres://h/db?options=xxxxx"},
	// URLs that do not: the user part's password, whatever ends it.
	{"port not a number", "postgres://bob:" + secret + "@host:port/db", secret, "postgres://bob:xxxxx@host:port/db"},
	{"space in the password", "postgres://bob:s3cr3t XYZ9@host/db", "s3cr3t XYZ9", "postgres://bob:xxxxx@host/db"},
	{"bare % in the password", "postgres://bob:s3cr3t%XYZ9@host/db", "s3cr3t%XYZ9", "postgres://bob:xxxxx@host/db"},
	{"@ in the password", "postgres://bob:s3cr3t@XYZ9@host/db", "s3cr3t@XYZ9", "postgres://bob:xxxxx@host/db"},
	{"/ in the password", "postgres://bob:s3cr3t/XYZ9@host/db", "s3cr3t/XYZ9", "postgres://bob:xxxxx@host/db"},
	{"@ and : in the password", "postgres://bob:s3cr3t:@XYZ9@host/db?x=1", "s3cr3t:@XYZ9", "postgres://bob:xxxxx@host/db?x=1"},
	{"no host", "postgres://bob:" + secret, secret, "postgres://bob:xxxxx"},
	{"no host, a database", "postgres://bob:" + secret + "/db", secret, "postgres://bob:xxxxx/db"},
	{"& in a password parameter", "postgres://bob@h/db?password=s3cr3t&XYZ9", "s3cr3t&XYZ9", "postgres://bob@h/db?password=xxxxx"},
	{"@ in a password parameter", "postgres://h/db?password=s3cr3t@XYZ9", "s3cr3t@XYZ9", "postgres://h/db?password=xxxxx"},
	{"unsupported scheme", "mysql://bob:" + secret + "@h/db", secret, "mysql://bob:xxxxx@h/db"},
	{"no scheme", "bob:" + secret + "@host:5432/db", secret, "bob:xxxxx@host:5432/db"},
	{"no scheme name", "//bob:" + secret + "@host/db", secret, "//bob:xxxxx@host/db"},
	{"scheme without //", "postgres:/bob:" + secret + "@host/db", secret, "postgres:xxxxx@host/db"},
	{"a flag and its value", "--db=postgres://bob:" + secret + "@h/db", secret, "--db=postgres://bob:xxxxx@h/db"},
	{"user and password alone", "bob:" + secret, secret, "bob:xxxxx"},
	// Keyword/value DSNs.
	{"DSN, quoted", "host=127.0.0.1 port=5432 user=bob password='s3cr3t XYZ9' dbname=x", "s3cr3t XYZ9", "host=127.0.0.1 port=5432 user=bob password=xxxxx dbname=x"},
	{"DSN, unquoted", "host=h password=" + secret + " dbname=x", secret, "host=h password=xxxxx dbname=x"},
	{"DSN, escaped quote", `host=h password='s3cr3t\'XYZ9' dbname=x`, `s3cr3t\'XYZ9`, "host=h password=xxxxx dbname=x"},
	{"DSN, spaces around =", "host=h password = " + secret, secret, "host=h password = xxxxx"},
	{"DSN, sslpassword", "host=h sslpassword=" + secret, secret, "host=h sslpassword=xxxxx"},
	{"DSN, unquoted space", "host=h password=s3cr3t XYZ9 dbname=x", "s3cr3t XYZ9", "host=h password=xxxxx"},
	{"DSN, unterminated quote", "host=h password='" + secret + " dbname=x", secret, "host=h password=xxxxx"},
	{"DSN behind a flag", "--db=host=h password=" + secret, secret, "--db=host=h password=xxxxx"},
	// The URLs of HTTP endpoints (--target, --reference, --schema).
	{"HTTP user and password", "http://bob:" + secret + "@127.0.0.1:4000/graphql", secret, "http://bob:xxxxx@127.0.0.1:4000/graphql"},
	{"HTTP token parameter", "https://api.example.com/graphql?token=" + secret, secret, "https://api.example.com/graphql?token=xxxxx"},
	{"HTTP api_key among others", "https://h/graphql?x=1&api_key=" + secret + "&y=2", secret, "https://h/graphql?x=1&api_key=xxxxx&y=2"},
	{"HTTP access_token in the fragment", "https://h/cb#access_token=" + secret + "&state=1", secret, "https://h/cb#access_token=xxxxx&state=1"},
	{"HTTP password parameter", "http://h/graphql?password=" + secret, secret, "http://h/graphql?password=xxxxx"},
	{"HTTP client_secret, encoded name", "http://h/g?client%5Fsecret=" + secret, secret, "http://h/g?client%5Fsecret=xxxxx"},
	{"HTTP token as the user part", "https://" + secret + "@github.com/x", secret, "https://xxxxx@github.com/x"},
	{"HTTP token behind a flag", "--target=http://h/g?X-Amz-Signature=" + secret, secret, "--target=http://h/g?X-Amz-Signature=xxxxx"},
	{"token in a PostgreSQL URL", "postgres://bob@h/db?token=" + secret, secret, "postgres://bob@h/db?token=xxxxx"},
}

// TestRedact: the password never shows, wherever it is and whether or not
// the location parses; the rest does, so that a message still says what is
// wrong.
func TestRedact(t *testing.T) {
	for _, c := range redactCases {
		t.Run(c.name, func(t *testing.T) {
			got := dbloc.Redact(c.in)
			if l := leak(got, c.pw); l != "" {
				t.Fatalf("Redact(%q) = %q shows %q", c.in, got, l)
			}
			if got != c.want {
				t.Errorf("Redact(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

// TestRedactHarmless: text without a place for a secret comes back as it
// is (quickstart passes every argument through Redact).
func TestRedactHarmless(t *testing.T) {
	for _, s := range []string{"", "sqlite", "postgres", "sqlite:x.db", "sqlite:///tmp/a:b@c.db", "--dir", "results/sf1",
		"postgres://h/db", "postgres://bob@127.0.0.1:5432/db?sslmode=disable", "host=h user=bob dbname=x", "naive,memo",
		"http://127.0.0.1:4000/graphql", "https://h/graphql?author=bob&first=10&keyword=x"} {
		if got := dbloc.Redact(s); got != s {
			t.Errorf("Redact(%q) = %q", s, got)
		}
	}
}

// TestParseErrors: a malformed location is refused with a reason and its
// redacted form, never its password.
func TestParseErrors(t *testing.T) {
	for _, c := range []struct{ in, pw, want string }{
		{"postgres://bob:" + secret + "@host:port/db", secret, "malformed PostgreSQL URL postgres://bob:xxxxx@host:port/db: a port is not a number"},
		{"postgres://bob:" + secret + "@host:0/db", secret, "a port is not a number from 1 to 65535"},
		{"postgres://bob:s3cr3t XYZ9@host/db", "s3cr3t XYZ9", "the password is not percent-encoded"},
		{"postgres://bob:s3cr3t%XYZ9@host/db", "s3cr3t%XYZ9", "the password is not percent-encoded: write %25 for '%'"},
		{"postgres://bob:s3cr3t%00XYZ9@host/db", "s3cr3t%00XYZ9", "the password is not percent-encoded"},
		{"postgres://bob:s3cr3t@XYZ9@host/db", "s3cr3t@XYZ9", "an '@' after the user part"},
		{"postgres://bob:s3cr3t/XYZ9@host/db", "s3cr3t/XYZ9", "an '@' after the user part"},
		{"postgres://bob:" + secret, secret, "postgres://bob:xxxxx: a port is not a number"},
		{"postgres://b%zob:" + secret + "@h/db", secret, "the user name is not percent-encoded"},
		{"postgres://bob:" + secret + "@h%/db", secret, "a host name is not percent-encoded"},
		{"postgres://bob:" + secret + "@[::1/db", secret, "an IPv6 address without its closing ']'"},
		{"postgres://bob:" + secret + "@[]/db", secret, "an empty IPv6 address"},
		{"postgres://bob:" + secret + "@[::1]x/db", secret, "an IPv6 address followed by"},
		{"postgres://bob:" + secret + "@h/d b", secret, "the database name is not percent-encoded"},
		{"postgres://bob@h/db?password=s3cr3t&XYZ9", "s3cr3t&XYZ9", "a query parameter without '='"},
		{"postgres://bob@h/db?password=s3cr3t=XYZ9", "s3cr3t=XYZ9", "a query parameter with a second '='"},
		{"postgres://bob@h/db?password=s3cr3t%XYZ9", "s3cr3t%XYZ9", "a query parameter's value is not percent-encoded"},
		{"postgres://bob:" + secret + "@h/db?a%=1", secret, "a query parameter's name is not percent-encoded"},
		{"postgres://bob:" + secret + "@h/db\x00", secret, "NUL"},
		{"host=h password=s3cr3t XYZ9 dbname=x", "s3cr3t XYZ9", "malformed PostgreSQL keyword/value DSN \"host=h password=xxxxx\": a keyword is letters"},
		{"host=h password=s3cr3t XYZ9", "s3cr3t XYZ9", "a word without '='"},
		{"host=h password='" + secret, secret, "a quoted value without its closing quote"},
		{"host=h password=" + secret + "\x00", secret, "NUL"},
		{"mysql://bob:" + secret + "@h/db", secret, `unsupported database "mysql://bob:xxxxx@h/db": want postgres://USER:PASS@HOST:PORT/DB, a keyword/value DSN, or sqlite:PATH`},
		{"bob:" + secret + "@h/db", secret, `unsupported database "bob:xxxxx@h/db"`},
		{"--db=host=h password=" + secret, secret, `unsupported database "--db=host=h password=xxxxx"`},
		{"sqlite:", "", "sqlite: needs a path"},
		{"sqlite://", "", "sqlite: needs a path"},
		{"", "", `unsupported database ""`},
	} {
		l, err := dbloc.Parse(c.in)
		if err == nil {
			t.Errorf("Parse(%q) = %v, want an error", c.in, l)
			continue
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("Parse(%q): %v; want it to say %q", c.in, err, c.want)
		}
		if c.pw != "" {
			if l := leak(err.Error(), c.pw); l != "" {
				t.Errorf("Parse(%q): the error %q shows %q", c.in, err, l)
			}
		}
	}
}

// TestLocationPrints: a parsed location prints redacted in every verb,
// and hands the driver the text as given.
func TestLocationPrints(t *testing.T) {
	for _, c := range redactCases {
		l, err := dbloc.Parse(c.in)
		if err != nil {
			continue // the malformed ones: TestParseErrors
		}
		if l.ConnString() != c.in || l.Kind() != dbloc.Postgres {
			t.Errorf("%s: ConnString %q, Kind %v; want %q, PostgreSQL", c.name, l.ConnString(), l.Kind(), c.in)
		}
		if l.Redacted() != c.want || l.String() != c.want {
			t.Errorf("%s: Redacted %q, String %q; want %q", c.name, l.Redacted(), l.String(), c.want)
		}
		wrapped := struct{ DB dbloc.Location }{l}
		for _, out := range []string{fmt.Sprint(l), fmt.Sprintf("%v", l), fmt.Sprintf("%+v", l), fmt.Sprintf("%#v", l),
			fmt.Sprintf("%s", l), fmt.Sprintf("%q", l), fmt.Sprintf("%d", l), fmt.Sprintf("%v", &l),
			fmt.Sprintf("%+v", wrapped), fmt.Sprintf("%#v", wrapped), fmt.Sprintf("%v", []dbloc.Location{l})} {
			if lk := leak(out, c.pw); lk != "" {
				t.Errorf("%s: printed as %q, which shows %q", c.name, out, lk)
			}
			if !strings.Contains(out, c.want) {
				t.Errorf("%s: printed as %q, want the redacted %q in it", c.name, out, c.want)
			}
		}
	}
}

// TestSecrets: Secrets names what Redact hides, as written and decoded, so
// that a message quoting a secret in either form can be scrubbed; text with
// no secret has none.
func TestSecrets(t *testing.T) {
	for _, c := range redactCases {
		got := dbloc.Secrets(c.in)
		scrubbed := c.in
		for _, s := range got {
			scrubbed = strings.ReplaceAll(scrubbed, s, "xxxxx")
		}
		if l := leak(scrubbed, c.pw); l != "" {
			t.Errorf("%s: Secrets(%q) = %q leaves %q", c.name, c.in, got, l)
		}
	}
	if got := dbloc.Secrets("http://bob:s3cr%40t-XYZ@h/g"); !slices.Contains(got, "s3cr@t-XYZ") || !slices.Contains(got, "s3cr%40t-XYZ") {
		t.Errorf("Secrets of an encoded password = %q, want it as written and decoded", got)
	}
	for _, s := range []string{"http://127.0.0.1:4000/graphql", "sqlite:x.db", "postgres://bob@h/db", "naive"} {
		if got := dbloc.Secrets(s); len(got) != 0 {
			t.Errorf("Secrets(%q) = %q, want none", s, got)
		}
	}
}
