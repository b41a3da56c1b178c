// Package measure records what a load generator sees, honestly and cheaply.
//
// Every worker (one simulated client or connection) owns a Recorder: per
// template, HDR histograms (3 significant digits, nanoseconds) of the query
// execution time (QET: send start → last byte), the query response time
// (QRT: send start → first byte) and, in open loop, the latency from the
// intended send time (coordinated omission corrected), plus counters
// (requests, errors by kind, wrong answers, late, dropped and overrun sends,
// bytes). Recording takes no lock: the worker writes into its active Set, and
// once per interval a Collector swaps every worker's Set for an empty one
// (HdrHistogram's writer–reader phaser: two atomic increments per record,
// the reader waits only for a record in progress, never for a request), and
// merges the swapped Sets into one Snapshot per template.
//
// Proc samples the CPU % and RSS of a process from /proc; SLO parses and
// checks latency objectives such as "p99<200ms"; RecordWriter writes
// per-request records in LinGBM's CSV columns.
package measure
