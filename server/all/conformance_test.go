package all_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/gqlbench/gqlbench/server"
	"github.com/gqlbench/gqlbench/verify"
)

// mismatch is an instance a variant answered wrongly.
type mismatch struct {
	c   oracleCase
	msg string
}

func (m mismatch) String() string {
	vars, _ := json.Marshal(m.c.in.Variables)
	return fmt.Sprintf("%s (%s) variables %s: %s", m.c.in.ID, templateName(m.c.in.Template), vars, m.msg)
}

func templateName(id int) string { return fmt.Sprintf("QT%d", id) }

// conform runs every case on e and returns the ones whose answer is not the
// oracle's: a failed request, errors, or other data.
func conform(ctx context.Context, e server.Executor, cases []oracleCase) []mismatch {
	var out []mismatch
	for _, c := range cases {
		r := e.Execute(ctx, c.req)
		switch {
		case r.Status != 0 && r.Status != 200:
			out = append(out, mismatch{c, fmt.Sprintf("HTTP status %d: %v", r.Status, r.Errors)})
		case len(r.Errors) > 0:
			out = append(out, mismatch{c, fmt.Sprintf("errors: %v", r.Errors)})
		default:
			if h, err := verify.Hash(r.Data); err != nil {
				out = append(out, mismatch{c, fmt.Sprintf("data is not JSON: %v: %.200s", err, r.Data)})
			} else if h != c.hash {
				got, _ := verify.Canonical(r.Data)
				out = append(out, mismatch{c, "wrong answer:\n" + diff(c.canonical, got)})
			}
		}
	}
	return out
}

// diff shows where two canonical JSON texts first differ, with some context.
func diff(want, got []byte) string {
	i := 0
	for i < len(want) && i < len(got) && want[i] == got[i] {
		i++
	}
	from := max(0, i-100)
	clip := func(b []byte) string {
		end := min(len(b), i+100)
		s := string(b[from:end])
		if from > 0 {
			s = "…" + s
		}
		if end < len(b) {
			s += "…"
		}
		return s
	}
	return fmt.Sprintf("\tfirst difference at byte %d of %d (want) / %d (got)\n\twant %s\n\tgot  %s",
		i, len(want), len(got), clip(want), clip(got))
}

// testConformance: every variant returns the oracle's answer to a seeded
// sample of every template, on every database.
func testConformance(t *testing.T, f *fixture) {
	ctx := context.Background()
	variants := dbVariants(false, false)
	if len(variants) == 0 {
		t.Log("no database-backed variant is registered besides the reference")
	}
	for _, d := range f.dbs {
		for _, v := range variants {
			t.Run(d.name+"/"+v.Name, func(t *testing.T) {
				e := open(t, v, d.url)
				bad := conform(ctx, e, f.cases)
				for i, m := range bad {
					if i == 10 {
						t.Errorf("… and %d more", len(bad)-i)
						break
					}
					t.Errorf("%s", m)
				}
				if len(bad) == 0 {
					t.Logf("%d instances of the 16 templates: all right", len(f.cases))
				}
			})
		}
	}
}

// deliberatelyBroken are the test-only variants that must fail the
// conformance check; the other tests leave them out.
var deliberatelyBroken = map[string]bool{"test-broken": true}

func init() {
	// test-broken is the oracle with one id (or number) of each answer
	// altered: plausible data, wrong answer.
	server.Register(server.Variant{
		Name:    "test-broken",
		Summary: "test only: the oracle with one value of each answer altered",
		NeedsDB: true,
		Open: func(ctx context.Context, c server.Config) (server.Executor, error) {
			e, err := openReference(ctx, c)
			if err != nil {
				return nil, err
			}
			return corrupter{e}, nil
		},
	})
}

func openReference(ctx context.Context, c server.Config) (server.Executor, error) {
	v, ok := server.Lookup(reference)
	if !ok {
		return nil, fmt.Errorf("no %s variant", reference)
	}
	return v.Open(ctx, c)
}

type corrupter struct{ e server.Executor }

func (c corrupter) Execute(ctx context.Context, r *server.Request) *server.Response {
	resp := *c.e.Execute(ctx, r)
	data := []byte(resp.Data)
	for _, key := range []string{`"id":"`, `"count":`, `"avg":`} {
		if bytes.Contains(data, []byte(key)) {
			data = bytes.Replace(data, []byte(key), []byte(key+"1"), 1)
			break
		}
	}
	resp.Data = data
	return &resp
}

// testBrokenIsCaught: the conformance check fails a variant that answers
// wrongly, and says which instance and where.
func testBrokenIsCaught(t *testing.T, f *fixture) {
	ctx := context.Background()
	for name := range deliberatelyBroken {
		v, _ := server.Lookup(name)
		e := open(t, v, f.dbs[0].url)
		bad := conform(ctx, e, f.cases)
		if len(bad) < len(f.cases)/2 {
			t.Fatalf("%s: only %d of %d wrong answers caught", name, len(bad), len(f.cases))
		}
		msg := bad[0].String()
		if !strings.Contains(msg, "QT") || !strings.Contains(msg, "variables {") || !strings.Contains(msg, "first difference") {
			t.Errorf("the report does not say what is wrong where: %s", msg)
		}
		t.Logf("%s: %d of %d answers caught as wrong; the first report:\n%s", name, len(bad), len(f.cases), msg)
	}
	// Right data is not enough: a response with errors, or with a failure
	// status, is wrong too.
	for what, spoil := range map[string]func(*server.Response){
		"errors":     func(r *server.Response) { r.Errors = gqlerror.List{gqlerror.Errorf("boom")} },
		"status 503": func(r *server.Response) { r.Status = 503 },
	} {
		e := executorFunc(func(ctx context.Context, r *server.Request) *server.Response {
			resp := *f.oracle.Execute(ctx, r)
			spoil(&resp)
			return &resp
		})
		if bad := conform(ctx, e, f.cases[:3]); len(bad) != 3 {
			t.Errorf("right data with %s: %d of 3 caught", what, len(bad))
		}
	}
}

type executorFunc func(context.Context, *server.Request) *server.Response

func (f executorFunc) Execute(ctx context.Context, r *server.Request) *server.Response {
	return f(ctx, r)
}
