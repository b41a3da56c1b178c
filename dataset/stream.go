package dataset

import (
	"context"
	"runtime"
	"sync"
)

// Stage is a step of a Stream. Parallel stages run on worker goroutines, one
// batch each; the ordered stage sees the batches one at a time, pool first,
// then universities 0, 1, 2, ... A batch and its strings are valid only until
// the ordered stage returns; Batch.Out carries a parallel stage's result (an
// encoding, say) to the ordered stage.
type Stage func(*Batch) error

// Stream generates the whole dataset of c on workers goroutines (0: one per
// CPU) and hands every batch to parallel and then, in order, to ordered.
// Memory stays bounded: at most 2·workers batches exist at once. The first
// error from a stage, or ctx's, stops the stream and is returned.
func (c Config) Stream(ctx context.Context, workers int, parallel, ordered Stage) error {
	if err := c.Validate(); err != nil {
		return err
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)

	type job struct {
		b    *Batch
		unit int
		err  error
		done chan struct{}
	}
	window := 2 * workers
	free := make(chan *Batch, window)
	for i := 0; i < window; i++ {
		free <- new(Batch)
	}
	order := make(chan *job, window)
	todo := make(chan *job, window)

	go func() { // producer: hands out units in order, as batches come free
		defer close(order)
		defer close(todo)
		for unit := -1; unit < c.Scale; unit++ {
			var b *Batch
			select {
			case b = <-free:
			case <-ctx.Done():
				return
			}
			j := &job{b: b, unit: unit, done: make(chan struct{})}
			order <- j
			todo <- j
		}
	}()
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range todo {
				if ctx.Err() == nil {
					if j.unit < 0 {
						c.Pool(j.b)
					} else {
						c.University(j.unit, j.b)
					}
					j.b.Out = nil
					if parallel != nil {
						j.err = parallel(j.b)
					}
				}
				close(j.done)
			}
		}()
	}
	var err error
	for j := range order {
		<-j.done
		if err == nil {
			err = j.err
			if err == nil {
				err = ctx.Err()
			}
			if err == nil && ordered != nil {
				err = ordered(j.b)
			}
			if err != nil {
				cancel(err)
			}
		}
		free <- j.b
	}
	wg.Wait()
	return err
}
