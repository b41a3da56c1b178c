package drive

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gqlbench/gqlbench/measure"
	"github.com/gqlbench/gqlbench/runfile"
)

// TestErrorLogBounded: a server that says something new every time costs
// at most MaxErrorReasons reasons and an "other" per kind; no error is lost;
// a sample body is cut at 200 bytes, on a character, secrets hidden.
func TestErrorLogBounded(t *testing.T) {
	l := errorLog{secrets: secretsOf([]string{"Authorization: Bearer tok-0123456789"})}
	for i := range 1000 {
		l.add(measure.ErrResponse, 0, fmt.Sprintf("status line %q", fmt.Sprint(i)), nil)
	}
	body := `{"errors":[{"message":"bad token tok-0123456789"}]}` + strings.Repeat("é", 300)
	l.add(measure.ErrStatus, 401, "HTTP 401 Unauthorized", []byte(body))
	rs := l.collect()
	var n int64
	for _, r := range rs {
		n += r.Count
	}
	if n != 1001 || len(rs) > runfile.MaxErrorReasons+2 {
		t.Fatalf("%d reasons counting %d errors: %+v", len(rs), n, rs)
	}
	if l.lastError() != "http_status: HTTP 401 Unauthorized" {
		t.Errorf("last error %q", l.lastError())
	}
	s := sampleBody([]byte(body), l.secrets)
	if len(s) > runfile.SampleBodyBytes || strings.Contains(s, "tok-0123456789") || !strings.Contains(s, "(secret)") || !strings.HasPrefix(s, `{"errors"`) || strings.ContainsRune(s, '\uFFFD') {
		t.Errorf("sample %q", s)
	}
}

// TestCheckReason: an answer that is an error says why in a few words.
func TestCheckReason(t *testing.T) {
	for _, c := range []struct {
		kind   measure.Outcome
		status int
		body   string
		want   string
	}{
		{measure.ErrStatus, 503, "", "HTTP 503 Service Unavailable"},
		{measure.ErrGraphQL, 200, `{"errors":[{"message":"Cannot query field \"x\""}]}`, `the first: Cannot query field "x"`},
		{measure.ErrResponse, 200, "", "empty body"},
		{measure.ErrResponse, 200, "<html>", "the body is not JSON: invalid character '<' looking for beginning of value"},
		{measure.ErrResponse, 200, `[1]`, "the body is not a JSON object"},
		{measure.ErrResponse, 200, `{"data":null}`, `no "data" in the answer`},
	} {
		if got := checkReason(c.kind, c.status, []byte(c.body)); got != c.want {
			t.Errorf("%s %d %q: %q, want %q", c.kind, c.status, c.body, got, c.want)
		}
	}
}
