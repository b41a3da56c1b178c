package workload_test

import (
	"context"
	"fmt"
	"log"
	"strings"

	"github.com/gqlbench/gqlbench/dataset"
	"github.com/gqlbench/gqlbench/workload"
)

// ExampleGenerate draws 100 instances of each template from the metadata of
// the sf=1 dataset, as `gqlbench queries --meta m.json --per-template 100
// --seed 1` does. The metadata comes from the generator itself here; from a
// file it is dataset.ReadMeta, from a database benchdb.ReadMeta.
func ExampleGenerate() {
	c := dataset.Config{Seed: 0, Scale: 1}
	mb := dataset.NewMetaBuilder(c)
	if err := c.Stream(context.Background(), 0, nil, func(b *dataset.Batch) error { mb.Add(b); return nil }); err != nil {
		log.Fatal(err)
	}

	inst, err := workload.Generate(mb.Meta(), workload.Options{PerTemplate: 100, Seed: 1})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(inst), "instances (templates with fewer possible instances give them all)")
	first := inst[0]
	t, _ := workload.TemplateByID(first.Template)
	fmt.Println(first.ID, t.Name, first.Variables)
	fmt.Println(strings.SplitN(first.Query, "\n", 2)[0]) // the template's text: only the variables vary
	// Output:
	// 1519 instances (templates with fewer possible instances give them all)
	// QT1-0001 QT1 map[facultyID:18054]
	// query QT1($facultyID: ID!) {
}
