package server

import (
	"context"
	"slices"
	"testing"
)

// TestOrdered: the variants with an Order come by Order, ties by name; the
// ones without are left out.
func TestOrdered(t *testing.T) {
	open := func(context.Context, Config) (Executor, error) { return nil, nil }
	for _, v := range []Variant{
		{Name: "server-test-c", Order: 1000}, // ties with b: by name
		{Name: "server-test-b", Order: 1000},
		{Name: "server-test-a", Order: 2000}, // after, though first by name
		{Name: "server-test-z", Order: 999},  // before, though last by name
		{Name: "server-test-0"},              // no order: left out
	} {
		v.Open = open
		Register(v)
	}
	var got []string
	for _, v := range Ordered() {
		got = append(got, v.Name)
	}
	want := []string{"server-test-z", "server-test-b", "server-test-c", "server-test-a"}
	if !slices.Equal(got, want) {
		t.Errorf("Ordered: %v, want %v", got, want)
	}
}

// TestRegisterTwice: a second variant of the same name panics.
func TestRegisterTwice(t *testing.T) {
	v := Variant{Name: "server-test-twice", Open: func(context.Context, Config) (Executor, error) { return nil, nil }}
	Register(v)
	defer func() {
		if recover() == nil {
			t.Error("registering server-test-twice again did not panic")
		}
	}()
	Register(v)
}
