package experiment

import (
	"context"
	"fmt"
	"time"

	"github.com/gqlbench/gqlbench/dataset"
	"github.com/gqlbench/gqlbench/server/inmem"
	"github.com/gqlbench/gqlbench/workload"
)

// oracle holds the in-memory dataset of one scale factor, to compute the
// expected answers of instances.
type oracle struct {
	meta *dataset.Meta
	data *inmem.Data
}

// newOracle generates the dataset meta describes into memory.
func (s *session) newOracle(ctx context.Context, meta *dataset.Meta) (*oracle, error) {
	t := time.Now()
	d, err := inmem.ForMeta(ctx, meta)
	if err != nil {
		return nil, fmt.Errorf("the oracle: %w", err)
	}
	s.logf("oracle sf=%d: the dataset in memory in %.1fs", meta.Scale, time.Since(t).Seconds())
	return &oracle{meta: meta, data: d}, nil
}

// expect gives every instance its expected answer.
func (o *oracle) expect(ctx context.Context, inst []workload.Instance) error {
	return inmem.Expect(ctx, o.data, inst)
}

// instances generates per instances of each template (all possible ones
// when fewer exist) with their expected answers.
func (s *session) instances(ctx context.Context, o *oracle, templates []int, per int, seed uint64) ([]workload.Instance, error) {
	inst, err := workload.Generate(o.meta, workload.Options{PerTemplate: per, Templates: templates, Seed: seed})
	if err != nil {
		return nil, err
	}
	if err := o.expect(ctx, inst); err != nil {
		return nil, err
	}
	return inst, nil
}

// templateIDs returns ids, or every template's when empty.
func templateIDs(ids []int) []int {
	if len(ids) > 0 {
		return ids
	}
	var all []int
	for _, t := range workload.Templates() {
		all = append(all, t.ID)
	}
	return all
}

// templateName is "QT5" for 5.
func templateName(id int) string { return fmt.Sprintf("QT%d", id) }
