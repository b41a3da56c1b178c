// Package subscribe is the subscription load of `gqlbench load --mode
// subscribe` (issue 25 item 4): N subscriber connections speaking
// graphql-transport-ws, K subscriptions on each, and a publisher issuing
// the mutations that raise the events at a constant rate. Every event each
// subscription receives is checked: its payload against what the mutation
// that raised it implies, its delivery latency (the commit time the event
// carries, or the mutation's send time, to its receipt: one machine, one
// clock) recorded in an HDR histogram, and, per subscription, events lost,
// delivered twice or out of order counted. Zero loss, duplicates and
// reorders is the run's validity gate: Result.Valid says so, with why.
// A user's API is driven through the Ops workload, whose events can also be
// recorded as a golden stream and later runs compared with it (Golden).
//
// Memory is the design constraint: one goroutine per connection (it reads,
// answers pings and writes its few subscribe messages itself), messages read
// through buffers pooled across connections, per subscription a bitset of
// the events received and a few counters, and the latency histograms
// sharded by core, not per connection. Connection drops and reconnects are
// counted; connections that never read (Config.Stalled) show that a slow
// subscriber does not stall the others.
//
// Like package drive it shares no code with the servers it measures: it
// imports no server, database or GraphQL parser code (a test enforces it).
package subscribe
