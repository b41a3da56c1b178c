// Package runfile is the run file of DESIGN §3.5, the contract between
// `gqlbench load` and everything that reads its results: JSON lines, one
// object per line, each with a "type".
//
//	{"type":"header",...}    everything needed to reproduce the run (first line)
//	{"type":"interval",...}  per template: counters and HDR histograms of one tick
//	{"type":"step",...}      a capacity-search step: one point of the latency–throughput curve
//	{"type":"query",...}     sequential mode: aQETq ± sd and aQRTq ± sd of one query
//	{"type":"summary",...}   the totals (last line; recomputable from the intervals)
//
// Histograms are HdrHistogram's standard V2 compressed encoding in base64
// (what hdrhistogram-go's Encode(V2CompressedEncodingCookieBase) and every
// other HdrHistogram library read), all of one configuration (1 ns to 1 h,
// 3 significant digits), so intervals, runs and the files of parallel load
// generators merge exactly. A Writer flushes every line as it is written, so
// a file cut short (a crashed server, Ctrl-C, a killed driver) is valid up to
// its last complete line; Read accepts that and Summarize recomputes the
// totals from the intervals.
//
// docs/runfile.md documents every line and field, and
// runfile/schema/gqlbench-run-1.schema.json is its JSON Schema, which the
// tests validate every run file they write against.
//
// Versions. The header's "format" is gqlbench-run/N (Format, Version). A
// change that a reader of version N reads correctly while ignoring what it
// does not know keeps N: a new optional field, whose absence means what
// it meant before. Readers therefore accept fields they do not know, and
// ignore them. Any change that such a reader would misread bumps N: a
// field removed, renamed or whose type, unit or meaning changes, a field
// that becomes required, a value older readers would take for something
// else, a new line type (Read rejects unknown types, to catch typos). Read refuses a file of a newer version, saying so, rather
// than guess. Adding a field: add it here with omitempty, to the schema
// and to docs/runfile.md.
package runfile
