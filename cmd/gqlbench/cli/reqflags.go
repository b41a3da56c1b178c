package cli

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/gqlbench/gqlbench/drive/wire"
)

// requestFlags are how requests are sent, shared by load and record.
type requestFlags struct {
	headers, headerFiles, headerEnv, secret stringList
	method, client                          string
	apq                                     bool
	timeout                                 time.Duration
	maxResponse                             int
}

// secretHeaders are never written anywhere but on the wire.
var secretHeaders = []string{"authorization", "proxy-authorization", "cookie"}

func (r *requestFlags) register(fs *flag.FlagSet) {
	r.registerHeaders(fs)
	fs.StringVar(&r.method, "method", "POST", "POST (the request as JSON) or GET (in the query string, as GraphQL over HTTP says)")
	fs.BoolVar(&r.apq, "apq", false, "automatic persisted queries: send the query's hash first, its text after PersistedQueryNotFound (misses counted apart)")
	fs.StringVar(&r.client, "client", "gqlbench", "HTTP client: gqlbench (its own HTTP/1.1; a closed loop's connections in one event loop), "+wire.ClientPerConn+" (the same, a goroutine per connection) or net/http")
	fs.DurationVar(&r.timeout, "timeout", 60*time.Second, "per request, connect included")
	fs.IntVar(&r.maxResponse, "max-response", wire.DefaultMaxResponseBytes, "largest response in bytes (a larger one is an error; see docs/load.md, Broken servers)")
}

// headerFlags are the flags of the request headers alone.
var headerFlags = []string{"header", "header-file", "header-env", "secret-header"}

// registerHeaders registers the header flags alone (queries --schema URL).
func (r *requestFlags) registerHeaders(fs *flag.FlagSet) {
	fs.Var(&r.headers, "header", "extra request header \"Name: value\" (repeatable); {{uuid}} and {{seq}} in a value are made anew for every request")
	fs.Var(&r.headerFiles, "header-file", "read request headers from `FILE`, one \"Name: value\" a line (repeatable; # comments)")
	fs.Var(&r.headerEnv, "header-env", "a request header `NAME=VAR` whose value is the environment variable VAR (repeatable)")
	fs.Var(&r.secret, "secret-header", "a header `NAME` whose value is never written to run files, reports, logs or progress (repeatable; Authorization, Proxy-Authorization and Cookie always are)")
}

// options returns the HTTP options, reading header files and the
// environment; errors never show a header's value.
func (r *requestFlags) options(env Env) (wire.Options, error) {
	o := wire.Options{Timeout: r.timeout, MaxResponseBytes: r.maxResponse, UserAgent: "gqlbench/" + Version,
		Method: strings.ToUpper(r.method), APQ: r.apq, Header: slices.Clone(r.headers)}
	switch {
	case o.Method != "GET" && o.Method != "POST":
		return o, usagef("--method must be GET or POST, got %q", r.method)
	case r.client != "gqlbench" && r.client != wire.ClientPerConn && r.client != "net/http":
		return o, usagef("--client must be gqlbench, %s or net/http, got %q", wire.ClientPerConn, r.client)
	case r.timeout <= 0:
		return o, usagef("--timeout must be positive")
	}
	hs, err := r.headerLines(env)
	o.Header = hs
	return o, err
}

// headerLines returns the headers of --header, --header-file and
// --header-env, "Name: value" each; errors never show a header's value.
func (r *requestFlags) headerLines(env Env) ([]string, error) {
	out := slices.Clone(r.headers)
	for _, path := range r.headerFiles {
		hs, err := readHeaderFile(path)
		if err != nil {
			return out, err
		}
		out = append(out, hs...)
	}
	for _, kv := range r.headerEnv {
		name, v, ok := strings.Cut(kv, "=")
		if !ok || strings.TrimSpace(name) == "" || v == "" {
			return out, usagef("--header-env %q: want NAME=VAR", kv)
		}
		val := env.Getenv(v)
		if val == "" {
			return out, usagef("--header-env %s: the environment variable %s is empty or unset", name, v)
		}
		out = append(out, strings.TrimSpace(name)+": "+val)
	}
	return out, nil
}

// httpHeader returns the header lines as an http.Header; a malformed line
// is named by its number, never shown.
func httpHeader(lines []string) (http.Header, error) {
	h := http.Header{}
	for i, l := range lines {
		name, v, ok := strings.Cut(l, ":")
		name = strings.TrimSpace(name)
		if !ok || name == "" || strings.ContainsAny(l, "\r\n") || strings.ContainsAny(name, " \t") {
			return nil, usagef("header %d of %d: want \"Name: value\" on one line", i+1, len(lines))
		}
		h.Add(name, strings.TrimSpace(v))
	}
	return h, nil
}

// readHeaderFile reads "Name: value" lines; blank lines and # comments are
// skipped. Its errors name the line, never its text.
func readHeaderFile(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read the header file: %w", err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	n := 1
	for ; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if name, _, ok := strings.Cut(line, ":"); !ok || strings.TrimSpace(name) == "" {
			return nil, fmt.Errorf("header file %s, line %d: want \"Name: value\"", path, n)
		}
		out = append(out, line)
	}
	switch err := sc.Err(); {
	case errors.Is(err, bufio.ErrTooLong):
		return nil, fmt.Errorf("header file %s, line %d: longer than %d KiB, the longest header line read", path, n, bufio.MaxScanTokenSize>>10)
	case err != nil:
		return nil, fmt.Errorf("header file %s, line %d: %w", path, n, err)
	}
	return out, nil
}

// isSecret reports whether a header's value must not be written.
func (r *requestFlags) isSecret(name string) bool {
	name = strings.ToLower(strings.TrimSpace(name))
	if slices.Contains(secretHeaders, name) {
		return true
	}
	for _, s := range r.secret {
		if strings.EqualFold(strings.TrimSpace(s), name) {
			return true
		}
	}
	return false
}

// redactHeader returns "Name: value" with a secret value hidden; a header
// without a name is hidden whole.
func (r *requestFlags) redactHeader(h string) string {
	name, _, ok := strings.Cut(h, ":")
	if !ok {
		return "(malformed header)"
	}
	if r.isSecret(name) {
		return strings.TrimSpace(name) + ": (secret)"
	}
	return h
}

// redactArgs returns the command line with secret header values hidden.
func (r *requestFlags) redactArgs(args []string) []string {
	out := slices.Clone(args)
	for i := 0; i < len(out); i++ {
		a := out[i]
		switch {
		case a == "--header" || a == "-header":
			if i+1 < len(out) {
				i++
				out[i] = r.redactHeader(out[i])
			}
		case strings.HasPrefix(a, "--header=") || strings.HasPrefix(a, "-header="):
			k, v, _ := strings.Cut(a, "=")
			out[i] = k + "=" + r.redactHeader(v)
		}
	}
	return out
}

// redactFlags hides secret header values in a header's flag map.
func (r *requestFlags) redactFlags(flags map[string]string) {
	if len(r.headers) == 0 {
		return
	}
	var hs []string
	for _, h := range r.headers {
		hs = append(hs, r.redactHeader(h))
	}
	flags["header"] = strings.Join(hs, "; ")
}
