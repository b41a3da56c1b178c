package inmem

import (
	"context"

	"github.com/gqlbench/gqlbench/server/graph"
	"github.com/gqlbench/gqlbench/server/remoteapi"
)

// Remote answers the remote fields (workload/remote.graphql) from their
// definition, remoteapi.Value over the dataset's seed, with no service to
// call: the oracle's answers, which every other server's must equal.
func (d *Data) Remote() graph.Remote { return localRemote{seed: d.Config.Seed} }

var _ graph.LocalRemote = (*Data)(nil)

type localRemote struct{ seed uint64 }

func (l localRemote) One(ctx context.Context, f remoteapi.Field, nr int64) (int64, error) {
	return remoteapi.Value(l.seed, f, nr), ctx.Err()
}

func (l localRemote) Many(ctx context.Context, f remoteapi.Field, nrs []int64) ([]int64, error) {
	out := make([]int64, len(nrs))
	for i, nr := range nrs {
		out[i] = remoteapi.Value(l.seed, f, nr)
	}
	return out, ctx.Err()
}
