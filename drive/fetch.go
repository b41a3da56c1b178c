package drive

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/gqlbench/gqlbench/drive/wire"
	"github.com/gqlbench/gqlbench/exitcode"
	"github.com/gqlbench/gqlbench/queryfile"
	"github.com/gqlbench/gqlbench/verify"
)

// Answer is one request's answer, fetched once from a server before (or
// instead of) a load.
type Answer struct {
	Data     []byte // the canonical JSON of the response's "data"
	Err      error  // why the response is no answer: HTTP status, GraphQL errors, not JSON
	Response bool   // a response came back (Err may still be set)
	Status   int    // its HTTP status, 0 without a response
}

// FetchAnswers sends every request of tr once, over conns connections in
// parallel, and returns their answers in order; the context's error when
// interrupted.
func FetchAnswers(ctx context.Context, tr wire.Transport, n, conns int) ([]Answer, error) {
	out := make([]Answer, n)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range max(1, min(conns, n)) {
		c := tr.NewConn()
		stop := context.AfterFunc(ctx, func() { c.Close() })
		wg.Go(func() {
			defer stop()
			defer c.Close()
			var res wire.Response
			for {
				i := int(next.Add(1) - 1)
				if i >= n || ctx.Err() != nil {
					return
				}
				out[i] = answerOf(c.Do(i, &res), &res)
			}
		})
	}
	wg.Wait()
	return out, ctx.Err()
}

// answerOf judges one exchange.
func answerOf(err error, res *wire.Response) Answer {
	if err != nil {
		return Answer{Err: err, Response: !wire.NotReached(err, res)}
	}
	if res.Status != 200 {
		return Answer{Err: fmt.Errorf("HTTP %d: %s", res.Status, wire.Snippet(res.Body)), Response: true, Status: res.Status}
	}
	if err := verify.Check(res.Body, ""); err != nil {
		return Answer{Err: err, Response: true}
	}
	data, _, ok := scanResponse(res.Body)
	if !ok {
		data, _, _ = slowScan(res.Body)
	}
	c, err := verify.Canonical(data)
	if err != nil {
		return Answer{Err: err, Response: true}
	}
	return Answer{Data: c, Response: true}
}

// AnswersError says which requests got no answer.
type AnswersError struct {
	Target string
	Failed []string // "ID: why", the first few
	N, Of  int
}

func (e *AnswersError) Error() string {
	return fmt.Sprintf("%s did not answer %d of %d queries:\n  %s", e.Target, e.N, e.Of, strings.Join(e.Failed, "\n  "))
}

// answersError collects the failed answers, or returns nil.
func answersError(target string, reqs []wire.Request, ans []Answer) error {
	e := &AnswersError{Target: target, Of: len(ans)}
	for i, a := range ans {
		if a.Err == nil {
			continue
		}
		e.N++
		if len(e.Failed) < 5 {
			e.Failed = append(e.Failed, fmt.Sprintf("%s (%s): %s", reqs[i].ID, reqs[i].Template, firstLine(a.Err.Error())))
		}
	}
	if e.N == 0 {
		return nil
	}
	if e.N > len(e.Failed) {
		e.Failed = append(e.Failed, fmt.Sprintf("… and %d more", e.N-len(e.Failed)))
	}
	return e
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// Golden fetches the answers of a queries file's entries from a server
// the user trusts: the golden file that later loads verify against.
type Golden struct {
	Target      string
	Client      string       // "gqlbench" (default) or "net/http"
	HTTP        wire.Options // headers, method, timeout
	Connections int          // in parallel (default 8)
}

// Record returns the entries with their answers ("answer") and hashes
// ("expect", under each entry's unordered option). Every entry must be
// answered: an *AnswersError names those that were not.
func (r *Golden) Record(ctx context.Context, entries []queryfile.Entry) ([]queryfile.Entry, error) {
	reqs, err := wire.Requests(entries)
	if err != nil {
		return nil, err
	}
	ans, err := r.fetch(ctx, r.Target, reqs)
	if err != nil {
		return nil, err
	}
	out := make([]queryfile.Entry, len(entries))
	for i, e := range entries {
		e.Answer = ans[i].Data
		if e.Expect, err = verify.HashWith(e.Answer, verify.Options{Unordered: e.Unordered}); err != nil {
			return nil, fmt.Errorf("entry %q: %w", e.ID, err)
		}
		e.Line = 0
		out[i] = e
	}
	return out, nil
}

// fetch fetches every request's answer from target, once per distinct
// request body, and fails unless every one is answered.
//
// When a request runs a mutation, every request is sent, one at a time in
// the order given, none left out as a duplicate: a write changes the
// answers after it, so the answers are those of that order.
func (r *Golden) fetch(ctx context.Context, target string, reqs []wire.Request) ([]Answer, error) {
	distinct, of := dedupe(reqs)
	conns := r.Connections
	if conns <= 0 {
		conns = 8
	}
	if Mutations(reqs) > 0 {
		distinct, of, conns = reqs, make([]int, len(reqs)), 1
		for i := range of {
			of[i] = i
		}
	}
	tr, err := wire.NewTransport(r.Client, target, distinct, r.HTTP)
	if err != nil {
		return nil, &exitcode.UsageError{Err: err}
	}
	ans, err := FetchAnswers(ctx, tr, len(distinct), conns)
	if err != nil {
		return nil, err
	}
	mapAnswers(distinct, ans)
	if err := answersError(target, distinct, ans); err != nil {
		if unreachable(ans) {
			return nil, fmt.Errorf("cannot reach %s: %v", target, ans[0].Err)
		}
		if s := ans[0].Status; s == http.StatusUnauthorized || s == http.StatusForbidden {
			return nil, fmt.Errorf("%w\n%s", err, CredentialsAdvice(len(r.HTTP.Header)))
		}
		if r.noAPQ(ctx, target, distinct, ans) {
			return nil, &exitcode.UsageError{Err: fmt.Errorf("%s answers GraphQL but not automatic persisted queries (--apq): %s sent in full is answered, sent as its hash first it is not (%s); leave out --apq, or turn persisted queries on in the server",
				target, distinct[0].ID, firstLine(ans[0].Err.Error()))}
		}
		return nil, err
	}
	out := make([]Answer, len(reqs))
	for i, j := range of {
		out[i] = ans[j]
	}
	return out, nil
}

// noAPQ reports, when every answer under --apq failed, whether the first
// request is answered sent in full: the server does not take persisted
// queries. A mutation is not sent again to find out.
func (r *Golden) noAPQ(ctx context.Context, target string, reqs []wire.Request, ans []Answer) bool {
	if !r.HTTP.APQ || len(reqs) == 0 || reqs[0].Mutation {
		return false
	}
	for _, a := range ans {
		if a.Err == nil {
			return false
		}
	}
	o := r.HTTP
	o.APQ = false
	tr, err := wire.NewTransport(r.Client, target, reqs[:1], o)
	if err != nil {
		return false
	}
	plain, err := FetchAnswers(ctx, tr, 1, 1)
	return err == nil && plain[0].Err == nil
}

// Mutations counts the requests that run mutations.
func Mutations(reqs []wire.Request) int {
	n := 0
	for i := range reqs {
		if reqs[i].Mutation {
			n++
		}
	}
	return n
}

// MutationLabels lists the labels of the requests that run mutations, in
// order of first appearance.
func MutationLabels(reqs []wire.Request) []string {
	var out []string
	for i := range reqs {
		if reqs[i].Mutation && !slices.Contains(out, reqs[i].Template) {
			out = append(out, reqs[i].Template)
		}
	}
	return out
}

// mapAnswers turns the answers to requests written in a dialect into the
// benchmark's form (canonical JSON): a golden file or a reference holds
// the benchmark's answers, whatever the dialect of the queries. An answer
// that does not map is no answer.
func mapAnswers(reqs []wire.Request, ans []Answer) {
	for i := range ans {
		if ans[i].Err != nil || reqs[i].Map == nil {
			continue
		}
		m, err := reqs[i].Mapped(ans[i].Data)
		if err == nil {
			m, err = verify.Canonical(m)
		}
		ans[i].Data, ans[i].Err = m, err
	}
}

// unreachable reports whether no request got a response.
func unreachable(ans []Answer) bool {
	for _, a := range ans {
		if a.Response {
			return false
		}
	}
	return true
}

// dedupe returns the distinct requests by body (and, for a dialect's, by
// the template whose mapping applies; GraphQL steps by id), and for each request the index of
// its distinct one.
func dedupe(reqs []wire.Request) (distinct []wire.Request, of []int) {
	idx := map[string]int{}
	of = make([]int, len(reqs))
	for i, r := range reqs {
		k := string(r.Body)
		if len(r.GraphQLPlan) > 0 { // each its own: its body is not what is sent
			k = "\x01" + r.ID
		}
		if r.Map != nil {
			k += "\x00" + r.Dialect + "\x00" + r.Template
		}
		j, ok := idx[k]
		if !ok {
			j = len(distinct)
			idx[k] = j
			distinct = append(distinct, r)
		}
		of[i] = j
	}
	return distinct, of
}
