package drive_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/gqlbench/gqlbench/drive"
	"github.com/gqlbench/gqlbench/queryfile"
	"github.com/gqlbench/gqlbench/runfile"
	"github.com/gqlbench/gqlbench/verify"
)

// ExampleJob runs one verified load into one run file: two queries of a
// server's own schema, their right answer given by its hash, sent in
// LinGBM's sequential mode (a warm-up pass, then two measured passes)
// against a server that answers as `gqlbench serve null` does.
func ExampleJob() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"data":{"__typename":"Query"}}`)
	}))
	defer srv.Close()

	right, _ := verify.Hash([]byte(`{"__typename":"Query"}`))
	entries := []queryfile.Entry{
		{ID: "a", Label: "Mine", Query: "query Mine { __typename }", Expect: right},
		{ID: "b", Label: "Theirs", Query: "{ __typename }", Expect: right},
	}
	var out bytes.Buffer
	job := drive.Job{
		Config:  drive.Config{Mode: drive.Sequential, Settings: drive.SequentialSettings{Passes: 2, WarmupPasses: 1}},
		Target:  srv.URL + "/graphql",
		Queries: &queryfile.File{Path: "mine.jsonl", Entries: entries},
		Check:   true, // Preflight: the target must answer GraphQL first
		Out:     func() (io.Writer, error) { return &out, nil },
	}
	sum, err := job.Run(context.Background())
	if err != nil {
		fmt.Println(err)
		return
	}
	f, _ := runfile.Read(&out)
	fmt.Println(sum.Status, f.Header.Mode, f.Header.Params.Check, f.Header.Queries.Templates)
	fmt.Println(sum.Total.Count, "answers,", sum.Total.Verified, "verified,", sum.Total.Wrong, "wrong")
	// Output:
	// ok sequential expect [Mine Theirs]
	// 4 answers, 4 verified, 0 wrong
}
