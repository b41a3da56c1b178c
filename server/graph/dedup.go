package graph

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/gqlbench/gqlbench/server/events"
)

// Subscription deduplication: the subscriptions that share a server's
// feeds, a document, an operation name and variables get the same answer
// to every event, since nothing in these servers' execution depends on who
// subscribed (no user, no per-connection state reaches a resolver). So
// dedupSchema executes such a group's selection once per event, in a
// leader of the group's own, and fans the response out to its members: at
// 1,000 subscriptions of one document, one execution and one encoding of
// the data instead of 1,000 (what Apollo Router's subscription
// deduplication and Hasura's multiplexing do). gqlgen's transports are
// untouched: each member is an ordinary subscription operation to them,
// whose response handler reads the group's responses from a bounded queue
// of its own.
//
// A member that lets its queue fill up is ended with events.ErrSlow
// without holding up the leader or the other members, as a subscription
// is by package events when dedup is off. The per-connection limit
// (MaxSubscriptionsPerConnection) counts members. The leader lives as long
// as the group has a member: the last one to leave cancels it.

// dedupSchema wraps the subscriptions' ExecutableSchema: Exec of a
// subscription operation joins the operation's group.
type dedupSchema struct {
	graphql.ExecutableSchema
	fresh  freshSource // the leader's Source and remote for each response
	buffer int         // a member's queue: responses it may have pending

	mu     sync.Mutex
	groups map[groupKey]*group
	unique atomic.Int64 // keys of operations that share nothing
}

func newDedup(inner graphql.ExecutableSchema, fresh freshSource) *dedupSchema {
	return &dedupSchema{ExecutableSchema: inner, fresh: fresh, buffer: events.DefaultBuffer, groups: map[groupKey]*group{}}
}

// groupKey says which subscriptions have the same answers.
type groupKey struct {
	feeds     *feeds
	query     string
	operation string
	variables string // the coerced variables as JSON: encoding/json sorts a map's keys
}

// group is the subscriptions of one groupKey and their leader. Its fields
// but key, accepted and leaderErr are under the dedupSchema's mu.
type group struct {
	key     groupKey
	ready   chan struct{} // closed when the leader started, or failed to (errs)
	errs    gqlerror.List // why the leader could not start
	cancel  context.CancelFunc
	members map[*member]struct{}
	refs    int   // members, and joiners waiting for ready
	sent    int64 // responses broadcast
	ended   bool  // the leader ended, or was cancelled; the group is out of the map
	// accepted counts the events the leader's subscription took (under
	// the hub's lock, as they are published): a member joining takes only
	// the responses to events accepted after it joined, as its own
	// subscription would.
	accepted atomic.Int64
	// leaderErr is why the leader's subscription ended, when it fell
	// behind (set under the hub's lock).
	leaderErr atomic.Pointer[error]
}

// member is one subscription of a group.
type member struct {
	q      chan *graphql.Response
	from   int64 // responses numbered up to from answer events older than it
	err    error // why q was closed, when not by the member's own end; read once q is closed
	closed bool
}

type groupCtxKey struct{}

// groupOf returns the group whose leader runs in ctx (nil in a member's).
func groupOf(ctx context.Context) *group {
	g, _ := ctx.Value(groupCtxKey{}).(*group)
	return g
}

// Exec is the ExecutableSchema's: a subscription joins its group, starting
// the group's leader if it is the first, and answers with the group's
// responses; the other operations go to the wrapped schema.
func (d *dedupSchema) Exec(ctx context.Context) graphql.ResponseHandler {
	oc := graphql.GetOperationContext(ctx)
	if oc.Operation == nil || oc.Operation.Operation != ast.Subscription {
		return d.ExecutableSchema.Exec(ctx)
	}
	if _, err := admit(ctx); err != nil {
		graphql.AddError(ctx, err)
		return nil
	}
	key := groupKey{feeds: feedsOf(ctx), query: oc.RawQuery, operation: oc.OperationName}
	if b, err := json.Marshal(oc.Variables); err == nil {
		key.variables = string(b)
	} else { // cannot happen to coerced JSON values; if it did, share nothing
		key.variables = "\x00" + strconv.FormatInt(d.unique.Add(1), 10)
	}

	d.mu.Lock()
	g := d.groups[key]
	starter := g == nil
	if starter {
		g = &group{key: key, ready: make(chan struct{}), members: map[*member]struct{}{}}
		d.groups[key] = g
	}
	g.refs++
	d.mu.Unlock()
	if starter {
		d.start(ctx, g)
	} else {
		<-g.ready // the start does not wait for anything but the resolver
	}

	d.mu.Lock()
	if g.errs != nil {
		d.dropLocked(g, nil)
		d.mu.Unlock()
		for _, err := range g.errs {
			graphql.AddError(ctx, err)
		}
		return nil
	}
	m := &member{q: make(chan *graphql.Response, d.buffer)}
	if !starter {
		m.from = g.accepted.Load()
	}
	if g.ended { // the leader ended between its start and this join
		m.closed = true
		m.err = g.endErr()
		close(m.q)
		d.dropLocked(g, nil)
	} else {
		g.members[m] = struct{}{}
		context.AfterFunc(ctx, func() {
			d.mu.Lock()
			defer d.mu.Unlock()
			d.dropLocked(g, m)
		})
	}
	d.mu.Unlock()
	slowToClient := ctx.Value(connKey{}) != nil // websocket: gqlgen sends the error (SSE has no such message)
	return func(ctx context.Context) *graphql.Response {
		select {
		case r, ok := <-m.q:
			if !ok {
				if m.err != nil && slowToClient {
					transport.AddSubscriptionError(ctx, gqlerror.Errorf("%s", m.err.Error()))
				}
				return nil
			}
			// gqlgen's executor appends the response context's errors and
			// sets the extensions: a copy of its own, whose errors' array
			// an append cannot share; the data is read only.
			c := *r
			c.Errors = slices.Clip(c.Errors)
			return &c
		case <-ctx.Done():
			return nil
		}
	}
}

// start starts g's leader in a context of its own: the values of the
// first member's (ctx), not its cancellation, nor its connection's count.
func (d *dedupSchema) start(ctx context.Context, g *group) {
	defer close(g.ready)
	lctx, cancel := context.WithCancel(context.WithValue(context.WithoutCancel(ctx), groupCtxKey{}, g))
	h, errs := d.subscribe(lctx)
	if errs != nil || h == nil {
		cancel()
		if errs == nil {
			errs = gqlerror.List{gqlerror.Errorf("the subscription could not start")}
		}
		d.mu.Lock()
		g.errs = errs
		g.ended = true
		delete(d.groups, g.key) // a new subscriber tries again
		d.mu.Unlock()
		return
	}
	d.mu.Lock()
	g.cancel = cancel
	d.mu.Unlock()
	go d.lead(lctx, g, h)
}

// subscribe runs the wrapped schema's Exec in ctx: the subscription's
// resolver subscribes to the events, or fails (errs).
func (d *dedupSchema) subscribe(ctx context.Context) (h graphql.ResponseHandler, errs gqlerror.List) {
	rctx := graphql.WithResponseContext(ctx, presentError, graphql.DefaultRecover)
	defer func() {
		if r := recover(); r != nil { // gqlgen recovers the resolvers' panics; anything else is ours
			h, errs = nil, gqlerror.List{gqlerror.Errorf("internal server error: %v", r)}
		}
	}()
	h = d.ExecutableSchema.Exec(rctx)
	return h, graphql.GetErrors(rctx)
}

// lead runs g's execution, once per event, until the events end or the
// group is cancelled, and broadcasts each response in order.
func (d *dedupSchema) lead(ctx context.Context, g *group, h graphql.ResponseHandler) {
	var err error
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("internal server error: %v", r)
		}
		d.mu.Lock()
		defer d.mu.Unlock()
		if err == nil {
			err = g.endErr()
		}
		d.endLocked(g, err)
	}()
	for {
		rctx := graphql.WithResponseContext(ctx, presentError, graphql.DefaultRecover)
		r := h(d.fresh.forResponse(rctx))
		if r == nil {
			return
		}
		r.Errors = append(r.Errors, graphql.GetErrors(rctx)...)
		r.Data = bytes.Clone(r.Data) // gqlgen reuses its buffer for the next event
		d.broadcast(g, r)
	}
}

// broadcast hands r to every member that was there before its event,
// without waiting: a member whose queue is full is ended as too slow.
func (d *dedupSchema) broadcast(g *group, r *graphql.Response) {
	d.mu.Lock()
	defer d.mu.Unlock()
	g.sent++
	for m := range g.members {
		if g.sent <= m.from {
			continue
		}
		select {
		case m.q <- r:
		default:
			m.err = &events.ErrSlow{Buffer: d.buffer}
			d.dropLocked(g, m)
		}
	}
}

// endErr is the error that ended g's leader, if it fell behind.
func (g *group) endErr() error {
	if p := g.leaderErr.Load(); p != nil {
		return fmt.Errorf("subscription ended: its shared execution fell behind the events (%w)", *p)
	}
	return nil
}

// dropLocked removes m (nil: a joiner that did not become a member) from
// g, closing its queue; the last one out cancels the leader.
func (d *dedupSchema) dropLocked(g *group, m *member) {
	if m != nil {
		if _, ok := g.members[m]; !ok {
			return
		}
		delete(g.members, m)
		if !m.closed {
			m.closed = true
			close(m.q)
		}
	}
	if g.refs--; g.refs == 0 {
		d.removeLocked(g)
	}
}

// endLocked ends g when its leader returned: every member's queue is
// closed (with err, when not nil), and a new subscriber starts a new group.
func (d *dedupSchema) endLocked(g *group, err error) {
	for m := range g.members {
		if !m.closed {
			m.closed = true
			m.err = err
			close(m.q)
		}
	}
	d.removeLocked(g)
}

func (d *dedupSchema) removeLocked(g *group) {
	g.ended = true
	if d.groups[g.key] == g {
		delete(d.groups, g.key)
	}
	if g.cancel != nil {
		g.cancel()
	}
}

// live is the number of subscriptions being served, and of groups.
func (d *dedupSchema) live() (members, groups int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, g := range d.groups {
		members += len(g.members)
	}
	return members, len(d.groups)
}
