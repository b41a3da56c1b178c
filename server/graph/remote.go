package graph

import (
	"context"
	"errors"
	"io"
	"strconv"
	"sync"

	"github.com/99designs/gqlgen/graphql"

	"github.com/gqlbench/gqlbench/server"
	"github.com/gqlbench/gqlbench/server/remoteapi"
)

// Remote answers the remote fields (workload/remote.graphql): the remote
// service's client (remoteapi.Client), or a source of its own (inmem, the
// oracle, computes the values).
type Remote interface {
	// One answers field f of object nr: one call.
	One(ctx context.Context, f remoteapi.Field, nr int64) (int64, error)
	// Many answers field f of the objects nrs, in their order: one call.
	Many(ctx context.Context, f remoteapi.Field, nrs []int64) ([]int64, error)
}

// LocalRemote is a source.Factory that answers the remote fields itself;
// NewExecutor then calls no service.
type LocalRemote interface {
	Remote() Remote
}

// remoteConfig is how an executor answers the remote fields.
type remoteConfig struct {
	remote Remote // nil: no remote service configured
	batch  bool   // BATCH (one call per field) rather than SINGLE (one per object)
	err    error  // why there is no remote, when configured wrong
	close  func()
}

// newRemote returns the remote configuration of an executor over f with c.
func newRemote(f any, c server.Config) remoteConfig {
	if l, ok := f.(LocalRemote); ok {
		return remoteConfig{remote: l.Remote()}
	}
	if c.Remote.URL == "" {
		return remoteConfig{err: errors.New("no remote service is configured: serve the variant with --remote-url (gqlbench serve remote-api)")}
	}
	cl, err := remoteapi.NewClient(c.Remote)
	if err != nil {
		return remoteConfig{err: err}
	}
	return remoteConfig{remote: cl, batch: c.Remote.Mode == server.RemoteBatch, close: cl.Close}
}

type remoteKey struct{}

// requestRemote is a request's way to the remote fields; batch is its
// BATCH state (nil in SINGLE).
type requestRemote struct {
	remoteConfig
	batch *remoteBatch
}

// withRemote returns ctx carrying rc's remote for one request.
func withRemote(ctx context.Context, rc remoteConfig) context.Context {
	r := &requestRemote{remoteConfig: rc}
	if rc.batch && rc.remote != nil {
		r.batch = &remoteBatch{ctx: ctx, remote: rc.remote, index: map[remoteapi.Field]map[int64]int{}}
	}
	return context.WithValue(ctx, remoteKey{}, r)
}

// remoteError is a remote field's failure: a field error on that field
// alone, with partial data and HTTP 200, never the request's failure.
type remoteError struct {
	field string // Type.field
	err   error
}

func (e *remoteError) Error() string { return e.field + ": " + e.err.Error() }
func (e *remoteError) Unwrap() error { return e.err }

// fieldName is the field being resolved in ctx, as Type.field.
func fieldName(ctx context.Context) string {
	if fc := graphql.GetFieldContext(ctx); fc != nil {
		return fc.Object + "." + fc.Field.Name
	}
	return "a remote field"
}

// remoteValue resolves remote field f of object nr. In SINGLE it calls the
// service now, once for this object; in BATCH it leaves the value to the
// field's interceptor (remoteBatch), which records the key here.
func remoteValue(ctx context.Context, f remoteapi.Field, nr int64) (*int64, error) {
	r, _ := ctx.Value(remoteKey{}).(*requestRemote)
	switch {
	case r == nil:
		return nil, &remoteError{fieldName(ctx), errors.New("no remote service is configured")}
	case r.remote == nil:
		return nil, &remoteError{fieldName(ctx), r.err}
	}
	if s, ok := ctx.Value(slotKey{}).(*remoteSlot); ok {
		s.f, s.nr, s.set = f, nr, true
		return nil, nil
	}
	v, err := r.remote.One(ctx, f, nr)
	if err != nil {
		return nil, &remoteError{fieldName(ctx), err}
	}
	return &v, nil
}

type slotKey struct{}

// remoteSlot is where a remote field's resolver leaves its key in BATCH.
type remoteSlot struct {
	f   remoteapi.Field
	nr  int64
	set bool
}

// remoteBatch is a request's remote keys in BATCH: every remote field of
// the request is answered by one call per field with all its keys (each
// once), made when the response is written, that is once every level has
// been resolved: at most one call per level and field, as Dgraph's BATCH
// and DataLoader, and one per field however many levels ask it.
type remoteBatch struct {
	ctx    context.Context
	remote Remote

	mu    sync.Mutex
	keys  [remoteapi.NumFields][]int64
	index map[remoteapi.Field]map[int64]int // key → position in keys[f]

	once sync.Once
	vals [remoteapi.NumFields][]int64
	errs [remoteapi.NumFields]error
}

// add records key nr of field f.
func (b *remoteBatch) add(f remoteapi.Field, nr int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	m := b.index[f]
	if m == nil {
		m = map[int64]int{}
		b.index[f] = m
	}
	if _, ok := m[nr]; !ok {
		m[nr] = len(b.keys[f])
		b.keys[f] = append(b.keys[f], nr)
	}
}

// fetch makes the request's calls, one per field with keys, concurrently.
func (b *remoteBatch) fetch() {
	var wg sync.WaitGroup
	for _, f := range remoteapi.Fields {
		if len(b.keys[f]) == 0 {
			continue
		}
		wg.Go(func() {
			b.vals[f], b.errs[f] = b.remote.Many(b.ctx, f, b.keys[f])
		})
	}
	wg.Wait()
}

// value is field f of object nr once fetched.
func (b *remoteBatch) value(f remoteapi.Field, nr int64) (int64, error) {
	b.once.Do(b.fetch)
	if err := b.errs[f]; err != nil {
		return 0, err
	}
	return b.vals[f][b.index[f][nr]], nil
}

// remoteBatcher is the field interceptor of BATCH: a remote field's value
// becomes a marshaler that writes it once the request's calls are made.
type remoteBatcher struct{}

var (
	_ graphql.HandlerExtension = remoteBatcher{}
	_ graphql.FieldInterceptor = remoteBatcher{}
)

func (remoteBatcher) ExtensionName() string                   { return "RemoteBatch" }
func (remoteBatcher) Validate(graphql.ExecutableSchema) error { return nil }

func (remoteBatcher) InterceptField(ctx context.Context, next graphql.Resolver) (any, error) {
	r, _ := ctx.Value(remoteKey{}).(*requestRemote)
	fc := graphql.GetFieldContext(ctx)
	if r == nil || r.batch == nil || fc == nil || !fc.IsResolver {
		return next(ctx)
	}
	if _, ok := remoteapi.FieldByName(fc.Field.Name); !ok {
		return next(ctx)
	}
	s := &remoteSlot{}
	res, err := next(context.WithValue(ctx, slotKey{}, s))
	if err != nil || !s.set {
		return res, err
	}
	r.batch.add(s.f, s.nr)
	// gqlgen takes a graphql.Marshaler from the middleware as the field's
	// value as it is: it is written after every level has run.
	return &lazyRemote{ctx: ctx, b: r.batch, f: s.f, nr: s.nr}, nil
}

// lazyRemote is a remote field's value in BATCH.
type lazyRemote struct {
	ctx context.Context // the field's, for its error's path
	b   *remoteBatch
	f   remoteapi.Field
	nr  int64
}

func (l *lazyRemote) MarshalGQL(w io.Writer) {
	v, err := l.b.value(l.f, l.nr)
	if err != nil {
		graphql.AddError(l.ctx, &remoteError{fieldName(l.ctx), err})
		io.WriteString(w, "null")
		return
	}
	io.WriteString(w, strconv.FormatInt(v, 10))
}
