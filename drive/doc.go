// Package drive generates load against a GraphQL server and measures it
// honestly: LinGBM's test drivers (paper §4.4.3–4.4.4) done right.
//
// Modes:
//
//   - Closed: N clients, each sending its share of the queries one after
//     the other (the next when the previous answer is complete, after an
//     optional think time), for a duration, R runs of which the first is a
//     warm-up: LinGBM's throughput driver (aTPt, aTPw).
//   - Sequential: one connection, round-robin over the templates, every
//     query once per pass, P passes: LinGBM's QET/QRT driver (aQETq ± sd).
//   - Open: requests at a constant or Poisson arrival rate, whatever the
//     server does; latency from the intended send time (coordinated
//     omission corrected) beside the uncorrected one; late and dropped
//     sends counted.
//   - Ramp: users added at a rate (seed 003: +20/s) until errors or a
//     latency SLO break.
//   - Capacity: the highest open-loop rate that meets a latency SLO, found
//     by doubling then bisection, each step a point of the
//     latency–throughput curve.
//
// Every response is checked (or a stated fraction of them): HTTP status 200,
// no GraphQL errors, and the data equal to the oracle's answer when the
// query carries its hash. Requests travel on the transports of package
// wire (gqlbench's own HTTP/1.1 client, net/http for HTTP/2, REST and
// GraphQL plans), which knows nothing of the engine. Measurements go to
// package measure; results are written as a run file (package runfile).
//
// One verified run into one run file is a Job (see ExampleJob): the
// queries file's entries (package queryfile), where they go and how they
// are sent, how their answers are checked (the file's expected answers, a
// reference server's, or status only), the processes watched, and the run
// file's header. The CLI's load and the experiments make every run through
// it. Golden fetches the right answers from a trusted server once: the
// golden file later runs are checked against.
//
// The generator tells on itself: in every mode the summary says whether it,
// not the server, was the bottleneck (its own CPU; open-loop sends that
// left late with a connection free; closed-loop sends that waited on it
// after their client's answer), in open loop what share of the sends left
// on time (MinOnTime makes it a check), and how much the measured runs'
// throughput varied; with CI the runs are repeated until their mean is
// known to within it.
//
// Each mode is a ModeSpec registered in its own file; Modes lists them. A
// Config holds what every mode shares and the mode's own Settings, a type
// of the mode's (ClosedSettings, OpenSettings, ...: their defaults,
// validation, header and flags live on them), as k6 gives each executor
// its own config; ModeSpec.Settings makes them from load's flags' values
// (Params).
//
// The package shares no code with the servers and databases it measures,
// and links no GraphQL parser (a test enforces an allow-list of imports);
// it imports wire, never the other way round.
package drive
