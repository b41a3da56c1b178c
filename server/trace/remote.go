package trace

import (
	"context"
	"time"
)

// Remote records one call to the remote service of the remote custom
// fields (server/remoteapi) that ended now after d, if ctx carries Stats:
// seed 002's breakdown takes the remote calls out of the GraphQL layer's
// time.
func Remote(ctx context.Context, d time.Duration) {
	if s := From(ctx); s != nil {
		end := Now()
		s.mu.Lock()
		s.remote = append(s.remote, span{end - d, end})
		s.mu.Unlock()
	}
}

// RemoteCalls is the number of remote calls recorded.
func (s *Stats) RemoteCalls() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return int64(len(s.remote))
}

// RemoteTime is the wall time during which at least one remote call was
// running: the concurrent calls of SINGLE count once together, as
// concurrent statements do in DBTime.
func (s *Stats) RemoteTime() time.Duration { return s.Totals().RemoteTime }
