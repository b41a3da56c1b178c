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

// begin admits one more subscription on the connection of ctx, if any, and
// returns the function that reports a slow subscriber's end to the client.
func begin(ctx context.Context) (*feeds, func(error), error) {
	f := feedsOf(ctx)
	if f == nil {
		return nil, nil, errReadOnlySubscriptions
	}
	cs, ws := ctx.Value(connKey{}).(*connState)
	if !ws {
		return f, nil, nil
	}
	if n := cs.running.Add(1); n > MaxSubscriptionsPerConnection {
		cs.running.Add(-1)
		return nil, nil, argErrorf("too many subscriptions on one connection: %d are running, the limit is %d (open another connection)", n-1, MaxSubscriptionsPerConnection)
	}
	context.AfterFunc(ctx, func() { cs.running.Add(-1) })
	// gqlgen reads the subscription's errors after its channel is closed,
	// which happens after slow returns (package events).
	slow := func(err error) { transport.AddSubscriptionError(ctx, gqlerror.Errorf("%s", err.Error())) }
	return f, slow, nil
}

var errReadOnlySubscriptions = &argError{"this server has no subscriptions"}

// The subscriptions' channels are their events.Subscription's own: one
// value per event, shared by every subscriber, and no goroutine of ours
// between the publisher and gqlgen's sender.

func (subscriptionResolver) PublicationAdded(ctx context.Context, mainAuthor *int64) (<-chan *PublicationEvent, error) {
	f, slow, err := begin(ctx)
	if err != nil {
		return nil, err
	}
	var accept func(*PublicationEvent) bool
	if mainAuthor != nil {
		a := *mainAuthor
		accept = func(e *PublicationEvent) bool { return e.Publication.MainAuthor == a }
	}
	return f.publications.Subscribe(ctx, accept, slow).C(), nil
}

func (subscriptionResolver) UndergraduateStudentAdded(ctx context.Context, advisor *int64) (<-chan *UndergraduateStudentEvent, error) {
	f, slow, err := begin(ctx)
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
	return f.undergraduate.Subscribe(ctx, accept, slow).C(), nil
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
// long-lived subscription must not keep one request's memo for ever).
type streams struct {
	exec *executor.Executor
	ws   transport.Websocket
	sse  transport.SSE
}

func newStreams(e *Executor) *streams {
	x := executor.New(NewExecutableSchema(Config{Resolvers: &Resolver{}}))
	x.SetQueryCache(newDocCache(docCacheSize))
	x.SetErrorPresenter(presentError)
	if e.remote.batch {
		x.Use(remoteBatcher{})
	}
	x.Use(freshSource{e.factory, e.remote})
	limit := int64(64 << 10)
	s := &streams{exec: x, sse: transport.SSE{KeepAlivePingInterval: PingInterval}}
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
// remote (remote.go) of its own.
type freshSource struct {
	f      source.Factory
	remote remoteConfig
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
	return next(withRemote(withSource(ctx, x.f.ForRequest(ctx)), x.remote))
}
