package compiled_test

import (
	"context"
	"errors"
	"testing"

	"github.com/gqlbench/gqlbench/dataset"
	"github.com/gqlbench/gqlbench/enginebench"
)

// BenchmarkEngine is the compiled variant's compile step in isolation
// (seed 003): every shape's statement compiled on a cache miss and found
// on a hit, with no database; each output must equal the statement that
// answered right on an SQLite copy of the dataset (checked once, before
// timing). `gqlbench bench engine` runs the same operations:
//
//	go test ./server/compiled -run '^$' -bench 'Engine/QT5/' -benchmem
func BenchmarkEngine(b *testing.B) {
	ctx := context.Background()
	f, err := enginebench.NewFixture(ctx, dataset.Config{Scale: 1})
	if err != nil {
		b.Fatal(err)
	}
	st, err := enginebench.CheckStatements(ctx, f, b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	for _, s := range f.Shapes {
		ops, err := enginebench.CompiledOps(st, s)
		if err != nil {
			if errors.Is(err, enginebench.ErrNotApplicable) {
				continue
			}
			b.Fatal(err)
		}
		for _, phase := range []string{enginebench.CompileMiss, enginebench.CompileHit} {
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
