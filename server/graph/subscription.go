package graph

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/executor"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/gqlbench/gqlbench/server/events"
	"github.com/gqlbench/gqlbench/server/source"
	"github.com/gqlbench/gqlbench/server/write"
)

// Limits of the subscription transports.
const (
	// MaxSubscriptionsPerConnection bounds the operations one
	// graphql-transport-ws connection may have running: the one past it is
	// refused with an error, and the connection goes on.
	MaxSubscriptionsPerConnection = 100
	// PingInterval is how often the server pings an idle connection
	// (graphql-transport-ws ping); a client that never answers is closed
	// after twice that.
	PingInterval = 30 * time.Second
)

// PublicationEvent is the schema's PublicationEvent.
type PublicationEvent struct {
	Seq         int64
	CommittedAt string
	Publication *source.Publication
}

// UndergraduateStudentEvent is the schema's UndergraduateStudentEvent.
type UndergraduateStudentEvent struct {
	Seq                  int64
	CommittedAt          string
	UndergraduateStudent *source.UndergraduateStudent
}

// InitTimeout is how long a websocket client has to send connection_init
// before the server closes the connection (gqlgen closes it with 1002,
// "connection initialisation timeout"). A variable for the tests.
var InitTimeout = 5 * time.Second

// feeds are the topics of one executor: its writes publish there, its
// subscriptions read there.
type feeds struct {
	hub           events.Hub
	publications  *events.Topic[*PublicationEvent]
	undergraduate *events.Topic[*UndergraduateStudentEvent]
}

func newFeeds() *feeds {
	f := &feeds{}
	f.publications = events.NewTopic[*PublicationEvent](&f.hub, 0)
	f.undergraduate = events.NewTopic[*UndergraduateStudentEvent](&f.hub, 0)
	return f
}

type feedsKey struct{}

// feedsOf returns the feeds of the request of ctx (nil outside one).
func feedsOf(ctx context.Context) *feeds {
	f, _ := ctx.Value(feedsKey{}).(*feeds)
	return f
}

// committedAt is t as the events carry it.
func committedAt(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

// connState is one websocket connection's count of running operations.
type connState struct{ running atomic.Int32 }

type connKey struct{}

type subscriptionResolver struct{}

func (r *Resolver) Subscription() SubscriptionResolver { return subscriptionResolver{} }

// stream is what a subscription resolver needs to subscribe: the feeds,
// the function that reports a slow subscriber's end to the client, and,
// in a dedup group's leader (dedup.go), the group.
type stream struct {
	f    *feeds
	slow func(error)
	g    *group
}

// begin admits one more subscription on the connection of ctx, if any; in
// a dedup group's leader the group's members are the ones counted.
func begin(ctx context.Context) (stream, error) {
	f := feedsOf(ctx)
	if f == nil {
		return stream{}, errReadOnlySubscriptions
	}
	if g := groupOf(ctx); g != nil {
		// The leader falling behind ends the group: its members are told
		// why (dedup.go).
		return stream{f: f, g: g, slow: func(err error) { g.leaderErr.Store(&err) }}, nil
	}
	ws, err := admit(ctx)
	if err != nil {
		return stream{}, err
	}
	if !ws {
		return stream{f: f}, nil
	}
	// gqlgen reads the subscription's errors after its channel is closed,
	// which happens after slow returns (package events).
	slow := func(err error) { transport.AddSubscriptionError(ctx, gqlerror.Errorf("%s", err.Error())) }
	return stream{f: f, slow: slow}, nil
}

// admit counts one more subscription on the websocket connection of ctx
// until ctx ends, or refuses the one past MaxSubscriptionsPerConnection;
// ws says whether ctx is a websocket connection's.
func admit(ctx context.Context) (ws bool, err error) {
	cs, ws := ctx.Value(connKey{}).(*connState)
	if !ws || cs == nil {
		return false, nil
	}
	if n := cs.running.Add(1); n > MaxSubscriptionsPerConnection {
		cs.running.Add(-1)
		return true, argErrorf("too many subscriptions on one connection: %d are running, the limit is %d (open another connection)", n-1, MaxSubscriptionsPerConnection)
	}
	context.AfterFunc(ctx, func() { cs.running.Add(-1) })
	return true, nil
}

// filter is accept (nil: every event) as s subscribes with it: a dedup
// group's leader counts the events it takes.
func filter[T any](s stream, accept func(T) bool) func(T) bool {
	if s.g == nil {
		return accept
	}
	return func(v T) bool {
		if accept != nil && !accept(v) {
			return false
		}
		s.g.accepted.Add(1)
		return true
	}
}

var errReadOnlySubscriptions = &argError{"this server has no subscriptions"}

// The subscriptions' channels are their events.Subscription's own: one
// value per event, shared by every subscriber, and no goroutine of ours
// between the publisher and gqlgen's sender (with dedup, the sender is a
// group's leader).

func (subscriptionResolver) PublicationAdded(ctx context.Context, mainAuthor *int64) (<-chan *PublicationEvent, error) {
	s, err := begin(ctx)
	if err != nil {
		return nil, err
	}
	var accept func(*PublicationEvent) bool
	if mainAuthor != nil {
		a := *mainAuthor
		accept = func(e *PublicationEvent) bool { return e.Publication.MainAuthor == a }
	}
	return s.f.publications.Subscribe(ctx, filter(s, accept), s.slow).C(), nil
}

func (subscriptionResolver) UndergraduateStudentAdded(ctx context.Context, advisor *int64) (<-chan *UndergraduateStudentEvent, error) {
	s, err := begin(ctx)
	if err != nil {
		return nil, err
	}
	var accept func(*UndergraduateStudentEvent) bool
	if advisor != nil {
		a := *advisor
		accept = func(e *UndergraduateStudentEvent) bool {
			return e.UndergraduateStudent.Advisor != nil && *e.UndergraduateStudent.Advisor == a
		}
	}
	return s.f.undergraduate.Subscribe(ctx, filter(s, accept), s.slow).C(), nil
}

// publishPublication and publishUndergraduate raise the event of a
// committed create: called after the write's transaction returned.
func publishPublication(ctx context.Context, p *source.Publication) { feedsOf(ctx).publication(p) }

func publishUndergraduate(ctx context.Context, s *source.UndergraduateStudent) {
	feedsOf(ctx).undergraduateStudent(s)
}

func (f *feeds) publication(p *source.Publication) {
	if f != nil && p != nil {
		at := committedAt(time.Now())
		f.publications.Publish(func(seq int64) *PublicationEvent {
			return &PublicationEvent{Seq: seq, CommittedAt: at, Publication: p}
		})
	}
}

func (f *feeds) undergraduateStudent(s *source.UndergraduateStudent) {
	if f != nil && s != nil {
		at := committedAt(time.Now())
		f.undergraduate.Publish(func(seq int64) *UndergraduateStudentEvent {
			return &UndergraduateStudentEvent{Seq: seq, CommittedAt: at, UndergraduateStudent: s}
		})
	}
}

// created raises the event of a create committed by the process's other
// API (server.Writes: the REST control's POSTs).
func (f *feeds) created(_ context.Context, e *write.Entity, row *write.Row) {
	switch e {
	case write.Publication:
		f.publication(row.Publication())
	case write.UndergraduateStudent:
		f.undergraduateStudent(row.UndergraduateStudent())
	}
}

// streams serves the subscriptions of an Executor: graphql-transport-ws
// (and the legacy graphql-ws) over websocket, and GraphQL over Server-Sent
// Events in its distinct connections mode, through gqlgen's transports, with
// their own gqlgen executor whose every response gets a fresh Source (a
// long-lived subscription must not keep one request's memo for ever). By
// default the identical subscriptions are executed once per event and the
// response fanned out (dedup.go); server.Config.NoSubscriptionDedup
// executes each for itself.
type streams struct {
	exec  *executor.Executor
	dedup *dedupSchema // nil: no deduplication
	feeds *feeds
	ws    transport.Websocket
	sse   transport.SSE
}

func newStreams(e *Executor, dedup bool) *streams {
	var es graphql.ExecutableSchema = NewExecutableSchema(Config{Resolvers: &Resolver{}})
	fresh := freshSource{f: e.factory, remote: e.remote}
	s := &streams{feeds: e.feeds, sse: transport.SSE{KeepAlivePingInterval: PingInterval}}
	if dedup {
		s.dedup = newDedup(es, fresh)
		es = s.dedup
		fresh.shared = true // the groups' leaders make the Sources
	}
	x := executor.New(es)
	x.SetQueryCache(newDocCache(docCacheSize))
	x.SetErrorPresenter(presentError)
	if e.remote.batch {
		x.Use(remoteBatcher{})
	}
	x.Use(fresh)
	s.exec = x
	limit := int64(64 << 10)
	s.ws = transport.Websocket{
		InitTimeout:      InitTimeout,
		PingPongInterval: PingInterval,
		PayloadReadLimit: &limit,
		InitFunc: func(ctx context.Context, _ transport.InitPayload) (context.Context, *transport.InitPayload, error) {
			return context.WithValue(ctx, connKey{}, &connState{}), nil, nil
		},
		ErrorFunc: func(context.Context, error) {}, // a client's broken connection is not the server's error
	}
	return s
}

// live is the number of subscriptions being served.
func (s *streams) live() int {
	if s.dedup != nil {
		n, _ := s.dedup.live()
		return n
	}
	return s.feeds.publications.Len() + s.feeds.undergraduate.Len()
}

// serve serves r, a subscription request (server.IsStream), with f's
// events.
func (s *streams) serve(w http.ResponseWriter, r *http.Request, f *feeds) {
	// gqlgen's own handler starts the operation's trace before its
	// transports run; CreateOperationContext needs it.
	r = r.WithContext(graphql.StartOperationTrace(context.WithValue(r.Context(), feedsKey{}, f)))
	if strings.EqualFold(r.Header.Get("Upgrade"), "websocket") {
		s.ws.Do(w, r, s.exec)
		return
	}
	if !s.sse.Supports(r) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnsupportedMediaType)
		fmt.Fprintln(w, `{"errors":[{"message":"a GraphQL over SSE request is a POST of application/json with Accept: text/event-stream"}]}`)
		return
	}
	s.sse.Do(w, r, s.exec)
}

// freshSource refuses queries and mutations over a stream (they are served
// over HTTP) and gives every response of a subscription a Source and a
// remote (remote.go) of its own — unless shared: then a dedup group's
// leader makes them, once per response it fans out.
type freshSource struct {
	f      source.Factory
	remote remoteConfig
	shared bool
}

var (
	_ graphql.HandlerExtension     = freshSource{}
	_ graphql.OperationInterceptor = freshSource{}
	_ graphql.ResponseInterceptor  = freshSource{}
)

func (freshSource) ExtensionName() string                   { return "freshSource" }
func (freshSource) Validate(graphql.ExecutableSchema) error { return nil }

func (freshSource) InterceptOperation(ctx context.Context, next graphql.OperationHandler) graphql.ResponseHandler {
	if oc := graphql.GetOperationContext(ctx); oc.Operation != nil && oc.Operation.Operation != ast.Subscription {
		return graphql.OneShot(&graphql.Response{Errors: gqlerror.List{gqlerror.Errorf(
			"%s operations are served over HTTP POST at /graphql, not over a subscription stream", oc.Operation.Operation)}})
	}
	return next(ctx)
}

func (x freshSource) InterceptResponse(ctx context.Context, next graphql.ResponseHandler) *graphql.Response {
	if x.shared {
		return next(ctx)
	}
	return next(x.forResponse(ctx))
}

// forResponse is ctx with a Source and a remote of its own.
func (x freshSource) forResponse(ctx context.Context) context.Context {
	return withRemote(withSource(ctx, x.f.ForRequest(ctx)), x.remote)
}
