package report_test

import (
	"fmt"
	"log"
	"os"

	"github.com/gqlbench/gqlbench/report"
)

// ExampleBuild compares two servers' closed-loop runs on QT3 (real run files
// of naive and batch over SQLite sf=1), as `gqlbench report
// testdata/naive-qt3.jsonl testdata/batch-qt3.jsonl --fail-if wrong>0`
// does: every figure recomputed from the files' intervals, the terminal
// summary, and a CI gate. Write renders the whole report (html, md, csv, json).
func ExampleBuild() {
	runs, err := report.ReadRuns("testdata/naive-qt3.jsonl", "testdata/batch-qt3.jsonl")
	if err != nil {
		log.Fatal(err)
	}
	rep, err := report.Build(runs, report.Options{Title: "naive vs batch"})
	if err != nil {
		log.Fatal(err)
	}
	rep.Summary(os.Stdout)

	gate, err := report.ParseThresholds("wrong>0,errors>0")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(rep.Check(gate)), "threshold violations")
	// Output:
	// throughput/s, mean ± sd over the measured runs (ratio to naive):
	//   template          naive                  batch
	//        QT3  4526.0 ± 87.7  2868.0 ± 48.1 (0.63×)
	// naive is faster than batch on QT3, by 1.58×.
	// 2 run files, 21,722 answers verified, 0 wrong, 0 errors. How the answers were checked: compared with the benchmark's expected answers, computed from its generated dataset. 2 series; warm-up runs excluded from throughput and latency, counted in correctness.
	// 0 threshold violations
}
