package operation

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/gqlbench/gqlbench/queryfile"
)

// FuzzVars feeds arbitrary variables files, CSV or JSON lines, through the
// whole path: read, bind to the test operations (with and without the
// schema), build, write as a queries file and read it back. Errors are
// fine; a panic, a literal form that does not parse, or a queries file that
// does not read back is a bug.
func FuzzVars(f *testing.F) {
	f.Add([]byte("operation,id,first,order,text,limit\n,7,,,,\n,,5,DESC,,\nSearch,,,,\"a, b\",null\n"), true)
	f.Add([]byte("{\"id\": 7}\n{\"operation\":\"Users\",\"first\":null,\"order\":\"ASC\"}\n"), false)
	schema := testSchema(f)
	f.Fuzz(func(t *testing.T, data []byte, csv bool) {
		var vars *Vars
		var err error
		if csv {
			vars, err = ReadCSV(bytes.NewReader(data), "fuzz.csv")
		} else {
			vars, err = ReadJSONL(bytes.NewReader(data), "fuzz.jsonl")
		}
		if err != nil {
			return
		}
		for _, withSchema := range []bool{false, true} {
			set := mustParse(t, "ops.graphql", testOps)
			if withSchema {
				if err := set.Validate(schema); err != nil {
					t.Fatal(err)
				}
			}
			for _, literal := range []bool{false, true} {
				res, err := Build(set, vars, Options{Literal: literal})
				if err != nil {
					if strings.Contains(err.Error(), "does not parse") {
						t.Fatalf("schema %v: %v", withSchema, err)
					}
					continue
				}
				var b bytes.Buffer
				if err := queryfile.Write(&b, res.Entries); err != nil {
					t.Fatal(err)
				}
				back, err := queryfile.Read(&b)
				if err != nil || len(back) != len(res.Entries) {
					t.Fatalf("the queries file does not read back: %v", err)
				}
				for _, e := range back {
					if literal && len(e.Variables) > 0 || !literal && len(e.Variables) > 0 && !json.Valid(e.Variables) {
						t.Fatalf("%s: variables %s", e.ID, e.Variables)
					}
				}
			}
		}
	})
}
