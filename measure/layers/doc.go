// Package layers reads where a GraphQL server says a request's time went,
// from what it sends with each response: a Server-Timing header (W3C
// Server Timing; every gqlbench GraphQL server with --trace: read, parse,
// validate, execute, db, write, total) or Apollo tracing in the body's
// extensions.tracing (gqlgen's apollotracing, envelop's useApolloTracing in
// graphql-yoga, Apollo Server 2's tracing, Strawberry, async-graphql,
// graphql-java, graphql-dotnet). An Acc adds the figures up per template
// (operation) without keeping the responses: sums and counts of each
// layer, beside the round trip the client measured, the first few
// requests' own figures (seed 002's per-iteration table), and for
// resolver-level tracing the fields that took the most time.
//
// It imports the standard library only: the load generator, the run file
// and the report use it, and it knows nothing of them or of the servers.
package layers
