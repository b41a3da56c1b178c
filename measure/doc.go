// Package measure records what a load generator sees, honestly and cheaply.
//
// Every worker (one simulated client or connection) records through a
// Recorder: per template, HDR histograms (3 significant digits, nanoseconds)
// of the query execution time (QET: send start → last byte), the query
// response time (QRT: send start → first byte) and, in open loop, the latency
// from the intended send time (coordinated omission corrected), plus counters
// (requests, errors by kind, wrong answers, late, dropped and overrun sends,
// bytes). The state is sharded by core, not by worker (as wrk2 keeps one
// histogram per thread, not per connection): a Collector has GOMAXPROCS
// shards and the recorders take them in turn, so its memory grows with the
// cores and the templates, never with the clients. A shard's recorders count
// with atomic adds into one buffer — HdrHistogram's own counts array,
// allocated a bucket at a time — and take no lock. Once per interval the
// Collector swaps each shard's buffer for an empty one, waiting only for
// the records in progress in it (a record registers on the buffer, then
// checks it is still the active one), and drains it into one Snapshot per
// template of Hists: the same counts array, with the span that holds
// counts, from which the run file's encodings, the summary's sums and the
// progress line's quantiles are read in one pass each (Histogram gives
// hdrhistogram-go's histogram of the same counts, exactly).
//
// Proc samples the CPU % and RSS of a process from /proc; SLO parses and
// checks latency objectives such as "p99<200ms"; RecordWriter writes
// per-request records in LinGBM's CSV columns.
package measure
