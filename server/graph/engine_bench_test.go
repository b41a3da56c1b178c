package graph_test

import (
	"context"
	"sync"
	"testing"

	"github.com/gqlbench/gqlbench/dataset"
	"github.com/gqlbench/gqlbench/enginebench"
)

// fixture is the sf=1 dataset in memory with the oracle's answers, made
// once for the benchmarks.
var fixture = sync.OnceValues(func() (*enginebench.Fixture, error) {
	return enginebench.NewFixture(context.Background(), dataset.Config{Scale: 1})
})

// BenchmarkEngine is gqlgen's engine in isolation (seed 003): parse,
// validate and execute of every shape over the in-memory dataset, each
// execute's JSON checked against the oracle's inside the loop. `gqlbench
// bench engine` runs the same operations and writes them to an engine file:
//
//	go test ./server/graph -run '^$' -bench 'Engine/list-100/' -benchmem
func BenchmarkEngine(b *testing.B) {
	f, err := fixture()
	if err != nil {
		b.Fatal(err)
	}
	for _, s := range f.Shapes {
		ops, err := enginebench.GqlgenOps(f, f.Data, s)
		if err != nil {
			b.Fatal(err)
		}
		for _, phase := range []string{enginebench.Parse, enginebench.Validate, enginebench.Execute} {
			op := ops[phase]
			b.Run(s.Name+"/"+phase, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if err := op(); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
