package pgtest

import (
	"strings"
	"testing"
)

func TestSlug(t *testing.T) {
	for _, tc := range []struct {
		in   string
		max  int
		want string
	}{
		{"TestFoo", 40, "testfoo"},
		{"TestFoo/sub_case#01", 40, "testfoo_sub_case_01"},
		{"Test  Ünïcode--x", 40, "test_n_code_x"},
		{"__x__", 40, "x"},
		{"TestAbcdef/ghi", 9, "testabcde"},
		{"TestAbcd/efg", 9, "testabcd"},
	} {
		if got := slug(tc.in, tc.max); got != tc.want {
			t.Errorf("slug(%q, %d) = %q, want %q", tc.in, tc.max, got, tc.want)
		}
	}
}

func TestNameFor(t *testing.T) {
	long := "Test" + strings.Repeat("VeryLong", 20)
	names := map[string]bool{}
	for _, tc := range []struct {
		dir, test string
		n         int
	}{
		{"/pkg/a", "TestX", 0},
		{"/pkg/a", "TestX", 1},
		{"/pkg/b", "TestX", 0},
		{"/pkg/a", "TestY", 0},
		{"/pkg/a", long, 0},
		{"/pkg/a", long + "2", 0},
	} {
		name := nameFor(tc.dir, tc.test, tc.n)
		if len(name) > 63 || !strings.HasPrefix(name, "t_") {
			t.Errorf("nameFor(%q, %q, %d) = %q", tc.dir, tc.test, tc.n, name)
		}
		if names[name] {
			t.Errorf("nameFor(%q, %q, %d) = %q, a name already given", tc.dir, tc.test, tc.n, name)
		}
		names[name] = true
		if again := nameFor(tc.dir, tc.test, tc.n); again != name {
			t.Errorf("nameFor is not stable: %q then %q", name, again)
		}
	}
}
