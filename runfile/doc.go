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
package runfile
