package graph

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/gqlbench/gqlbench/server"
	"github.com/gqlbench/gqlbench/server/source"
)

// startDedup serves an executor over a fake whose Faculty calls count the
// executions of a selection with authors (one call each).
func startDedup(t *testing.T, c server.Config) (*Executor, *fake, string) {
	t.Helper()
	f := &fake{}
	x := NewExecutor(oneSource{f}, c).(*Executor)
	ts := httptest.NewServer(server.Handler(x, server.HTTPOptions{}))
	t.Cleanup(ts.Close)
	return x, f, "ws" + strings.TrimPrefix(ts.URL, "http") + "/graphql"
}

func (w *wsClient) subscribeVars(id, query string, vars map[string]any) {
	w.t.Helper()
	p, _ := json.Marshal(map[string]any{"query": query, "variables": vars})
	w.send(wsMsg{ID: id, Type: "subscribe", Payload: p})
}

// readNext reads the next message but the completes (gqlgen confirms a
// client's complete with one).
func (w *wsClient) readNext() wsMsg {
	w.t.Helper()
	for {
		if m := w.read(); m.Type != "complete" {
			return m
		}
	}
}

func publish(x *Executor, nr, mainAuthor int64, title string) {
	publishPublication(context.WithValue(context.Background(), feedsKey{}, x.feeds),
		&source.Publication{Nr: nr, Title: title, MainAuthor: mainAuthor})
}

// waitFor polls cond until it holds, or fails the test after 10 s (a wait
// for something that must happen, not a measure of how fast).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited 10 s for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

const authorsDoc = `subscription { publicationAdded { seq publication { id title authors { id } } } }`

// TestDedupOneExecutionPerEvent: 30 subscriptions of one document on 10
// connections cost one execution per event (the fake counts the authors'
// lookups), and each gets every event, in order, with the same payload;
// field errors of the shared execution reach every one, once each. With
// dedup off, every subscription executes for itself.
func TestDedupOneExecutionPerEvent(t *testing.T) {
	const conns, per, events = 10, 3, 5
	for _, off := range []bool{false, true} {
		x, f, url := startDedup(t, server.Config{NoSubscriptionDedup: off})
		var cs []*wsClient
		for i := 0; i < conns; i++ {
			c := dial(t, url, true)
			for j := 0; j < per; j++ {
				c.subscribe(fmt.Sprint(j), authorsDoc)
			}
			cs = append(cs, c)
		}
		waitSubscribed(t, x, conns*per)
		before := f.calls.Load()
		for i := int64(1); i <= events; i++ {
			author := int64(1)
			if i == 3 {
				author = 666 // the fake's failing Faculty: a field error
			}
			publish(x, 100+i, author, fmt.Sprint("t", i))
		}
		var first [][]byte
		for ci, c := range cs {
			got := map[string][][]byte{}
			for k := 0; k < per*events; k++ {
				m := c.read()
				if m.Type != "next" {
					t.Fatalf("off=%v: got %s %s", off, m.Type, m.Payload)
				}
				got[m.ID] = append(got[m.ID], m.Payload)
			}
			for j := 0; j < per; j++ {
				ps := got[fmt.Sprint(j)]
				for i, p := range ps {
					var r struct {
						Data struct {
							PublicationAdded struct {
								Seq         int64
								Publication struct{ ID, Title string }
							}
						}
						Errors []struct{ Message string }
					}
					if err := json.Unmarshal(p, &r); err != nil {
						t.Fatal(err)
					}
					e := r.Data.PublicationAdded
					if e.Seq != int64(i+1) || e.Publication.ID != fmt.Sprint(101+i) || e.Publication.Title != fmt.Sprint("t", i+1) {
						t.Errorf("off=%v conn %d sub %d event %d: %s", off, ci, j, i, p)
					}
					wantErrs := 0
					if i == 2 {
						wantErrs = 1
					}
					if len(r.Errors) != wantErrs || wantErrs == 1 && !strings.Contains(r.Errors[0].Message, "boom") {
						t.Errorf("off=%v conn %d sub %d event %d: errors %+v, want %d (boom)", off, ci, j, i, r.Errors, wantErrs)
					}
				}
				if first == nil {
					first = ps
				} else if fmt.Sprintf("%s", ps) != fmt.Sprintf("%s", first) {
					t.Errorf("off=%v conn %d sub %d: payloads\n%s\nwant the first's\n%s", off, ci, j, bytes.Join(ps, []byte("\n")), bytes.Join(first, []byte("\n")))
				}
			}
		}
		execs, want := f.calls.Load()-before, int32(events)
		if off {
			want = conns * per * events
		}
		if execs != want {
			t.Errorf("off=%v: %d executions for %d events to %d subscriptions, want %d", off, execs, events, conns*per, want)
		}
	}
}

// TestDedupGroups: the same document and variables share a group whatever
// the connection; other variables or another document make another, and a
// filtered subscription still gets only its main author's events.
func TestDedupGroups(t *testing.T) {
	x, _, url := startDedup(t, server.Config{})
	const byAuthor = `subscription ($a: ID) { publicationAdded(mainAuthor: $a) { seq } }`
	a, b := dial(t, url, true), dial(t, url, true)
	a.subscribeVars("one", byAuthor, map[string]any{"a": "1"})
	b.subscribeVars("one", byAuthor, map[string]any{"a": "1"})
	a.subscribeVars("two", byAuthor, map[string]any{"a": "2"})
	b.subscribe("all", `subscription { publicationAdded { seq } }`)
	waitSubscribed(t, x, 4)
	if _, groups := x.streams.dedup.live(); groups != 3 {
		t.Errorf("%d groups, want 3: author 1 (twice), author 2, all", groups)
	}
	for i := int64(1); i <= 4; i++ {
		publish(x, i, 1+i%2, "t") // authors 2, 1, 2, 1
	}
	seqs := func(c *wsClient, n int) map[string]string {
		got := map[string]string{}
		for k := 0; k < n; k++ {
			m := c.read()
			var r struct {
				Data struct{ PublicationAdded struct{ Seq int64 } }
			}
			if m.Type != "next" || json.Unmarshal(m.Payload, &r) != nil {
				t.Fatalf("got %s %s", m.Type, m.Payload)
			}
			got[m.ID] += fmt.Sprint(r.Data.PublicationAdded.Seq)
		}
		return got
	}
	if got := seqs(a, 4); got["one"] != "24" || got["two"] != "13" {
		t.Errorf("a: seqs %v, want one 24, two 13", got)
	}
	if got := seqs(b, 6); got["one"] != "24" || got["all"] != "1234" {
		t.Errorf("b: seqs %v, want one 24, all 1234", got)
	}
}

// TestDedupSlowMember: a member that never reads is ended (and told why
// once it reads again) while the other members of its group get every
// event.
func TestDedupSlowMember(t *testing.T) {
	x, _, url := startDedup(t, server.Config{})
	x.streams.dedup.buffer = 16
	const doc = `subscription { publicationAdded { seq publication { title } } }`
	slow := dial(t, url, true)
	slow.subscribe("s", doc)
	fast := []*wsClient{dial(t, url, true), dial(t, url, true)}
	for _, c := range fast {
		c.subscribe("f", doc)
	}
	waitSubscribed(t, x, 3)
	big := strings.Repeat("x", 32<<10)
	const n = 800 // 26 MB for the slow one: more than its socket buffers (at most 10 MB) and queue hold
	got := make([]chan int64, len(fast))
	for i, c := range fast {
		got[i] = make(chan int64, n)
		go func() {
			defer close(got[i])
			for {
				m, err := c.next(30 * time.Second)
				if err != nil || m.Type != "next" {
					return
				}
				var r struct {
					Data struct{ PublicationAdded struct{ Seq int64 } }
				}
				json.Unmarshal(m.Payload, &r)
				got[i] <- r.Data.PublicationAdded.Seq
			}
		}()
	}
	// In steps of 8 events (half the queue), each sent once both readers
	// have the last.
	last := make([]int64, len(fast))
	for i := int64(1); i <= n; i++ {
		publish(x, i, 1, big)
		if i%8 != 0 {
			continue
		}
		for k := range fast {
			for last[k] < i {
				v, ok := <-got[k]
				if !ok {
					t.Fatalf("reader %d stopped after %d of %d events", k, last[k], n)
				}
				if v != last[k]+1 {
					t.Fatalf("reader %d: event %d after %d", k, v, last[k])
				}
				last[k] = v
			}
		}
	}
	waitFor(t, "the slow member to be dropped", func() bool { return x.streams.live() == 2 })
	for {
		m, err := slow.next(30 * time.Second)
		if err != nil {
			t.Fatalf("the slow member: %v before its error", err)
		}
		if m.Type == "error" {
			if !strings.Contains(string(m.Payload), "fell 16 events behind") {
				t.Errorf("the slow member's error: %s", m.Payload)
			}
			break
		}
	}
}

// TestDedupLeaderEndsWithLastMember: members leaving one by one leave the
// group serving the rest; the last one out ends the leader and its
// subscription, and no goroutine is left behind.
func TestDedupLeaderEndsWithLastMember(t *testing.T) {
	x, _, url := startDedup(t, server.Config{})
	c := dial(t, url, true)
	// The baseline once the connection has served a subscription and
	// ended it: every goroutine of the connection itself is running.
	c.subscribe("warm", `subscription { undergraduateStudentAdded { seq } }`)
	waitSubscribed(t, x, 1)
	c.send(wsMsg{ID: "warm", Type: "complete"})
	c.until("warm", "complete")
	waitFor(t, "the first group to end", func() bool {
		_, groups := x.streams.dedup.live()
		return groups == 0 && x.feeds.undergraduate.Len() == 0
	})
	base := runtime.NumGoroutine()
	const n = 4
	for i := 0; i < n; i++ {
		c.subscribe(fmt.Sprint(i), `subscription { publicationAdded { seq } }`)
	}
	waitSubscribed(t, x, n)
	for i := 0; i < n; i++ {
		if _, groups := x.streams.dedup.live(); groups != 1 || x.feeds.publications.Len() != 1 {
			t.Fatalf("%d members left: %d groups, %d subscriptions of the events; want 1 and 1", n-i, groups, x.feeds.publications.Len())
		}
		publish(x, int64(i+1), 1, "t")
		for k := i; k < n; k++ {
			if m := c.readNext(); m.Type != "next" {
				t.Fatalf("got %s %s", m.Type, m.Payload)
			}
		}
		c.send(wsMsg{ID: fmt.Sprint(i), Type: "complete"})
		waitFor(t, "a member to leave", func() bool { return x.streams.live() == n-1-i })
	}
	waitFor(t, "the leader to end", func() bool {
		_, groups := x.streams.dedup.live()
		return groups == 0 && x.feeds.publications.Len() == 0
	})
	waitFor(t, fmt.Sprintf("the goroutines to go back to %d", base), func() bool { return runtime.NumGoroutine() <= base })
	// A new subscriber starts a new group.
	c.subscribe("again", `subscription { publicationAdded { seq } }`)
	waitSubscribed(t, x, 1)
	publish(x, 9, 1, "t")
	if m := c.readNext(); m.ID != "again" || m.Type != "next" {
		t.Errorf("after the group ended: got %s %s", m.Type, m.Payload)
	}
}

// TestDedupConnectionLimit: the members of one group are counted against
// their connections' limit: the 101st on a connection is refused, another
// connection's are not, and a finished one frees its place.
func TestDedupConnectionLimit(t *testing.T) {
	x, _, url := startDedup(t, server.Config{})
	const doc = `subscription { publicationAdded { seq } }`
	a, b := dial(t, url, true), dial(t, url, true)
	for i := 0; i <= MaxSubscriptionsPerConnection; i++ {
		a.subscribe(fmt.Sprint(i), doc)
	}
	m := a.read()
	if m.Type != "next" || !strings.Contains(string(m.Payload), "too many subscriptions on one connection: 100 are running") {
		t.Fatalf("got %s %s, want the limit's error", m.Type, m.Payload)
	}
	refused := m.ID // the transport starts each subscription in a goroutine of its own: any one may be last
	a.until(refused, "complete")
	b.subscribe("b", doc)
	waitSubscribed(t, x, MaxSubscriptionsPerConnection+1)
	done := "0"
	if refused == done {
		done = "1"
	}
	a.send(wsMsg{ID: done, Type: "complete"})
	waitFor(t, "a member to leave", func() bool { return x.streams.live() == MaxSubscriptionsPerConnection })
	a.subscribe("again", doc)
	waitSubscribed(t, x, MaxSubscriptionsPerConnection+1)
	publish(x, 1, 1, "t")
	seen := map[string]bool{}
	for len(seen) < MaxSubscriptionsPerConnection {
		m := a.readNext()
		if m.Type != "next" || strings.Contains(string(m.Payload), "errors") {
			t.Fatalf("got %s %s %s", m.ID, m.Type, m.Payload)
		}
		seen[m.ID] = true
	}
	if !seen["again"] || seen[done] || seen[refused] {
		t.Errorf("delivered to %v; want again, not %s (completed) nor %s (refused)", seen, done, refused)
	}
	if m := b.read(); m.Type != "next" {
		t.Errorf("b: got %s %s", m.Type, m.Payload)
	}
}

// scripted is an ExecutableSchema whose subscriptions answer the strings
// sent on next, and end when it is closed.
type scripted struct {
	graphql.ExecutableSchema
	next  chan string
	execs int
}

func (s *scripted) Exec(ctx context.Context) graphql.ResponseHandler {
	s.execs++
	return func(ctx context.Context) *graphql.Response {
		select {
		case v, ok := <-s.next:
			if !ok {
				return nil
			}
			return &graphql.Response{Data: json.RawMessage(v)}
		case <-ctx.Done():
			return nil
		}
	}
}

// TestDedupEventsEnd: when the shared execution's events end, every member
// ends; a later subscriber starts a new execution.
func TestDedupEventsEnd(t *testing.T) {
	s := &scripted{next: make(chan string)}
	d := newDedup(s, freshSource{f: oneSource{&fake{}}})
	oc := &graphql.OperationContext{RawQuery: "subscription { x }", Operation: &ast.OperationDefinition{Operation: ast.Subscription}}
	ctx, cancel := context.WithCancel(graphql.WithOperationContext(context.Background(), oc))
	defer cancel()
	var hs []graphql.ResponseHandler
	for i := 0; i < 3; i++ {
		rctx := graphql.WithResponseContext(ctx, presentError, graphql.DefaultRecover)
		hs = append(hs, d.Exec(rctx))
		if errs := graphql.GetErrors(rctx); errs != nil {
			t.Fatal(errs)
		}
	}
	s.next <- `{"n":1}`
	for i, h := range hs {
		if r := h(ctx); r == nil || string(r.Data) != `{"n":1}` {
			t.Fatalf("member %d: %+v", i, r)
		}
	}
	close(s.next)
	for i, h := range hs {
		if r := h(ctx); r != nil {
			t.Errorf("member %d after the events ended: %s, want the end", i, r.Data)
		}
	}
	waitFor(t, "the group to end", func() bool { _, g := d.live(); return g == 0 })
	if s.execs != 1 {
		t.Errorf("%d executions started, want 1", s.execs)
	}
}

// TestDedupStartError: a subscription whose resolver fails gets its error,
// as does every subscriber of the same document, and no group stays.
func TestDedupStartError(t *testing.T) {
	x, _, url := startDedup(t, server.Config{})
	const bad = `subscription { publicationAdded(mainAuthor: "nope") { seq } }`
	a, b := dial(t, url, true), dial(t, url, true)
	a.subscribe("a", bad)
	b.subscribe("b", bad)
	for _, c := range []*wsClient{a, b} {
		m := c.read()
		if m.Type != "next" || !strings.Contains(string(m.Payload), `"errors"`) || !strings.Contains(string(m.Payload), "nope") {
			t.Errorf("got %s %s, want the argument's error", m.Type, m.Payload)
		}
	}
	a.until("a", "complete")
	b.until("b", "complete")
	if members, groups := x.streams.dedup.live(); members != 0 || groups != 0 {
		t.Errorf("%d members in %d groups after the errors, want none", members, groups)
	}
}
