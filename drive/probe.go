package drive

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/gqlbench/gqlbench/measure"
	"github.com/gqlbench/gqlbench/verify"
)

// TypenameQuery is the request Preflight sends first: every GraphQL server
// answers it, {"data":{"__typename":"Query"}}.
var TypenameQuery = Request{ID: "preflight", Template: "preflight", Query: "{__typename}", Body: []byte(`{"query":"{__typename}"}`)}

// Preflight checks, before any load, that the target answers GraphQL and
// every template of the workload: it POSTs {__typename} and wants a GraphQL
// JSON response with data, then sends each template's first request and
// wants status 200, no GraphQL errors and data. It fails with a message
// that says what is wrong: the target is unreachable, is not a GraphQL
// endpoint, or rejects the workload's queries (a server of another schema).
// A wrong answer is not fatal: the run counts it. newTransport makes a
// transport of the kind the run uses for a list of requests.
func Preflight(ctx context.Context, target string, newTransport func([]Request) (Transport, error), reqs []Request) (warnings []string, err error) {
	probe := make([]Request, 0, 17)
	probe = append(probe, TypenameQuery)
	seen := map[string]bool{}
	for _, r := range reqs {
		if !seen[r.Template] {
			seen[r.Template] = true
			probe = append(probe, r)
		}
	}
	tr, err := newTransport(probe)
	if err != nil {
		return nil, err
	}
	c := tr.NewConn()
	defer c.Close()
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-ctx.Done():
			c.Close()
		case <-done:
		}
	}()
	var res Response
	if err := c.Do(0, &res); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if res.RecvBytes == 0 && classify(err) == measure.ErrTransport {
			return nil, fmt.Errorf("cannot reach the target %s: %w", target, err)
		}
		return nil, fmt.Errorf("the target %s did not answer a GraphQL request: %w", target, err)
	}
	if why := notGraphQL(res.Status, res.Body); why != "" {
		return nil, fmt.Errorf("%s is not a GraphQL endpoint: POST {__typename} got %s", target, why)
	}
	checker := NewChecker(probe, 1<<20)
	for i := 1; i < len(probe); i++ {
		r := probe[i]
		if err := c.Do(i, &res); err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, fmt.Errorf("the server failed %s (%s) before the load: %w", r.Template, r.ID, err)
		}
		out, _ := checker.Check(i, res.Status, res.Body, true)
		switch {
		case out == measure.Wrong:
			warnings = append(warnings, fmt.Sprintf("%s (%s): the answer differs from the expected one", r.Template, r.ID))
		case out.IsError():
			detail := snippet(res.Body)
			if err := verify.Check(res.Body, ""); err != nil && res.Status == 200 {
				detail = err.Error()
			}
			schema := "the benchmark schema"
			if r.Dialect != "" {
				schema = "dialect " + r.Dialect
			}
			return nil, fmt.Errorf("the server rejects %s (%s) before the load (is it a server of %s?): HTTP %d, %s",
				r.Template, r.ID, schema, res.Status, detail)
		}
	}
	return warnings, nil
}

// notGraphQL says why a response to {__typename} is not GraphQL's, or "".
func notGraphQL(status int, body []byte) string {
	var r struct {
		Data   *json.RawMessage `json:"data"`
		Errors json.RawMessage  `json:"errors"`
	}
	if err := json.Unmarshal(body, &r); err != nil {
		return fmt.Sprintf("HTTP %d and not JSON: %s", status, snippet(body))
	}
	if status != 200 {
		return fmt.Sprintf("HTTP %d: %s", status, snippet(body))
	}
	if r.Data == nil {
		if len(r.Errors) > 0 {
			return "GraphQL errors: " + snippet(r.Errors)
		}
		return "a JSON object without \"data\": " + snippet(body)
	}
	var data map[string]any
	if json.Unmarshal(*r.Data, &data) != nil {
		return "\"data\" is not an object: " + snippet(*r.Data)
	}
	if _, ok := data["__typename"].(string); !ok {
		return "no __typename in the data: " + snippet(*r.Data)
	}
	return ""
}

func snippet(b []byte) string {
	s := strings.Join(strings.Fields(string(b)), " ")
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	if s == "" {
		return "(empty body)"
	}
	return s
}
