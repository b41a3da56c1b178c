// Package experiment runs the studies of the LinGBM paper (seeds/000 §6.2
// and §6.3) and gqlbench's quickstart as one call each. An experiment
// orchestrates the stages that the commands also offer one by one:
//
//	gen      the dataset of every scale factor into SQLite files, a throwaway
//	         local PostgreSQL cluster or a PostgreSQL server (store.Fill)
//	queries  template instances with the oracle's expected answers
//	         (workload.Generate, workload.GenerateMix, inmem.Expect), written
//	         as queries files beside the results
//	serve    every server variant in a process of its own (`gqlbench serve`,
//	         started from Common.Exe), checked through /healthz, stopped with
//	         SIGTERM
//	load     closed-loop and sequential runs (drive.Run), every answer
//	         verified, one run file each, labelled so that reports group them:
//	         server, sf, pool, clients, workload, db
//	report   report.html and report.md over every run file (package report)
//
// On a machine of two CPUs or more the servers (and the local PostgreSQL)
// are pinned to one CPU and the load generator to another, so that the two
// do not compete; Config discloses it. A server that dies ends its
// variant's runs, with the tail of its log in the error, and the experiment
// goes on with the others; an interrupted experiment (its context
// cancelled) stops its servers and reports what it measured. No server
// process outlives an experiment: each one is stopped on every path, and
// killed by the kernel should this process die first (Linux).
//
// Each study registers itself from its file's init (Register): its name,
// help, flags and their checks. `gqlbench experiment` is built from the
// registry (List), so adding a study is adding its file.
//
// The health experiments (overhead, max-throughput, soak, subscriptions)
// also give their pass/fail lines as Result.Verdicts; Suite (`gqlbench
// suite VARIANT`) runs them for one variant and gathers the lines into one
// table, with thresholds (--fail-if) and exit codes for CI.
package experiment
