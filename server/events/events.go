// Package events is the in-process publish/subscribe of the reference
// servers' subscriptions: a write publishes an event after its transaction
// commits, and every subscription whose filter accepts it gets it, in
// publication order, through a bounded buffer of its own. Publishing never
// waits for a subscriber: one that lets its buffer fill up (a client that
// stops reading) is ended with ErrSlow, and the others go on.
//
// It imports only the standard library; it must not import the GraphQL
// layer, the database code or anything of the load generator.
package events

import (
	"context"
	"fmt"
	"sync"
)

// DefaultBuffer is the number of events a subscription may have pending
// (published, not yet taken by its sender) before it is ended as too slow.
const DefaultBuffer = 256

// Hub numbers the events of one server: every Topic made on it shares its
// sequence, so seq orders the server's events of all kinds.
type Hub struct {
	mu  sync.Mutex
	seq int64
}

// Topic is a stream of events of one kind, of values T: one value per
// event, shared by every subscriber (read-only once published).
type Topic[T any] struct {
	hub    *Hub
	buffer int
	subs   map[*Subscription[T]]struct{}
}

// NewTopic returns a topic of h whose subscriptions hold at most buffer
// pending events (0: DefaultBuffer).
func NewTopic[T any](h *Hub, buffer int) *Topic[T] {
	if buffer <= 0 {
		buffer = DefaultBuffer
	}
	return &Topic[T]{hub: h, buffer: buffer, subs: map[*Subscription[T]]struct{}{}}
}

// Subscription receives the events of a topic that its filter accepts.
type Subscription[T any] struct {
	c      chan T
	accept func(T) bool
	slow   func(error) // called, under the hub's lock, before C is closed as too slow
	err    error
}

// C delivers the events; it is closed when the subscription ends: its
// context ended, or it was too slow (Err then says so).
func (s *Subscription[T]) C() <-chan T { return s.c }

// Err is ErrSlow after C was closed because the subscriber fell behind;
// nil otherwise. Read it only after C is closed.
func (s *Subscription[T]) Err() error { return s.err }

// ErrSlow ends a subscription whose buffer is full.
type ErrSlow struct{ Buffer int }

func (e *ErrSlow) Error() string {
	return fmt.Sprintf("subscription ended: the subscriber fell %d events behind (the server buffers at most %d per subscription)", e.Buffer, e.Buffer)
}

// Subscribe subscribes to the events that accept (nil: all) takes, until ctx
// ends. slow, when not nil, is told the error before C is closed because the
// subscriber fell behind; it must not block or call back into the topic.
func (t *Topic[T]) Subscribe(ctx context.Context, accept func(T) bool, slow func(error)) *Subscription[T] {
	s := &Subscription[T]{c: make(chan T, t.buffer), accept: accept, slow: slow}
	t.hub.mu.Lock()
	t.subs[s] = struct{}{}
	t.hub.mu.Unlock()
	context.AfterFunc(ctx, func() { t.remove(s, nil) })
	return s
}

// remove ends s, with err when not nil; once.
func (t *Topic[T]) remove(s *Subscription[T], err error) {
	t.hub.mu.Lock()
	defer t.hub.mu.Unlock()
	t.removeLocked(s, err)
}

func (t *Topic[T]) removeLocked(s *Subscription[T], err error) {
	if _, ok := t.subs[s]; !ok {
		return
	}
	delete(t.subs, s)
	if err != nil {
		s.err = err
		if s.slow != nil {
			s.slow(err)
		}
	}
	close(s.c)
}

// Len is the number of live subscriptions.
func (t *Topic[T]) Len() int {
	t.hub.mu.Lock()
	defer t.hub.mu.Unlock()
	return len(t.subs)
}

// Publish numbers an event, makes its value with make (given the event's
// seq, under the hub's lock, so values are made in seq order) and hands it
// to every subscription that accepts it, without waiting: a subscription
// whose buffer is full is ended with ErrSlow. It returns the value.
func (t *Topic[T]) Publish(make func(seq int64) T) T {
	t.hub.mu.Lock()
	defer t.hub.mu.Unlock()
	t.hub.seq++
	v := make(t.hub.seq)
	for s := range t.subs {
		if s.accept != nil && !s.accept(v) {
			continue
		}
		select {
		case s.c <- v:
		default:
			t.removeLocked(s, &ErrSlow{Buffer: t.buffer})
		}
	}
	return v
}
