package dbloc_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gqlbench/gqlbench/dbloc"
)

// FuzzRedact builds postgres://u:PRE s3cr3t-XYZ POST@REST, a password
// holding the secret followed by anything, and checks that neither Redact,
// nor Parse's error, nor the parsed location's printed form shows the
// secret — unless REST itself holds it, which is skipped. Any string at all
// is also redacted and parsed without a panic.
func FuzzRedact(f *testing.F) {
	for _, c := range redactCases {
		f.Add("", "", c.in)
	}
	f.Add("", "", "host:port/db")
	f.Add("a b", "%", "h/db?password=x&y")
	f.Add("x/", "@y", "h:5432/db")
	f.Fuzz(func(t *testing.T, pre, post, rest string) {
		dbloc.Redact(rest)
		dbloc.Parse(rest)
		if strings.Contains(rest, secret) {
			return
		}
		s := "postgres://u:" + pre + secret + post + "@" + rest
		if got := dbloc.Redact(s); strings.Contains(got, secret) {
			t.Fatalf("Redact(%q) = %q", s, got)
		}
		l, err := dbloc.Parse(s)
		if err != nil {
			if strings.Contains(err.Error(), secret) {
				t.Fatalf("Parse(%q): %v", s, err)
			}
			return
		}
		if out := fmt.Sprintf("%v %+v %#v %s", l, l, l, l.Redacted()); strings.Contains(out, secret) {
			t.Fatalf("Parse(%q) prints as %q", s, out)
		}
	})
}
