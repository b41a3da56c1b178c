package drive

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/gqlbench/gqlbench/drive/wire"
	"github.com/gqlbench/gqlbench/measure"
	"github.com/gqlbench/gqlbench/verify"
)

// TypenameQuery is the request Preflight sends first: every GraphQL server
// answers it, {"data":{"__typename":"Query"}}.
var TypenameQuery = wire.Request{ID: "preflight", Template: "preflight", Query: "{__typename}", Body: []byte(`{"query":"{__typename}"}`)}

// Preflight checks, before any load, that the target answers GraphQL and
// every template of the workload: it POSTs {__typename} and wants a GraphQL
// JSON response with data, then sends each template's first request and
// wants status 200, no GraphQL errors and data. It fails with a message
// that says what is wrong: the target is unreachable, wants credentials
// (HTTP 401 or 403), is not a GraphQL endpoint, or rejects the workload's
// queries (a server of another schema). A wrong answer is not fatal: the
// run counts it. newTransport makes a transport of the kind the run uses
// for a list of requests. It is PreflightWith without options.
func Preflight(ctx context.Context, target string, newTransport func([]wire.Request) (wire.Transport, error), reqs []wire.Request) (warnings []string, err error) {
	return PreflightWith(ctx, target, newTransport, reqs, PreflightOptions{})
}

// PreflightOptions say what Preflight needs to know of the run.
type PreflightOptions struct {
	// Ignore are the run's --ignore-path: the preflight judges answers
	// with the run's own checker (newRunChecker), so it warns of a wrong
	// answer exactly when the run would count one.
	Ignore []verify.Path
	// Headers is how many request headers the user gives, so that an HTTP
	// 401 says "give credentials" or "the credentials given are refused".
	Headers int
}

// PreflightWith is Preflight with options.
func PreflightWith(ctx context.Context, target string, newTransport func([]wire.Request) (wire.Transport, error), reqs []wire.Request, o PreflightOptions) (warnings []string, err error) {
	probe := append([]wire.Request{TypenameQuery}, firstOfEachLabel(reqs)...)
	c, stop, err := probeConn(ctx, newTransport, probe)
	if err != nil {
		return nil, err
	}
	defer stop()
	var res wire.Response
	if err := c.Do(0, &res); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if wire.NotReached(err, &res) {
			if wire.Classify(err) == measure.ErrTimeout { // a connect that outlasted --timeout
				return nil, fmt.Errorf("cannot reach the target %s: no connection within the timeout (--timeout)", target)
			}
			return nil, fmt.Errorf("cannot reach the target %s: %w", target, err)
		}
		return nil, fmt.Errorf("the target %s did not answer a GraphQL request: %s", target, wire.Reason(err, wire.Classify(err), 0))
	}
	if why := credentials(res.Status, res.Body, o.Headers); why != "" {
		return nil, fmt.Errorf("the target %s %s", target, why)
	}
	if why := notGraphQL(res.Status, res.Body); why != "" {
		return nil, &notGraphQLError{target, why}
	}
	return probeLabels(ctx, c, probe, 1, schemaHint(reqs), o)
}

// notGraphQLError is a target whose answer to {__typename} is not
// GraphQL's.
type notGraphQLError struct{ target, why string }

func (e *notGraphQLError) Error() string {
	return fmt.Sprintf("%s is not a GraphQL endpoint: POST {__typename} got %s", e.target, e.why)
}

// credentials says, for an answer of HTTP 401 or 403, that the target
// wants credentials, and how to give them; "" for any other status.
// headers is how many request headers the user gave.
func credentials(status int, body []byte, headers int) string {
	if status != http.StatusUnauthorized && status != http.StatusForbidden {
		return ""
	}
	got := fmt.Sprintf("answers HTTP %d (%s): %s", status, http.StatusText(status), wire.Snippet(body))
	if headers > 0 {
		return "refuses the credentials given: it " + got + "; " + CredentialsAdvice(headers)
	}
	return "wants credentials: it " + got + "; " + CredentialsAdvice(0)
}

// CredentialsAdvice says how to give credentials, or to check those given
// in headers request headers.
func CredentialsAdvice(headers int) string {
	if headers > 0 {
		return fmt.Sprintf("check the credentials in the %d request headers given (--header, --header-env, --header-file)", headers)
	}
	return `give credentials with --header 'Authorization: Bearer TOKEN', or keep the token off the command line with --header-env Authorization=VAR (VAR holding "Bearer TOKEN") or --header-file FILE`
}

// schemaHint is what to suspect when the target rejects a query: the
// benchmark's schema for the benchmark's templates (QT1..QT16), the
// user's API for anything else.
func schemaHint(reqs []wire.Request) string {
	for i := range reqs { // (not a copy of each: a Request is some 230 bytes)
		n, ok := strings.CutPrefix(reqs[i].Template, "QT")
		if !ok || n == "" || strings.Trim(n, "0123456789") != "" {
			return "is the queries file written for this API?"
		}
	}
	return "is it a server of the benchmark schema?"
}

// newRunChecker is the checker of a run's answers, for the run and its
// preflight alike: each request's expected answer, unordered lists and
// dialect mapping, and the run's ignored paths.
func newRunChecker(reqs []wire.Request, budgetBytes int64, ignore []verify.Path) *Checker {
	c := NewChecker(reqs, budgetBytes)
	c.ignore = ignore
	return c
}

// firstDifference says where the data of a wrong answer to r first differ
// from the expected answer, as the run's summary does, or, when only the
// expected answer's hash is known, that it differs.
func firstDifference(r *wire.Request, data []byte, ignore []verify.Path) string {
	const hashOnly = "the answer differs from the expected one (only its hash is known)"
	if r.Answer == nil {
		return hashOnly
	}
	if r.Map != nil {
		m, err := r.Mapped(data)
		if err != nil {
			return err.Error()
		}
		data = m
	}
	d, err := verify.Diff(r.Answer, data, verify.Options{Unordered: r.Unordered, Ignore: ignore}, 1)
	if err != nil || len(d) == 0 {
		return "the answer differs from the expected one"
	}
	return "the answer differs from the expected one: " + describe(d[0])
}

// PreflightREST checks, before any load, that a REST target carries out
// the first task of every label: every call answered with the status its
// plan wants and the answers assembled (a wrong answer is a warning, as in
// Preflight). Its errors name the task and the call that failed.
func PreflightREST(ctx context.Context, target string, newTransport func([]wire.Request) (wire.Transport, error), reqs []wire.Request) (warnings []string, err error) {
	return preflightREST(ctx, target, newTransport, reqs, PreflightOptions{})
}

// preflightREST is PreflightREST with the run's options.
func preflightREST(ctx context.Context, target string, newTransport func([]wire.Request) (wire.Transport, error), reqs []wire.Request, o PreflightOptions) (warnings []string, err error) {
	probe := firstOfEachLabel(reqs)
	c, stop, err := probeConn(ctx, newTransport, probe)
	if err != nil {
		return nil, err
	}
	defer stop()
	warnings, err = probeLabels(ctx, c, probe, 0, "is it the benchmark's REST API?", o)
	var unreachable errUnreachable
	if errors.As(err, &unreachable) {
		return nil, fmt.Errorf("cannot reach the REST target %s: %w", target, unreachable.err)
	}
	return warnings, err
}

// firstOfEachLabel returns the first request of every label.
func firstOfEachLabel(reqs []wire.Request) []wire.Request {
	var out []wire.Request
	seen := map[string]bool{}
	for i := range reqs {
		r := &reqs[i]
		if i > 0 && r.Template == reqs[i-1].Template { // the request before's: no look-up
			continue
		}
		if !seen[r.Template] {
			seen[r.Template] = true
			out = append(out, *r)
		}
	}
	return out
}

// probeConn returns a connection for the probe requests, closed when ctx
// is done or stop is called.
func probeConn(ctx context.Context, newTransport func([]wire.Request) (wire.Transport, error), probe []wire.Request) (wire.Conn, func(), error) {
	tr, err := newTransport(probe)
	if err != nil {
		return nil, nil, err
	}
	c := tr.NewConn()
	done := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			c.Close()
		case <-done:
		}
	}()
	return c, func() { close(done); c.Close() }, nil
}

// probeLabels sends probe[from:] and checks each answer: a failure or an
// error is fatal (hint says what to suspect), a wrong answer a warning.
func probeLabels(ctx context.Context, c wire.Conn, probe []wire.Request, from int, hint string, o PreflightOptions) (warnings []string, err error) {
	checker := newRunChecker(probe, 1<<20, o.Ignore)
	var res wire.Response
	for i := from; i < len(probe); i++ {
		r := probe[i]
		if err := c.Do(i, &res); err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			if i == 0 && wire.NotReached(err, &res) {
				return nil, errUnreachable{err}
			}
			return nil, fmt.Errorf("the server failed %s (%s) before the load: %w", r.Template, r.ID, err)
		}
		out, _ := checker.Check(i, res.Status, res.Body, true)
		switch {
		case out == measure.Wrong:
			data, _, ok := scanResponse(res.Body)
			if !ok {
				data, _, _ = slowScan(res.Body)
			}
			warnings = append(warnings, fmt.Sprintf("%s (%s): %s", r.Template, r.ID, firstDifference(&r, data, o.Ignore)))
		case out.IsError() && from > 0 && credentials(res.Status, res.Body, o.Headers) != "":
			return nil, fmt.Errorf("the server %s to %s (%s)", credentials(res.Status, res.Body, o.Headers), r.Template, r.ID)
		case out.IsError():
			detail := wire.Snippet(res.Body)
			if err := verify.Check(res.Body, ""); err != nil && res.Status == 200 {
				detail = err.Error()
			}
			if msg := planErrorOf(res.Body); msg != "" {
				detail = msg
			}
			if r.Dialect != "" && strings.Contains(hint, "benchmark schema") {
				hint = "is it a server of dialect " + r.Dialect + "?"
			}
			return nil, fmt.Errorf("the server rejects %s (%s) before the load (%s): HTTP %d, %s",
				r.Template, r.ID, hint, res.Status, detail)
		}
	}
	return warnings, nil
}

// errUnreachable is a first request that reached no server.
type errUnreachable struct{ err error }

func (e errUnreachable) Error() string { return e.err.Error() }

// planErrorOf returns a REST task's failure as the REST transport wrote
// it, or "".
func planErrorOf(body []byte) string {
	var e struct {
		Msg  string `json:"plan_error"`
		Body string `json:"body"`
	}
	if json.Unmarshal(body, &e) != nil || e.Msg == "" {
		return ""
	}
	if e.Body != "" {
		return e.Msg + ": " + e.Body
	}
	return e.Msg
}

// notGraphQL says why a response to {__typename} is not GraphQL's, or "".
func notGraphQL(status int, body []byte) string {
	var r struct {
		Data   *json.RawMessage `json:"data"`
		Errors json.RawMessage  `json:"errors"`
	}
	if err := json.Unmarshal(body, &r); err != nil {
		return fmt.Sprintf("HTTP %d and not JSON: %s", status, wire.Snippet(body))
	}
	if status != 200 {
		return fmt.Sprintf("HTTP %d: %s", status, wire.Snippet(body))
	}
	if r.Data == nil {
		if len(r.Errors) > 0 {
			return "GraphQL errors: " + wire.Snippet(r.Errors)
		}
		return "a JSON object without \"data\": " + wire.Snippet(body)
	}
	var data map[string]any
	if json.Unmarshal(*r.Data, &data) != nil {
		return "\"data\" is not an object: " + wire.Snippet(*r.Data)
	}
	if _, ok := data["__typename"].(string); !ok {
		return "no __typename in the data: " + wire.Snippet(*r.Data)
	}
	return ""
}
