// Package remoteapi is the remote HTTP service behind the benchmark's remote
// custom fields (seed 002's @custom fields in Dgraph): `gqlbench serve
// remote-api`, and the client the GraphQL variants call it with.
//
// The service answers three fields, each a pure function of an object's nr
// and the dataset's seed (Value), so the oracle knows every answer without
// calling it:
//
//	Publication.citationCount  GET /v1/citation-count/NR
//	University.ranking         GET /v1/ranking/NR
//	Faculty.hIndex             GET /v1/h-index/NR
//
// GET answers one object ({"id":"NR","value":V}); POST to the same path
// without NR answers many in one call: {"ids":["1","2"]} gives
// {"values":[{"id":"1","value":V1},{"id":"2","value":V2}]} in the order
// asked. A call waits the configured latency (fixed, or lognormal with a
// median and a p99, seeded) and fails (503) at the configured rate. GET
// /stats gives the calls answered so far (single, batch, keys, failures,
// per field): the remote calls per GraphQL request that tests and `gqlbench
// experiment remote-fields` read.
//
// Client calls it: one call per object (Client.One, SINGLE) or one call for
// many keys (Client.Many, BATCH), over one shared keep-alive HTTP client
// with a connection limit, or a new client and connection per call (what
// seed 002 found to be Dgraph's largest cost).
//
// Package remoteapi imports package server (its registry and config) and
// benchdb (the dataset's seed); it must not import the GraphQL layer
// (server/graph), a variant, or anything of the load generator.
package remoteapi
