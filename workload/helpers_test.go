package workload

import (
	"context"
	"sync"
	"testing"

	"github.com/gqlbench/gqlbench/dataset"
)

var (
	metaMu    sync.Mutex
	metaCache = map[int]*dataset.Meta{}
)

// testMeta returns the metadata of the dataset (seed 0, scale sf), built by
// the generator itself (no files), once per test binary.
func testMeta(t testing.TB, sf int) *dataset.Meta {
	t.Helper()
	metaMu.Lock()
	defer metaMu.Unlock()
	if m := metaCache[sf]; m != nil {
		return m
	}
	c := dataset.Config{Seed: 0, Scale: sf}
	mb := dataset.NewMetaBuilder(c)
	if err := c.Stream(context.Background(), 0, nil, func(b *dataset.Batch) error { mb.Add(b); return nil }); err != nil {
		t.Fatal(err)
	}
	metaCache[sf] = mb.Meta()
	return metaCache[sf]
}
