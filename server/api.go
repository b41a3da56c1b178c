package server

import (
	"context"
	"fmt"
	"io"
	"net/http"
)

// API serves h, the handler of a variant with an API of its own
// (Variant.OpenAPI), with /healthz answered as Handler answers it: 200
// "ok", or 503 when h is a Pinger whose Ping fails, with the
// Gqlbench-Variant header o.Variant. Every other path goes to h.
func API(h http.Handler, o HTTPOptions) http.Handler {
	o = o.withDefaults()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/healthz" {
			healthz(w, r, h, o)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// Start opens variant v with c and returns the handler that serves it with
// o (Handler over a GraphQL variant's Executor, API over another's
// handler) and what releases it (nil when nothing needs releasing).
func Start(ctx context.Context, v Variant, c Config, o HTTPOptions) (http.Handler, io.Closer, error) {
	switch {
	case v.Open != nil:
		e, err := v.Open(ctx, c)
		if err != nil {
			return nil, nil, err
		}
		cl, _ := e.(io.Closer)
		return Handler(e, o), cl, nil
	case v.OpenAPI != nil:
		h, err := v.OpenAPI(ctx, c, o.withDefaults())
		if err != nil {
			return nil, nil, err
		}
		cl, _ := h.(io.Closer)
		return API(h, o), cl, nil
	}
	return nil, nil, fmt.Errorf("variant %s has neither Open nor OpenAPI", v.Name)
}
