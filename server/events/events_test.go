package events

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestFanOutAndFilter: every subscription gets the events its filter
// accepts, in publication order, with the hub's seq across topics.
func TestFanOutAndFilter(t *testing.T) {
	h := &Hub{}
	a, b := NewTopic[int](h, 8), NewTopic[string](h, 8)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	all := a.Subscribe(ctx, nil, nil)
	even := a.Subscribe(ctx, func(v int) bool { return v%2 == 0 }, nil)
	strs := b.Subscribe(ctx, nil, nil)
	now := time.Now()
	for i := 1; i <= 4; i++ {
		a.Publish(now, i)
	}
	if seq := b.Publish(now, "x"); seq != 5 {
		t.Errorf("seq of the fifth event = %d", seq)
	}
	for i := 1; i <= 4; i++ {
		if e := <-all.C(); e.Value != i || e.Seq != int64(i) {
			t.Errorf("all got %+v, want value and seq %d", e, i)
		}
	}
	for _, want := range []int{2, 4} {
		if e := <-even.C(); e.Value != want {
			t.Errorf("even got %d, want %d", e.Value, want)
		}
	}
	if e := <-strs.C(); e.Value != "x" || e.Seq != 5 {
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
		top.Publish(time.Now(), i)
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
