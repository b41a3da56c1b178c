package server

import (
	"context"
	"net/http"
	"strings"
	"sync"

	"github.com/gqlbench/gqlbench/server/write"
)

// RESTControlRoot is where `serve VARIANT --rest-control` mounts the REST
// API beside the variant's GraphQL endpoint.
const RESTControlRoot = "/rest"

// WithRESTControl serves rest (the REST API's handler, which serves every
// path under RESTControlRoot) beside gql, in one process: requests under
// RESTControlRoot go to rest, every other one to gql (its /graphql, its
// /healthz). Seed 003's REST control is the baseline web API without the
// GraphQL library; mounted so, both APIs share one runtime, one garbage
// collector and one CPU budget, and only the API layer differs.
func WithRESTControl(gql, rest http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == RESTControlRoot || strings.HasPrefix(r.URL.Path, RESTControlRoot+"/") {
			rest.ServeHTTP(w, r)
			return
		}
		gql.ServeHTTP(w, r)
	})
}

// Writes relays the creates that one API of a process commits to the
// subscriptions that another serves: `serve VARIANT --rest-control` gives
// one to both (Config.Writes), and a create through the REST control then
// raises the GraphQL subscriptions' event as the GraphQL mutation does.
// Its methods are safe on a nil *Writes (no relay: nothing happens).
type Writes struct {
	mu        sync.RWMutex
	listeners []func(ctx context.Context, e *write.Entity, row *write.Row)
}

// Listen adds f, told of every create committed (Created) from now on.
// f must not block: it runs in the writer's request, after the commit.
func (w *Writes) Listen(f func(ctx context.Context, e *write.Entity, row *write.Row)) {
	if w == nil {
		return
	}
	w.mu.Lock()
	w.listeners = append(w.listeners, f)
	w.mu.Unlock()
}

// Created tells the listeners that row of entity e was created and its
// transaction committed.
func (w *Writes) Created(ctx context.Context, e *write.Entity, row *write.Row) {
	if w == nil {
		return
	}
	w.mu.RLock()
	defer w.mu.RUnlock()
	for _, f := range w.listeners {
		f(ctx, e, row)
	}
}

// Leak retains bytes of memory on every request that next serves, but for
// /healthz and MetricsPath, and never frees it: a server with a leak of a
// known rate, for testing a soak's leak verdict (serve
// --leak-bytes-per-request). bytes ≤ 0 returns next.
func Leak(next http.Handler, bytes int) http.Handler {
	if bytes <= 0 {
		return next
	}
	var mu sync.Mutex
	var kept [][]byte
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/healthz" && r.URL.Path != MetricsPath {
			b := make([]byte, bytes)
			for i := 0; i < len(b); i += 512 { // touched: resident, not only reserved
				b[i] = 1
			}
			mu.Lock()
			kept = append(kept, b)
			mu.Unlock()
		}
		next.ServeHTTP(w, r)
	})
}
