// Package interop moves a gqlbench workload to other load tools and their
// results back: Export writes a queries file (package queryfile: the
// benchmark's templates or a user's own operations) as a JMeter test plan,
// a k6 script or a locustfile, each checking every answer as `gqlbench
// load` does (HTTP 200, no GraphQL errors, the canonical hash of the data —
// package verify's, reimplemented in Groovy, JavaScript and Python and
// tested against it); Import reads what those tools write (JMeter's CSV
// JTL, k6's CSV output, the locustfile's samples file) into a run file
// (package runfile) whose intervals hold HDR histograms of the tool's own
// per-request samples, so `gqlbench report` compares runs of any tool.
//
// Secrets never enter an exported file: a header whose value is secret is
// read from an environment variable when the tool runs. See docs/interop.md.
//
// It imports queryfile, verify and runfile, and must not import the load
// generator (drive), the servers, the stores or the command line.
package interop
