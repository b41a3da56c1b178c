package cli

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gqlbench/gqlbench/exitcode"
	"github.com/gqlbench/gqlbench/server"
)

// TestServeRemoteUnreachable: a GraphQL variant whose remote service does
// not answer does not start, and says why.
func TestServeRemoteUnreachable(t *testing.T) {
	ts := httptest.NewServer(nil)
	url := ts.URL
	ts.Close()
	code, _, stderr := run("serve", "cli-test-db", "--db", "sqlite:x.db", "--addr", "127.0.0.1:0", "--remote-url", url)
	if code != exitcode.Failure || !strings.Contains(stderr, "remote service at "+url+" does not answer") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

// TestServeRemoteFlags: the remote flags reach the variant, and bad ones
// are usage errors that name the flag.
func TestServeRemoteFlags(t *testing.T) {
	ts := httptest.NewServer(server.API(nil, server.HTTPOptions{}))
	defer ts.Close()
	url, stderr, cancel, exit := startServe(t, "serve", "cli-test-db", "--db", "sqlite:x.db", "--addr", "127.0.0.1:0",
		"--remote-url", ts.URL, "--remote-mode", "batch", "--remote-client", "per-call")
	_ = url
	cancel()
	if code := <-exit; code != exitcode.OK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	got := testDB.config.Load().Remote
	if got.URL != ts.URL || got.Mode != server.RemoteBatch || !got.PerCall {
		t.Errorf("opened with remote %+v", got)
	}
	if !strings.Contains(stderr.String(), "remote fields from "+ts.URL+", mode batch, a new client and connection per call") {
		t.Errorf("stderr: %s", stderr)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--remote-mode", "lazy"}, "--remote-mode"},
		{[]string{"--remote-client", "pooled"}, "--remote-client"},
		{[]string{"--remote-url", "localhost:4100"}, "--remote-url"},
		{[]string{"--latency", "1ms"}, "--latency is not for variant cli-test-db"},
		{[]string{"--failure-rate", "2"}, "failure rate"},
	} {
		code, _, stderr := run(append([]string{"serve", "cli-test-db", "--db", "sqlite:x.db"}, c.args...)...)
		if code != exitcode.Usage || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want a usage error with %q", c.args, code, stderr, c.want)
		}
	}
}
