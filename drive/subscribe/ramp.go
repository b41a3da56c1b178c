package subscribe

import (
	"context"
	"fmt"

	"github.com/gqlbench/gqlbench/measure"
)

// Step is one step of a ramp: a whole run at one number of subscribers.
type Step struct {
	Subscribers int
	Result      *Result
}

// Ramp runs cfg at each number of subscribers in counts, in order, until a
// step's delivery latency breaks slo or the step is invalid; it returns the
// steps run and why it stopped ("" when every step met the SLO). Each step
// opens its connections anew.
func Ramp(ctx context.Context, cfg Config, counts []int, slo measure.SLO) ([]Step, string, error) {
	var steps []Step
	for _, n := range counts {
		c := cfg
		c.Subscribers = n
		r, err := Run(ctx, c)
		if err != nil {
			return steps, "", fmt.Errorf("ramp step of %d subscribers: %w", n, err)
		}
		steps = append(steps, Step{Subscribers: n, Result: r})
		if ok, why := r.Valid(); !ok {
			return steps, fmt.Sprintf("%d subscribers: invalid (%v)", n, why), nil
		}
		if ok, why := slo.Check(r.Latency); !ok {
			return steps, fmt.Sprintf("%d subscribers: %s", n, why), nil
		}
		if ctx.Err() != nil {
			return steps, "interrupted", nil
		}
	}
	return steps, "", nil
}
