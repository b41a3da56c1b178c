package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gqlbench/gqlbench/exitcode"
	"github.com/gqlbench/gqlbench/server"
)

// testDB is a variant that needs a database; it records how it was opened
// and whether it was closed.
var testDB struct {
	config atomic.Pointer[server.Config]
	closed atomic.Bool
}

type closingExec struct{}

func (closingExec) Execute(context.Context, *server.Request) *server.Response {
	return &server.Response{Data: json.RawMessage(`{"ok":true}`)}
}
func (closingExec) Close() error { testDB.closed.Store(true); return nil }

func init() {
	server.Register(server.Variant{
		Name: "cli-test-db", Summary: "a test variant that needs a database", NeedsDB: true,
		Open: func(_ context.Context, c server.Config) (server.Executor, error) {
			testDB.config.Store(&c)
			return closingExec{}, nil
		},
	})
}

// stderrLog is a concurrency-safe stderr that tells when a line arrives.
type stderrLog struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	notify chan struct{}
}

func (l *stderrLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf.Write(p)
	select {
	case l.notify <- struct{}{}:
	default:
	}
	return len(p), nil
}

func (l *stderrLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

var servingURL = regexp.MustCompile(`serving on (http://127\.0\.0\.1:[0-9]+/graphql)\n`)

// startServe runs a serve command line in-process until the returned cancel
// is called; it returns the GraphQL URL and the exit code's channel.
func startServe(t *testing.T, args ...string) (url string, stderr *stderrLog, cancel func(), exit <-chan int) {
	t.Helper()
	return startServeEnv(t, func(string) string { return "" }, args...)
}

// startServeEnv is startServe with the environment getenv.
func startServeEnv(t *testing.T, getenv func(string) string, args ...string) (url string, stderr *stderrLog, cancel func(), exit <-chan int) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	stderr = &stderrLog{notify: make(chan struct{}, 1)}
	code := make(chan int, 1)
	go func() {
		code <- Run(ctx, Env{Args: args, Stdout: io.Discard, Stderr: stderr, Getenv: getenv})
	}()
	for {
		if m := servingURL.FindStringSubmatch(stderr.String()); m != nil {
			return m[1], stderr, cancel, code
		}
		select {
		case <-stderr.notify:
		case c := <-code:
			cancel()
			t.Fatalf("serve exited %d before serving: %s", c, stderr)
		case <-time.After(10 * time.Second): // a hang, not a timing assertion
			cancel()
			t.Fatalf("serve never said where it serves: %s", stderr)
		}
	}
}

func postQuery(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(`{"query":"{__typename}"}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestServeNull serves the null variant, flags after the variant, answers a
// request, and exits 0 when its context is cancelled (Ctrl-C).
func TestServeNull(t *testing.T) {
	url, stderr, cancel, exit := startServe(t, "serve", "null", "--addr", "127.0.0.1:0", "--trace", "--pprof", "127.0.0.1:0")
	status, body := postQuery(t, url)
	if m := regexp.MustCompile(`profiles at (http://\S+/debug/pprof/)`).FindStringSubmatch(stderr.String()); m == nil {
		t.Errorf("--pprof: no profiles address in the log: %s", stderr)
	} else if resp, err := http.Get(m[1] + "cmdline"); err != nil || resp.StatusCode != 200 {
		t.Errorf("--pprof: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}
	if status != 200 || !strings.HasPrefix(body, `{"data":{"__typename":"Query"},"extensions":{"timing":{`) {
		t.Errorf("%d %s", status, body)
	}
	resp, err := http.Get(strings.TrimSuffix(url, "/graphql") + "/healthz")
	if err != nil || resp.StatusCode != 200 || resp.Header.Get("Gqlbench-Variant") != "null" {
		t.Errorf("healthz: %v %v", resp, err)
	}
	resp.Body.Close()
	// on a loopback address the runtime's metrics are served beside the API
	resp, err = http.Get(strings.TrimSuffix(url, "/graphql") + server.MetricsPath)
	if err != nil || resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/json" {
		t.Errorf("%s: %v %v", server.MetricsPath, resp, err)
	} else {
		resp.Body.Close()
	}
	cancel()
	if code := <-exit; code != exitcode.OK {
		t.Fatalf("exit %d after cancel: %s", code, stderr)
	}
	if !strings.Contains(stderr.String(), "stopped") {
		t.Errorf("no shutdown in the log: %s", stderr)
	}
}

// TestServeWithDB: flags before the variant reach Open, and the executor is
// closed after shutdown.
func TestServeWithDB(t *testing.T) {
	testDB.closed.Store(false)
	url, stderr, cancel, exit := startServe(t, "serve", "--db", "postgres://u:secret@h/db", "--pool", "3",
		"--max-depth", "9", "--timeout", "5s", "--addr", "127.0.0.1:0", "cli-test-db")
	if status, body := postQuery(t, url); status != 200 || body != `{"data":{"ok":true}}` {
		t.Errorf("%d %s", status, body)
	}
	cancel()
	if code := <-exit; code != exitcode.OK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	want := server.Config{DB: "postgres://u:secret@h/db", Pool: 3, MaxDepth: 9, Timeout: 5 * time.Second}
	if got := testDB.config.Load(); got == nil || *got != want {
		t.Errorf("opened with %+v, want %+v", got, want)
	}
	if !testDB.closed.Load() {
		t.Error("the executor was not closed")
	}
	if strings.Contains(stderr.String(), "secret") {
		t.Errorf("a password reached stderr: %s", stderr)
	}
}

// TestServeSubscriptionDedup: --subscription-dedup=false reaches the
// variant's configuration and the startup line; the default deduplicates.
func TestServeSubscriptionDedup(t *testing.T) {
	for _, off := range []bool{false, true} {
		args := []string{"serve", "cli-test-db", "--db", "sqlite:x.db", "--addr", "127.0.0.1:0"}
		if off {
			args = append(args, "--subscription-dedup=false")
		}
		_, stderr, cancel, exit := startServe(t, args...)
		cancel()
		if code := <-exit; code != exitcode.OK {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		if got := testDB.config.Load(); got == nil || got.NoSubscriptionDedup != off {
			t.Errorf("--subscription-dedup off=%v: opened with %+v", off, got)
		}
		if said := strings.Contains(stderr.String(), "subscriptions executed each for itself"); said != off {
			t.Errorf("--subscription-dedup off=%v: startup line %q", off, stderr)
		}
	}
}

// TestServeDBFromEnvironment: without --db the database comes from
// $GQLBENCH_DB (out of the process list); --db wins over it.
func TestServeDBFromEnvironment(t *testing.T) {
	env := func(k string) string {
		if k == "GQLBENCH_DB" {
			return "postgres://u:secret@h/fromenv"
		}
		return ""
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"serve", "cli-test-db", "--addr", "127.0.0.1:0"}, "postgres://u:secret@h/fromenv"},
		{[]string{"serve", "cli-test-db", "--addr", "127.0.0.1:0", "--db", "sqlite:flag.db"}, "sqlite:flag.db"},
	} {
		_, stderr, cancel, exit := startServeEnv(t, env, c.args...)
		cancel()
		if code := <-exit; code != exitcode.OK {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		if got := testDB.config.Load(); got == nil || got.DB != c.want {
			t.Errorf("%v: opened %+v, want the database %s", c.args, got, c.want)
		}
		if strings.Contains(stderr.String(), "secret") {
			t.Errorf("a password reached stderr: %s", stderr)
		}
	}
}

func TestServeBadUsage(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no variant", []string{"serve"}, exitcode.Usage, "missing VARIANT: one of"},                                // lists the variants
		{"unknown variant", []string{"serve", "nope"}, exitcode.Usage, "unknown variant \"nope\""},                  // named
		{"unknown variant lists", []string{"serve", "nope"}, exitcode.Usage, "cli-test-db"},                         // the list
		{"needs a database", []string{"serve", "cli-test-db"}, exitcode.Usage, "needs a database"},                  // NeedsDB without --db
		{"two variants", []string{"serve", "null", "null"}, exitcode.Usage, "unexpected argument"},                  // one at a time
		{"unknown flag", []string{"serve", "null", "--port", "1"}, exitcode.Usage, "-port"},                         // flag package's message
		{"bad pool", []string{"serve", "null", "--pool", "0"}, exitcode.Usage, "--pool"},                            // at least 1
		{"bad timeout", []string{"serve", "null", "--timeout", "0s"}, exitcode.Usage, "--timeout"},                  // positive
		{"bad depth", []string{"serve", "null", "--max-depth", "0"}, exitcode.Usage, "--max-depth"},                 // at least 1
		{"bad limit", []string{"serve", "null", "--max-response-bytes", "0"}, exitcode.Usage, "positive"},           // positive
		{"bad address", []string{"serve", "null", "--addr", "localhost"}, exitcode.Usage, "HOST:PORT"},              // no port
		{"invalid port", []string{"serve", "null", "--addr", "127.0.0.1:99999"}, exitcode.Failure, "cannot listen"}, // Listen fails: exit 1
		{"profiles exposed", []string{"serve", "null", "--pprof", "0.0.0.0:6060"}, exitcode.Usage, "loopback"},      // never on the network
		{"control without data", []string{"serve", "null", "--rest-control"}, exitcode.Usage, "over a database"},    // rest reads the database
		{"control beside rest", []string{"serve", "rest", "--db", "sqlite:/x", "--rest-control"}, exitcode.Usage, "beside a GraphQL variant"},
		{"dedup of a peer", []string{"serve", "node-naive", "--db", "sqlite:/x", "--subscription-dedup=false"}, exitcode.Usage, "for gqlbench's own variants"},
		{"negative leak", []string{"serve", "null", "--leak-bytes-per-request", "-1"}, exitcode.Usage, "must not be negative"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, _, stderr := run(c.args...)
			if code != c.code || !strings.Contains(stderr, c.want) {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", code, stderr, c.code, c.want)
			}
		})
	}
}

func TestServeHelp(t *testing.T) {
	code, stdout, _ := run("serve", "--help")
	for _, want := range []string{"serve VARIANT", "null ", "measures the load generator", "(needs --db)", "-max-response-bytes"} {
		if code != exitcode.OK || !strings.Contains(stdout, want) {
			t.Errorf("serve --help: exit %d, no %q in\n%s", code, want, stdout)
		}
	}
}

func TestIsLoopback(t *testing.T) {
	for _, c := range []struct {
		addr string
		want bool
		bad  bool
	}{
		{"127.0.0.1:4000", true, false},  // IPv4 loopback
		{"[::1]:4000", true, false},      // IPv6 loopback
		{"localhost:0", true, false},     // by name
		{"127.1.2.3:80", true, false},    // all of 127/8
		{"0.0.0.0:4000", false, false},   // every interface
		{":4000", false, false},          // every interface, implicitly
		{"10.0.0.1:4000", false, false},  // a network address
		{"example.com:80", false, false}, // a name we do not resolve
		{"127.0.0.1", false, true},       // no port
		{"127.0.0.1:", false, true},      // empty port
	} {
		got, err := isLoopback(c.addr)
		if got != c.want || (err != nil) != c.bad {
			t.Errorf("isLoopback(%q) = %v, %v; want %v, error %v", c.addr, got, err, c.want, c.bad)
		}
	}
}

func TestSplitArgs(t *testing.T) {
	fs := newFlags(Env{Stdout: io.Discard}, "x", "x")
	fs.String("db", "", "")
	fs.Bool("trace", false, "")
	for _, c := range []struct {
		args       []string
		flags, pos string
	}{
		{[]string{"v", "--db", "u"}, "--db u", "v"},                 // flags after
		{[]string{"--db", "u", "v"}, "--db u", "v"},                 // flags before: u is a value
		{[]string{"--trace", "v"}, "--trace", "v"},                  // a bool flag takes no value
		{[]string{"--db=u", "v", "--trace"}, "--db=u --trace", "v"}, // = form
		{[]string{"--nope", "v"}, "--nope", "v"},                    // unknown: left for parse to report
		{[]string{"--", "-v"}, "", "-v"},                            // -- ends the flags
	} {
		f, p := splitArgs(fs, c.args)
		if strings.Join(f, " ") != c.flags || strings.Join(p, " ") != c.pos {
			t.Errorf("splitArgs(%q) = %q, %q; want %q, %q", c.args, f, p, c.flags, c.pos)
		}
	}
}
