// Package wire carries the load generator's requests to a server and its
// responses back: the requests made from a queries file's entries
// (Request, Requests), how they go on the wire (POST or GET, persisted
// queries, headers made anew per request), and the transports that send
// them (Transport, Conn, Response): gqlbench's own HTTP/1.1 client (HTTP:
// keep-alive, request bytes prepared once per query, no allocation per
// request, raw system calls on Linux) and its strict response parser; Go's
// net/http for HTTP/2 and h2c (StdHTTP); and plans carried out as REST or
// GraphQL calls, their answers projected and assembled into one (Plans).
// What a response may cost is bounded (Options: the largest response, a
// buffer budget of all connections together), and a failed exchange is
// classified (Classify) and said the same way every time (Reason).
//
// It keeps no engine state: no clock, schedule, mode, check or run file.
// Package drive (the engine, the modes, the job, golden answers, preflight)
// imports it; it must not import drive, nor any server, database or
// GraphQL code (a test enforces an allow-list of imports).
package wire
