package events

import (
	"context"
	"errors"
	"fmt"
	"testing"
)

// TestFanOutAndFilter: every subscription gets the events its filter
// accepts, in publication order, with the hub's seq across topics.
func TestFanOutAndFilter(t *testing.T) {
	h := &Hub{}
	type ev struct {
		seq int64
		v   int
	}
	a, b := NewTopic[ev](h, 8), NewTopic[string](h, 8)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	all := a.Subscribe(ctx, nil, nil)
	even := a.Subscribe(ctx, func(e ev) bool { return e.v%2 == 0 }, nil)
	strs := b.Subscribe(ctx, nil, nil)
	for i := 1; i <= 4; i++ {
		a.Publish(func(seq int64) ev { return ev{seq, i} })
	}
	if v := b.Publish(func(seq int64) string { return fmt.Sprint("x", seq) }); v != "x5" {
		t.Errorf("the fifth event = %s, want x5", v)
	}
	for i := 1; i <= 4; i++ {
		if e := <-all.C(); e.v != i || e.seq != int64(i) {
			t.Errorf("all got %+v, want value and seq %d", e, i)
		}
	}
	for _, want := range []int{2, 4} {
		if e := <-even.C(); e.v != want {
			t.Errorf("even got %d, want %d", e.v, want)
		}
	}
	if e := <-strs.C(); e != "x5" {
		t.Errorf("strs got %+v", e)
	}
	cancel()
	if _, open := <-all.C(); open {
		t.Error("C is open after the context ended")
	}
	if all.Err() != nil {
		t.Errorf("Err = %v after the context ended", all.Err())
	}
}

// TestSlowSubscriberEnded: a subscription that does not read is ended with
// ErrSlow once its buffer is full, Publish never blocks, and the others get
// every event.
func TestSlowSubscriberEnded(t *testing.T) {
	h := &Hub{}
	top := NewTopic[int](h, 4)
	ctx := context.Background()
	var told error
	slow := top.Subscribe(ctx, nil, func(err error) { told = err })
	fast := top.Subscribe(ctx, nil, nil)
	got := 0
	for i := 0; i < 100; i++ {
		top.Publish(func(int64) int { return i })
		for len(fast.C()) > 0 {
			<-fast.C()
			got++
		}
	}
	if got != 100 {
		t.Errorf("the reading subscriber got %d of 100", got)
	}
	n := 0
	for range slow.C() {
		n++
	}
	var es *ErrSlow
	if n != 4 || !errors.As(slow.Err(), &es) || told == nil {
		t.Errorf("slow: %d events, Err %v, told %v; want 4, ErrSlow", n, slow.Err(), told)
	}
	if top.Len() != 1 {
		t.Errorf("%d live subscriptions, want 1", top.Len())
	}
}
