package dataset_test

import (
	"context"
	"fmt"
	"log"

	"github.com/gqlbench/gqlbench/dataset"
)

// ExampleConfig_Stream generates the sf=1 dataset in memory, without a
// database, and builds its metadata and fingerprint from the batches: what
// store.Fill does on the way to a database, and how tests get the metadata
// the query generator draws from.
func ExampleConfig_Stream() {
	c := dataset.Config{Seed: 0, Scale: 1}
	mb := dataset.NewMetaBuilder(c)
	var fp dataset.Fingerprint
	err := c.Stream(context.Background(), 0, nil, func(b *dataset.Batch) error {
		mb.Add(b) // the ordered stage: pool first, then universities 0, 1, ...
		fp.AddBatch(b)
		return nil
	})
	if err != nil {
		log.Fatal(err)
	}
	meta := mb.Meta()
	fmt.Println(meta.TotalRows(), "rows,", len(meta.IDs["departmentID"]), "departments")
	g := fp[dataset.GraduateStudent]
	fmt.Printf("graduateStudent: %d rows, sum %016x\n", g.Rows, g.Sum)
	// Output:
	// 55028 rows, 19 departments
	// graduateStudent: 2400 rows, sum b071f1eae0176d78
}
