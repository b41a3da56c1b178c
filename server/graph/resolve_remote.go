package graph

import (
	"context"

	"github.com/gqlbench/gqlbench/server/remoteapi"
	"github.com/gqlbench/gqlbench/server/source"
)

// The remote fields (workload/remote.graphql): answered by the remote
// service, one call per object (SINGLE) or one per field (BATCH, see
// remoteBatch), never by the database.

func (professorResolver) HIndex(ctx context.Context, p *Professor) (*int64, error) {
	return remoteValue(ctx, remoteapi.HIndex, p.Nr)
}

func (lecturerResolver) HIndex(ctx context.Context, l *Lecturer) (*int64, error) {
	return remoteValue(ctx, remoteapi.HIndex, l.Nr)
}

func (publicationResolver) CitationCount(ctx context.Context, p *source.Publication) (*int64, error) {
	return remoteValue(ctx, remoteapi.CitationCount, p.Nr)
}

func (universityResolver) Ranking(ctx context.Context, u *source.University) (*int64, error) {
	return remoteValue(ctx, remoteapi.Ranking, u.Nr)
}
