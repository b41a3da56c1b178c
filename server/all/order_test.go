package all_test

import (
	"testing"

	"github.com/gqlbench/gqlbench/server"
)

// TestOrder: every variant has its own place in the lists people read
// (server.Variant.Order), so that a new one is not left out of them.
func TestOrder(t *testing.T) {
	at := map[int]string{}
	for _, v := range server.Variants() {
		if deliberatelyBroken[v.Name] {
			continue // this test binary's own
		}
		switch other, dup := at[v.Order]; {
		case v.Order <= 0:
			t.Errorf("%s has no Order: give it one in its server.Register", v.Name)
		case dup:
			t.Errorf("%s and %s have the same Order %d", other, v.Name, v.Order)
		}
		at[v.Order] = v.Name
	}
	if len(server.Ordered()) != len(at) {
		t.Errorf("server.Ordered lists %d variants, want %d", len(server.Ordered()), len(at))
	}
}
