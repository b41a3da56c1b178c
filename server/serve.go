package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"time"
)

// ShutdownGrace is how long Serve lets in-flight requests finish after its
// context is cancelled: longer than the default request timeout, so that
// every request either completes or times out on its own.
const ShutdownGrace = DefaultTimeout + 15*time.Second

// ReadHeaderTimeout is how long a connection may take to deliver a
// request's headers, counted from its first byte (see ServeAt).
const ReadHeaderTimeout = time.Minute

// Serve serves h on addr (HOST:PORT; port 0 picks a free one) until ctx is
// cancelled, then shuts down gracefully: it stops accepting connections, lets
// in-flight requests finish (up to ShutdownGrace) and returns nil. It logs
// "serving on http://ADDR/graphql" with the actual address to log once it
// listens. Keep-alive is on: load generators reuse their connections.
func Serve(ctx context.Context, addr string, h http.Handler, logw io.Writer) error {
	return ServeAt(ctx, addr, "/graphql", h, logw)
}

// ServeAt is Serve for an API under root (a path, e.g. "/rest"): it logs
// "serving on http://ADDR" + root.
func ServeAt(ctx context.Context, addr, root string, h http.Handler, logw io.Writer) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("cannot listen on %s: %w", addr, err)
	}
	srv := &http.Server{
		Handler: h,
		// HTTP/1.1, and HTTP/2 without TLS (h2c, prior knowledge) for the
		// clients that speak it (load --http2): seed 001 credits part of
		// REST's speed to HTTP/2's multiplexing.
		Protocols: protocols(),
		// ReadHeaderTimeout bounds a slow client's headers; it is checked
		// when the connection's goroutine reads, not when the bytes arrive.
		// At 10 s, inmem on one core with 1,000 connections reset dozens of
		// clients whose whole request had long arrived: their goroutines
		// waited over 10 s to run (bench/connections.sh). A minute, like
		// ReadTimeout, still ends a client that never finishes its headers.
		ReadHeaderTimeout: ReadHeaderTimeout,
		// ReadTimeout covers headers and body; a body is at most a few MiB.
		ReadTimeout: time.Minute,
		// No WriteTimeout: it would count from the end of the headers, so it
		// would have to exceed any request timeout the handler is given, and
		// the handler bounds its own time.
		IdleTimeout: 5 * time.Minute, // between a driver's runs
		ErrorLog:    log.New(logw, "serve: ", 0),
	}
	fmt.Fprintf(logw, "serving on http://%s%s\n", ln.Addr(), root)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served: // only Shutdown makes Serve return ErrServerClosed
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	fmt.Fprintln(logw, "shutting down: waiting for in-flight requests")
	sctx, cancel := context.WithTimeout(context.Background(), ShutdownGrace)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		srv.Close()
		return fmt.Errorf("shutdown: requests still in flight after %v were cut off: %w", ShutdownGrace, err)
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve: %w", err)
	}
	fmt.Fprintln(logw, "stopped")
	return nil
}

// protocols are HTTP/1.1 and unencrypted HTTP/2.
func protocols() *http.Protocols {
	var p http.Protocols
	p.SetHTTP1(true)
	p.SetUnencryptedHTTP2(true)
	return &p
}
